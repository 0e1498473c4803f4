import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import express from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { captureRag } from '../capture/middleware.js';
import { openCaptureStore } from '../capture/store.js';
import { createJudgeWorker } from '../capture/worker.js';
import { createHeuristicFaithfulnessJudge } from '../judge/heuristic-judge.js';
import { createLocalEmbedder } from '../providers/local/embedder.js';
import { memoryLogger } from '../test-support/capture-helpers.js';
import { onCleanup, tempDir } from '../test-support/fixtures.js';
import { MockChatModel } from '../testing/index.js';
import { explainErrors, type ExplainErrorsOptions } from './middleware.js';
import { ERROR_PAGE_CSP } from './render.js';

const APP = fileURLToPath(new URL('../../fixtures/breakable-app', import.meta.url));
const { createBreakableApp } = (await import(`${APP}/src/app.js`)) as { createBreakableApp: (options: { errorHandler?: unknown; before?: unknown[] }) => express.Express };

/** The breakable app with explainErrors mounted, its index in a temp folder; a final handler records what reaches it. */
function breakable(options: ExplainErrorsOptions = {}, before: express.RequestHandler[] = []) {
  const indexPath = join(tempDir(), 'source-index.db');
  const middleware = explainErrors({ enabled: true, root: APP, indexPath, print: false, embedder: createLocalEmbedder(), ...options });
  onCleanup(() => middleware.close());
  const passedOn: unknown[] = [];
  const app = createBreakableApp({ before, errorHandler: [middleware, (error: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    passedOn.push(error);
    if (res.headersSent) res.end();
    else res.status(599).json({ passedOn: true });
  }] });
  return { app, middleware, indexPath, passedOn };
}

describe('production inertness', () => {
  function inertApp(env: Record<string, string | undefined>) {
    const root = tempDir();
    mkdirSync(join(root, 'src'));
    writeFileSync(join(root, 'src', 'a.js'), 'export function boom() { throw new Error("boom"); }\n');
    const chat = new MockChatModel({ text: 'an explanation' });
    const { logger, lines } = memoryLogger();
    const limitBefore = Error.stackTraceLimit;
    const middleware = explainErrors({ env, root, chat, embedder: createLocalEmbedder(), logger, print: () => { throw new Error('must not print'); } });
    const passedOn: unknown[] = [];
    const app = express();
    app.get('/boom', () => {
      throw new Error('boom');
    });
    app.use(middleware);
    app.use((error: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
      passedOn.push(error);
      res.status(500).json({ handledBy: 'the app' });
    });
    return { app, root, chat, lines, middleware, passedOn, limitBefore };
  }

  it.each([['production'], ['test'], ['Development'], ['dev'], [undefined]])('NODE_ENV=%s: only next(err), logged once; no model call, no source read, no index', async (nodeEnv) => {
    const { app, root, chat, lines, middleware, passedOn, limitBefore } = inertApp({ NODE_ENV: nodeEnv });
    expect(middleware.active).toBe(false);
    for (let attempt = 0; attempt < 3; attempt++) {
      const response = await request(app).get('/boom').set('Accept', 'text/html');
      expect(response.status).toBe(500);
      expect(response.body).toEqual({ handledBy: 'the app' });
    }
    expect(passedOn.map((error) => (error as Error).message)).toEqual(['boom', 'boom', 'boom']);
    expect(chat.calls).toEqual([]);
    expect(existsSync(join(root, '.groundcheck'))).toBe(false);
    expect(readdirSync(root)).toEqual(['src']);
    expect(Error.stackTraceLimit).toBe(limitBefore);
    expect(lines.filter((line) => line.event === 'explain.inactive')).toHaveLength(1);
    await expect(middleware.explain(new Error('x'))).rejects.toThrow(/inactive/);
  });

  it('is active when NODE_ENV is exactly development, or when enabled: true overrides it', () => {
    const options = { root: tempDir(), chat: new MockChatModel(), embedder: createLocalEmbedder(), print: false as const };
    expect(explainErrors({ ...options, env: { NODE_ENV: 'development' } }).active).toBe(true);
    expect(explainErrors({ ...options, env: { NODE_ENV: 'production' }, enabled: true }).active).toBe(true);
    expect(explainErrors({ ...options, env: { NODE_ENV: 'development' }, enabled: false }).active).toBe(false);
  });

  it('validates options at construction, naming the option', () => {
    expect(() => explainErrors({ maxFrames: 0 })).toThrow(/option maxFrames 0 is invalid/);
    expect(() => explainErrors({ truncation: 'middle' as never })).toThrow(/option truncation "middle" is invalid/);
    expect(() => explainErrors({ rateLimit: { max: 0, windowMs: 10 } })).toThrow(/option rateLimit.max 0 is invalid/);
  });
});

describe('explainErrors in development', () => {
  it('raises Error.stackTraceLimit, builds the source index lazily on the first error, and explains with RAG over it (JSON)', async () => {
    const { app, indexPath, middleware } = breakable();
    expect(Error.stackTraceLimit).toBeGreaterThanOrEqual(50);
    expect(existsSync(indexPath)).toBe(false);
    const response = await request(app).get('/posts/99').set('Accept', 'application/json');
    expect(response.status).toBe(500);
    expect(existsSync(indexPath)).toBe(true);
    expect(middleware.source?.opened).toBe(true);
    expect(response.body.error).toEqual({ type: 'internal', message: "TypeError: Cannot read properties of undefined (reading 'id')", status: 500 });
    expect(response.body.explanation).toMatchObject({ model: 'local:local-explain-extractive-v2', mode: 'rag', notes: [] });
    expect(response.body.stack[0]).toEqual({ kind: 'app', function: 'showPost', location: 'src/routes/posts.js', line: 8, column: 23 });
    expect(response.body.sources[0]).toMatchObject({ chunkId: 'src/routes/posts.js#showPost', file: 'src/routes/posts.js', symbol: 'showPost', startLine: 6, endLine: 9 });
    const text: string = response.body.explanation.text;
    expect(text).toContain("`TypeError: Cannot read properties of undefined (reading 'id')`");
    expect(text).toContain('It was thrown in `showPost` (src/routes/posts.js:8)');
    expect(text).toContain('Line 7 of src/routes/posts.js (in `showPost`): `const post = findPost(Number(req.params.id));`');
    expect(text).toContain('Offline baseline');
    expect(response.headers['content-security-policy']).toBe(ERROR_PAGE_CSP);
  });

  it.each([
    ['text/html', /^text\/html/, (body: string) => expect(body).toMatch(/^<!doctype html>/)],
    ['application/json', /^application\/json/, (body: string) => expect(JSON.parse(body).traceId).toMatch(/^[0-9a-f-]{36}$/)],
    ['text/plain', /^text\/plain/, (body: string) => expect(body).toMatch(/^explainErrors: 500 GET \/posts\/99\nUnhandled error: TypeError/)],
    ['application/xml', /^text\/plain/, (body: string) => expect(body).toContain('Unhandled error:')],
  ])('Accept: %s is answered as %s', async (accept, type, check) => {
    const { app } = breakable({ rag: false });
    const response = await request(app).get('/posts/99').set('Accept', accept).buffer(true).parse((res, callback) => {
      let data = '';
      res.on('data', (chunk: Buffer) => (data += chunk.toString()));
      res.on('end', () => callback(null, data));
    });
    expect(response.status).toBe(500);
    expect(response.headers['content-type']).toMatch(type);
    check(response.body as string);
  });

  it('escapes model output before rendering its Markdown: a <script> in an explanation is inert; the page is CSP-safe', async () => {
    const chat = new MockChatModel({ text: 'The value is **undefined**: use `findPost(id)`.\n\n<script>alert("x")</script> <img src=x onerror=alert(1)> [link](javascript:alert(1))\n\n```\n</code></pre><script>alert(2)</script>\n```' });
    const { app } = breakable({ chat, rag: false });
    const response = await request(app).get('/posts/99').set('Accept', 'text/html');
    const html = response.text;
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<img/i);
    expect(html).not.toMatch(/href=/i);
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(html).toContain('<strong>undefined</strong>');
    expect(html).toContain('<code>findPost(id)</code>');
    expect(html).toContain('<pre><code>&lt;/code&gt;&lt;/pre&gt;&lt;script&gt;alert(2)&lt;/script&gt;</code></pre>');
    expect(response.headers['content-security-policy']).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+'/);
    expect(response.headers['content-security-policy']).not.toMatch(/script-src|unsafe-inline/);
    expect(html).toContain('<li class="app"><span class="kind">app</span>at showPost (src/routes/posts.js:8:23)</li>');
  });

  it('shows the retrieved source with file:line and highlights the frame line on the page', async () => {
    const { app } = breakable();
    const html = (await request(app).get('/posts/99').set('Accept', 'text/html')).text;
    expect(html).toMatch(/<figcaption>src\/routes\/posts\.js:6–9 · showPost · score -?\d\.\d\d<\/figcaption>/);
    expect(html).toContain('<span class="line hit"><span class="number">   8 </span>  res.json({ id: post.id');
  });

  it('calls next(err) when headers were already sent', async () => {
    const chat = new MockChatModel({ text: 'never' });
    const sentEarly: express.RequestHandler = (req, res, next) => {
      if (req.path !== '/stream') return next();
      res.status(200).write('partial');
      next(new Error('failed mid-stream'));
    };
    const { app, passedOn } = breakable({ chat }, [sentEarly]);
    const response = await request(app).get('/stream');
    expect(response.status).toBe(200);
    expect(passedOn.map((error) => (error as Error).message)).toEqual(['failed mid-stream']);
    expect(chat.calls).toEqual([]);
  });

  it('rate-limits model calls and still shows the stack; prints every explanation to the console', async () => {
    const chat = new MockChatModel({ text: 'Because `post` is undefined.' });
    const printed: string[] = [];
    const { app } = breakable({ chat, rag: false, rateLimit: { max: 2, windowMs: 60_000 }, print: (text) => printed.push(text) });
    const bodies = [];
    for (let attempt = 0; attempt < 3; attempt++) bodies.push((await request(app).get('/posts/99').set('Accept', 'application/json')).body);
    expect(chat.calls).toHaveLength(2);
    expect(bodies.map((body) => body.explanation.text)).toEqual(['Because `post` is undefined.', 'Because `post` is undefined.', null]);
    expect(bodies[2].explanation.notes).toEqual(['rate limit reached (2 explanations per 60 s): no model call for this error']);
    expect(bodies[2].stack[0]).toMatchObject({ kind: 'app', function: 'showPost' });
    expect(printed).toHaveLength(3);
    expect(printed[0]).toContain('Unhandled error: TypeError');
    expect(printed[0]).toContain('Because `post` is undefined.');
  });

  it('falls back to the stack alone when retrieval fails (no index built, buildIndex: never)', async () => {
    const chat = new MockChatModel({ text: 'From the stack.' });
    const { app } = breakable({ chat, buildIndex: 'never' });
    const body = (await request(app).get('/posts/99').set('Accept', 'application/json')).body;
    expect(body.explanation.mode).toBe('norag');
    expect(body.explanation.notes[0]).toMatch(/^source retrieval failed \(no source index at .*source-index\.db: run `groundcheck index-source/);
    expect(chat.calls[0]!.messages[1]!.content).not.toContain('<documents>');
  });

  it('a model failure leaves the page with the stack and a note, and nothing recorded', async () => {
    const chat = new MockChatModel({ text: new Error('upstream 503') });
    const { app } = breakable({ chat, rag: false });
    const body = (await request(app).get('/posts/99').set('Accept', 'application/json')).body;
    expect(body.explanation).toMatchObject({ text: null, notes: ['the model could not explain this error: upstream 503'] });
    expect(body.traceId).toBeNull();
  });

  it('every explanation is a trace: captureRag records it and the live judge judges it unchanged', async () => {
    const store = openCaptureStore({ path: join(tempDir(), 'captures.db') });
    onCleanup(() => store.close());
    const capture = captureRag({ store, logger: memoryLogger().logger });
    const { app } = breakable({}, [capture]);
    const body = (await request(app).get('/posts/1/comments').set('Accept', 'application/json')).body;
    await capture.flush();
    const stored = (await store.getCapture(body.traceId))!.capture;
    expect(stored).toMatchObject({ traceId: body.traceId, route: '/posts/:id/comments', status: 500, mode: 'rag', promptVersion: 'explain-v1' });
    expect(stored.query).toMatch(/^TypeError: comments\.map is not a function\nat listComments \(src\/routes\/comments\.js:11:21\)\n/);
    expect(stored.chunks[0]).toMatchObject({ chunkId: 'src/routes/comments.js#listComments', title: 'src/routes/comments.js', section: 'listComments', updated: null });
    expect(stored.answer).toBe(body.explanation.text);

    const worker = createJudgeWorker({ store, judge: createHeuristicFaithfulnessJudge(), settleMs: 0, pollMs: 10, logger: memoryLogger().logger });
    worker.start();
    onCleanup(() => void worker.stop());
    await worker.whenIdle();
    const [judgment] = (await store.getCapture(body.traceId))!.judgments;
    expect(judgment).toMatchObject({ status: 'ok', judge: { kind: 'heuristic' } });
    expect(judgment!.claims.length).toBeGreaterThan(0);
  });
});
