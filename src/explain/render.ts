import { createHash } from 'node:crypto';
import { excerptEndLine, renderErrorReport, renderFrame, renderMarker, type ReportEntry } from '../contract/code.js';
import type { Explanation } from './explain.js';
import { escapeHtml, renderMarkdown } from './markdown.js';
import type { FailedRequest } from './prompt.js';

/**
 * An explanation as the three things a client can ask for (`Accept`): an HTML page for a browser,
 * JSON for an API client, plain text for curl and logs (the console gets the same text).
 */

/** What the page and the text say about why the middleware is on. */
export interface RenderContext {
  request: FailedRequest | null;
  /** Why the middleware is active: `NODE_ENV=development` or `the enabled option`. */
  activeBecause: string;
}

/** The JSON answer (`Accept: application/json`). */
export interface ExplanationPayload {
  error: { type: string; message: string; status: number };
  explanation: { text: string | null; model: string; mode: 'rag' | 'norag'; notes: string[] };
  stack: ({ kind: string; function: string | null; location: string; line: number | null; column: number | null } | { omitted: number; library: boolean } | { repeated: number; times: number })[];
  sources: { chunkId: string; file: string; symbol: string; startLine: number; endLine: number; score: number }[];
  traceId: string | null;
}

/** The JSON payload of an explanation. */
export function explanationJson(explanation: Explanation, errorType: string): ExplanationPayload {
  return {
    error: { type: errorType, message: explanation.report.header, status: explanation.status },
    explanation: { text: explanation.text, model: explanation.model, mode: explanation.mode, notes: explanation.notes },
    stack: explanation.report.entries.map((entry) => {
      if ('marker' in entry) return entry.marker === 'omitted' ? { omitted: entry.count, library: entry.library } : { repeated: entry.frames, times: entry.times };
      return { kind: entry.kind, function: entry.functionName, location: entry.location, line: entry.line, column: entry.column };
    }),
    sources: explanation.sources.map(({ chunk, excerpt }) => ({ chunkId: chunk.chunkId, file: excerpt.path, symbol: excerpt.symbol, startLine: excerpt.startLine, endLine: excerptEndLine(excerpt), score: chunk.score })),
    traceId: explanation.trace?.id ?? null,
  };
}

/** Plain text: the error report, the explanation, the sources with `file:line`. */
export function renderExplanationText(explanation: Explanation, context: RenderContext): string {
  const lines: string[] = [];
  lines.push(`explainErrors: ${explanation.status}${context.request ? ` ${context.request.method} ${context.request.path}` : ''}`);
  lines.push(renderErrorReport(explanation.report));
  lines.push('');
  lines.push(`Explanation (${explanation.model}, ${explanation.mode === 'rag' ? "with the app's source" : 'from the stack trace only'}):`);
  for (const note of explanation.notes) lines.push(`  note: ${note}`);
  lines.push(explanation.text ?? '(no explanation)');
  if (explanation.sources.length > 0) {
    lines.push('');
    lines.push('Source given to the model:');
    for (const { excerpt } of explanation.sources) lines.push(`  ${excerpt.path}:${excerpt.startLine}-${excerptEndLine(excerpt)}  ${excerpt.symbol}`);
  }
  if (explanation.trace) lines.push(`trace ${explanation.trace.id}`);
  return `${lines.join('\n')}\n`;
}

const STYLE = `
body{margin:0;font:15px/1.5 system-ui,sans-serif;color:#1d232b;background:#f6f7f9}
main{max-width:960px;margin:0 auto;padding:24px}
h1{font-size:20px;margin:4px 0 16px;word-break:break-word}
h2{font-size:16px;margin:0 0 8px}
section{background:#fff;border:1px solid #dde1e6;border-radius:8px;padding:16px;margin:0 0 16px}
.status{color:#6a737d;margin:0}
.meta,.note{color:#6a737d;font-size:13px;margin:0 0 8px}
.note{color:#8a4b00}
code,pre{font:13px/1.45 ui-monospace,SFMono-Regular,Menlo,monospace}
pre{background:#f3f4f6;padding:8px 12px;border-radius:6px;overflow:auto;margin:8px 0}
ol.stack{list-style:none;padding:0;margin:0;font:13px/1.6 ui-monospace,SFMono-Regular,Menlo,monospace}
ol.stack li{padding:1px 6px;border-radius:4px;white-space:pre-wrap;word-break:break-all}
ol.stack li.app{background:#fff4d6;font-weight:600}
ol.stack li.library{color:#57606a}
ol.stack li.internal,ol.stack li.marker{color:#8c959f}
.kind{display:inline-block;width:3.5em;color:#8c959f;font-weight:400}
figure{margin:0 0 12px}
figcaption{font:13px ui-monospace,SFMono-Regular,Menlo,monospace;color:#57606a}
.line{display:block}
.line.hit{background:#fff4d6}
.number{color:#8c959f;user-select:none}
footer{color:#6a737d;font-size:13px}
`;

/** The page's Content-Security-Policy: no scripts at all, only its own stylesheet (by hash). */
export const ERROR_PAGE_CSP = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'; img-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

/**
 * The HTML dev page: the explanation (model output escaped before its Markdown is rendered), the
 * trimmed stack with the app's frames highlighted, and the source the model was given with
 * `file:line`. No scripts; everything inline is covered by {@link ERROR_PAGE_CSP}.
 */
export function renderExplanationHtml(explanation: Explanation, context: RenderContext): string {
  const hits = new Set(explanation.report.entries.flatMap((entry) => ('marker' in entry || entry.kind !== 'app' || entry.line === null ? [] : [`${entry.location}:${entry.line}`])));
  const sources = explanation.sources
    .map(({ chunk, excerpt }) => {
      const code = excerpt.lines
        .map((line, index) => {
          const number = excerpt.startLine + index;
          const hit = hits.has(`${excerpt.path}:${number}`);
          return `<span class="line${hit ? ' hit' : ''}"><span class="number">${String(number).padStart(4)} </span>${escapeHtml(line)}</span>`;
        })
        .join('');
      return `<figure><figcaption>${escapeHtml(`${excerpt.path}:${excerpt.startLine}–${excerptEndLine(excerpt)}`)} · ${escapeHtml(excerpt.symbol)} · score ${chunk.score.toFixed(2)}</figcaption><pre><code>${code}</code></pre></figure>`;
    })
    .join('\n');
  const notes = explanation.notes.map((note) => `<p class="note">${escapeHtml(note)}</p>`).join('');
  const requestLine = context.request ? ` · ${escapeHtml(`${context.request.method} ${context.request.path}`)}` : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(explanation.report.header.slice(0, 120))}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<p class="status">${explanation.status}${requestLine}</p>
<h1>${escapeHtml(explanation.report.header)}</h1>
<section class="explanation">
<h2>Explanation</h2>
<p class="meta">${escapeHtml(explanation.model)} · ${explanation.mode === 'rag' ? "with the app's own source" : 'from the stack trace only'}${explanation.trace ? ` · trace ${escapeHtml(explanation.trace.id)}` : ''}</p>
${notes}
${explanation.text === null ? '<p>No explanation.</p>' : renderMarkdown(explanation.text)}
</section>
<section>
<h2>Stack trace</h2>
<ol class="stack">
${explanation.report.entries.map(stackItem).join('\n')}
</ol>
</section>
${sources === '' ? '' : `<section>\n<h2>Source given to the model</h2>\n${sources}\n</section>`}
<footer>explainErrors is on because of ${escapeHtml(context.activeBecause)}. It never explains anything when NODE_ENV is not exactly <code>development</code> unless told to: there it only passes the error on.</footer>
</main>
</body>
</html>
`;
}

function stackItem(entry: ReportEntry): string {
  if ('marker' in entry) return `<li class="marker">${escapeHtml(renderMarker(entry))}</li>`;
  const label = entry.kind === 'app' ? 'app' : entry.kind === 'library' ? 'lib' : 'node';
  return `<li class="${entry.kind}"><span class="kind">${label}</span>${escapeHtml(renderFrame(entry))}</li>`;
}
