import { describe, expect, it } from 'vitest';
import { renderCodeExcerpt, type ErrorReport } from '../contract/code.js';
import type { RetrievedChunk } from '../contract/trace.js';
import { BASELINE_NOTE, createLocalExplainer } from './local-explainer.js';
import { renderMarkdown } from './markdown.js';
import { buildExplainMessages } from './prompt.js';

const REPORT: ErrorReport = {
  header: "TypeError: Cannot read properties of undefined (reading 'id')",
  entries: [
    { kind: 'app', functionName: 'showPost', location: 'src/routes/posts.js', line: 8, column: 23 },
    { kind: 'library', functionName: 'Layer.handleRequest', location: 'node_modules/router/lib/layer.js', line: 169, column: 33 },
    { marker: 'omitted', count: 12, library: true },
  ],
};

function chunk(path: string, symbol: string, startLine: number, lines: string[]): RetrievedChunk {
  return { chunkId: `${path}#${symbol}`, document: path, title: path, section: symbol, updated: null, text: renderCodeExcerpt({ path, symbol, startLine, lines }), hash: 'h', score: 0.5, fusedScore: 1, rank: 1, vectorRank: 1, textRank: 1 };
}

const CHUNKS = [
  chunk('src/routes/posts.js', 'showPost', 6, ['export function showPost(req, res) {', '  const post = findPost(Number(req.params.id));', '  res.json({ id: post.id, title: post.title });', '}']),
  chunk('src/db/posts.js', 'findPost', 34, ['export function findPost(id) {', '  return POSTS.find((post) => post.id === id);', '}']),
  chunk('src/routes/posts.js', 'registerPostRoutes', 43, ['export function registerPostRoutes(router) {', "  router.get('/posts/:id', showPost);", '}']),
];

async function explain(mode: 'rag' | 'norag', report = REPORT) {
  const { text } = await createLocalExplainer().generate({ messages: buildExplainMessages({ report, request: { method: 'GET', path: '/posts/99' }, chunks: mode === 'rag' ? CHUNKS : [], mode }) });
  return text;
}

describe('the offline explainer', () => {
  it('names the error, the innermost app frame and the relevant retrieved lines, and says it is a baseline', async () => {
    expect(await explain('rag')).toBe(
      [
        "**What happened:** `TypeError: Cannot read properties of undefined (reading 'id')`. This means the code read `.id` from a value that was `undefined`: the object it expected is missing, so the value on the left of `.id` is where to look.",
        '**Where:** It was thrown in `showPost` (src/routes/posts.js:8).',
        '**Relevant code:**\n' +
          '- Line 8 of src/routes/posts.js (in `showPost`): `res.json({ id: post.id, title: post.title });`\n' +
          '- Line 7 of src/routes/posts.js (in `showPost`): `const post = findPost(Number(req.params.id));`\n' +
          '- Line 35 of src/db/posts.js (in `findPost`): `return POSTS.find((post) => post.id === id);`\n' +
          "- Line 44 of src/routes/posts.js (in `registerPostRoutes`): `router.get('/posts/:id', showPost);`",
        '**How to fix:** Start in `showPost` (src/routes/posts.js). For this kind of error, check that value before reading `.id`; if it comes from a lookup, handle the not-found case (for example answer 404), and if it comes from the request, check the parameter or field name.',
        BASELINE_NOTE,
      ].join('\n\n'),
    );
  });

  it('an anonymous innermost frame (an inline route handler) is where it starts, not another file that names the same property', async () => {
    const report: ErrorReport = {
      header: "TypeError: Cannot read properties of undefined (reading 'title')",
      entries: [{ kind: 'app', functionName: null, location: 'app2.mjs', line: 6, column: 100 }, { kind: 'library', functionName: 'Layer.handleRequest', location: 'node_modules/router/lib/layer.js', line: 169, column: 33 }],
    };
    const chunks = [
      chunk('app2.mjs', "app.get('/posts/:id') handler", 6, ["app.get('/posts/:id', (req, res) => { const post = findPost(req.params.id); res.json({ title: post.title.toUpperCase() }); });"]),
      // Another route that names `title` twice on one line: it scores higher on the error's words.
      chunk('app.mjs', "app.post('/ask') handler", 14, ['  res.json({ chunks: hits.map((h) => ({ title: h.title, text: h.text })), title: hits[0].title });']),
    ];
    const { text } = await createLocalExplainer().generate({ messages: buildExplainMessages({ report, request: { method: 'GET', path: '/posts/2' }, chunks, mode: 'rag' }) });
    expect(text).toContain("**How to fix:** Start in `app.get('/posts/:id') handler` (app2.mjs:6).");
    expect(text).not.toMatch(/Start in [^.]*app\.mjs/);
  });

  it('without source it quotes no code, and says the same baseline note (no mode given away)', async () => {
    const text = await explain('norag');
    expect(text).not.toContain('Relevant code');
    expect(text).toContain('It was thrown in `showPost` (src/routes/posts.js:8).');
    expect(text.endsWith(BASELINE_NOTE)).toBe(true);
  });

  it('with no app frame in the stack it says so, and names the innermost frame', async () => {
    const text = await explain('norag', { header: 'SyntaxError: Unexpected token } in JSON at position 18', entries: [{ kind: 'library', functionName: 'parse', location: 'node_modules/body-parser/lib/types/json.js', line: 93, column: 21 }] });
    expect(text).toContain("None of the frames shown is in the app's own code; the innermost is `parse` (node_modules/body-parser/lib/types/json.js:93).");
    expect(text).toContain('send valid JSON');
  });
});

describe('Markdown for the page', () => {
  it.each([
    ['plain <b>html</b> & "quotes"', '<p>plain &lt;b&gt;html&lt;/b&gt; &amp; &quot;quotes&quot;</p>'],
    ['**bold** and _em_ and `a < b`', '<p><strong>bold</strong> and <em>em</em> and <code>a &lt; b</code></p>'],
    ['- one\n- `two`', '<ul><li>one</li><li><code>two</code></li></ul>'],
    ['[x](javascript:alert(1))', '<p>[x](javascript:alert(1))</p>'],
    ['```\n<script>\n```', '<pre><code>&lt;script&gt;</code></pre>'],
    ['snake_case_name stays', '<p>snake_case_name stays</p>'],
  ])('%j', (markdown, html) => {
    expect(renderMarkdown(markdown)).toBe(html);
  });
});
