import { normalizeSourceFields, parseChunkText, renderChunkText } from './formats.js';

/**
 * The two text formats an error explanation's prompt is written in, each a render/parse pair:
 *
 * - the **code excerpt**: a chunk of source as a model sees it. It is a chunk text
 *   (`renderChunkText`: the `[Source: …]` line, then the body) whose title is the file's path
 *   relative to the app, whose section is the symbol (`showPost`, `User.toJSON`, `lines 1–40`) and
 *   whose body is the code with each line prefixed by its line number (`  12 | code`), so a model
 *   can cite `file:line` and a judge can check it;
 * - the **error report**: the error's header and its trimmed stack, one frame per line, each marked
 *   `app`, `lib` or `node` (the app's own code, a dependency, Node's internals), with the markers
 *   truncation leaves (`… 5 library frames omitted …`, `… the 2 frames above repeat 23 more times …`).
 *
 * The explainer middleware renders both, the offline explainer and the explanation judges parse
 * them; nobody else reads them with a regex of their own. Changing either changes what models
 * see: bump `EXPLAIN_PROMPT_VERSION` (src/explain/prompt.ts) and say so in METHODOLOGY.md.
 */

// ---------------------------------------------------------------------------------------------
// Code excerpt.

/** One excerpt of a source file. */
export interface CodeExcerpt {
  /** Path relative to the app's root, `/`-separated: `src/routes/posts.js`. */
  path: string;
  /** What the excerpt is: `showPost`, `User.toJSON`, `router.get('/x') handler`, `lines 1–40`. */
  symbol: string;
  /** 1-based number of the first line. */
  startLine: number;
  /** The lines, without line breaks. */
  lines: string[];
}

const NUMBERED_LINE = /^ *(\d+) \| ?(.*)$/;

/**
 * Exactly what a model sees for a code excerpt: a chunk text with the path as its title, the
 * symbol as its section, and each line numbered.
 *
 * @example
 * renderCodeExcerpt({ path: 'src/a.js', symbol: 'f', startLine: 9, lines: ['function f() {', '}'] })
 * // '[Source: src/a.js | Section: f | Last updated: unknown]\n 9 | function f() {\n10 | }'
 */
export function renderCodeExcerpt(excerpt: CodeExcerpt): string {
  const last = excerpt.startLine + Math.max(0, excerpt.lines.length - 1);
  const width = String(last).length;
  const body = excerpt.lines.map((line, index) => `${String(excerpt.startLine + index).padStart(width)} | ${line.replace(/[\r\n]/g, ' ')}`).join('\n');
  return renderChunkText({ title: excerpt.path, section: excerpt.symbol, updated: null, body });
}

/**
 * Read a text written by {@link renderCodeExcerpt}; `null` when it is not one (no source line, or a
 * body line without a line number). Path and symbol come back as the source line normalizes them
 * (`sourceFieldText`); the code lines with prompt delimiters neutralized.
 */
export function parseCodeExcerpt(text: string): CodeExcerpt | null {
  const parts = parseChunkText(text);
  if (parts === null || parts.body === '') return null;
  const lines: string[] = [];
  let startLine = 0;
  for (const [index, line] of parts.body.split('\n').entries()) {
    const match = NUMBERED_LINE.exec(line);
    if (!match) return null;
    const number = Number(match[1]);
    if (index === 0) startLine = number;
    else if (number !== startLine + index) return null;
    lines.push(match[2]!);
  }
  return { path: parts.title, symbol: parts.section, startLine, lines };
}

/** The normalized path and symbol {@link parseCodeExcerpt} gives back for an excerpt. */
export function normalizeExcerptFields(excerpt: Pick<CodeExcerpt, 'path' | 'symbol'>): Pick<CodeExcerpt, 'path' | 'symbol'> {
  const fields = normalizeSourceFields({ title: excerpt.path, section: excerpt.symbol, updated: null });
  return { path: fields.title, symbol: fields.section };
}

/** The last line number an excerpt covers. */
export function excerptEndLine(excerpt: Pick<CodeExcerpt, 'startLine' | 'lines'>): number {
  return excerpt.startLine + Math.max(0, excerpt.lines.length - 1);
}

// ---------------------------------------------------------------------------------------------
// Error report.

/** Where a frame's code lives: the app's own source, a dependency, or Node itself. */
export type FrameKind = 'app' | 'library' | 'internal';

/** One stack frame as the report shows it. */
export interface ReportFrame {
  kind: FrameKind;
  /** `showPost`, `User.toJSON`, `async listComments`; `null` for an anonymous function. */
  functionName: string | null;
  /** A path relative to the app (`src/routes/posts.js`), `node_modules/…`, `node:…`, or `<anonymous>`. */
  location: string;
  line: number | null;
  column: number | null;
}

/** A line truncation leaves in the report instead of frames. */
export type ReportMarker =
  /** `library`: only frames of dependencies and Node were left out; `false`: app frames may be among them. */
  | { marker: 'omitted'; count: number; library: boolean }
  | { marker: 'repeated'; frames: number; times: number };

export type ReportEntry = ReportFrame | ReportMarker;

/** An error's header and its trimmed stack. */
export interface ErrorReport {
  /** `TypeError: Cannot read properties of undefined (reading 'id')`, on one line. */
  header: string;
  entries: ReportEntry[];
}

const HEADER_PREFIX = 'Unhandled error: ';
const STACK_INTRO = 'Stack trace (innermost call first; "app" marks the app\'s own code, "lib" a dependency, "node" Node.js itself):';
const KIND_LABEL: Record<FrameKind, string> = { app: 'app', library: 'lib', internal: 'node' };
const LABEL_KIND: Record<string, FrameKind> = { app: 'app', lib: 'library', node: 'internal' };
const FRAME_PREFIX = /^(app|lib|node) {1,2}at /;
const OMITTED_LINE = /^ {5}… (\d+) (library )?frames? omitted …$/;
const REPEATED_LINE = /^ {5}… the (\d+) frames? above repeats? (\d+) more times? …$/;

/**
 * One frame as the report writes it: `at showPost (src/routes/posts.js:7:23)`; an anonymous
 * function is `at <anonymous> (…)`. Parentheses in a function name are written as brackets, so
 * the name always ends at the first ` (`.
 */
export function renderFrame(frame: Omit<ReportFrame, 'kind'>): string {
  const position = frame.line === null ? '' : `:${frame.line}${frame.column === null ? '' : `:${frame.column}`}`;
  return `at ${frameName(frame.functionName)} (${oneLine(frame.location)}${position})`;
}

function frameName(name: string | null): string {
  return name === null ? ANONYMOUS : oneLine(name).replace(/\(/g, '[').replace(/\)/g, ']');
}

const ANONYMOUS = '<anonymous>';

/** The marker line for an entry that is not a frame (without its indentation). */
export function renderMarker(marker: ReportMarker): string {
  if (marker.marker === 'omitted') return `… ${marker.count} ${marker.library ? 'library ' : ''}${marker.count === 1 ? 'frame' : 'frames'} omitted …`;
  return `… the ${marker.frames} ${marker.frames === 1 ? 'frame' : 'frames'} above ${marker.frames === 1 ? 'repeats' : 'repeat'} ${marker.times} more ${marker.times === 1 ? 'time' : 'times'} …`;
}

/**
 * The error report a model sees: the header line, the stack's intro line, then one line per
 * entry. Line breaks inside the header or a frame become spaces.
 *
 * @example
 * renderErrorReport({ header: 'TypeError: x is not a function', entries: [{ kind: 'app', functionName: 'f', location: 'src/a.js', line: 3, column: 9 }] })
 * // 'Unhandled error: TypeError: x is not a function\nStack trace (…):\napp  at f (src/a.js:3:9)'
 */
export function renderErrorReport(report: ErrorReport): string {
  const lines = [`${HEADER_PREFIX}${oneLine(report.header)}`, STACK_INTRO];
  for (const entry of report.entries) {
    lines.push('marker' in entry ? `     ${renderMarker(entry)}` : `${KIND_LABEL[entry.kind].padEnd(4)} ${renderFrame(entry)}`);
  }
  return lines.join('\n');
}

/**
 * Read a report written by {@link renderErrorReport} from the start of `text` (anything after the
 * report, such as a blank line and further text, is ignored); `null` when `text` does not start
 * with one.
 */
export function parseErrorReport(text: string): ErrorReport | null {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  if (!lines[0]?.startsWith(HEADER_PREFIX) || lines[1] !== STACK_INTRO) return null;
  const entries: ReportEntry[] = [];
  for (const line of lines.slice(2)) {
    const omitted = OMITTED_LINE.exec(line);
    if (omitted) {
      entries.push({ marker: 'omitted', count: Number(omitted[1]), library: omitted[2] !== undefined });
      continue;
    }
    const repeated = REPEATED_LINE.exec(line);
    if (repeated) {
      entries.push({ marker: 'repeated', frames: Number(repeated[1]), times: Number(repeated[2]) });
      continue;
    }
    const frame = parseFrameLine(line);
    if (frame === null) break;
    entries.push(frame);
  }
  return { header: lines[0].slice(HEADER_PREFIX.length), entries };
}

function parseFrameLine(line: string): ReportFrame | null {
  const prefix = FRAME_PREFIX.exec(line);
  if (!prefix || !line.endsWith(')')) return null;
  const rest = line.slice(prefix[0].length, -1);
  const open = rest.indexOf(' (');
  if (open === -1) return null;
  const name = rest.slice(0, open);
  let location = rest.slice(open + 2);
  let lineNumber: number | null = null;
  let column: number | null = null;
  const position = /:(\d+)(?::(\d+))?$/.exec(location);
  if (position) {
    location = location.slice(0, position.index);
    lineNumber = Number(position[1]);
    column = position[2] === undefined ? null : Number(position[2]);
  }
  return { kind: LABEL_KIND[prefix[1]!]!, functionName: name === ANONYMOUS ? null : name, location, line: lineNumber, column };
}

/** The frames of a report, markers left out. */
export function reportFrames(report: ErrorReport): ReportFrame[] {
  return report.entries.filter((entry): entry is ReportFrame => !('marker' in entry));
}

/** A value as it can appear on one report line (line breaks and runs of white space as one space). */
function oneLine(value: string): string {
  return value.replace(/\s+/g, ' ').trim();
}

/** The header and frames {@link parseErrorReport} gives back for a report (white space collapsed). */
export function normalizeErrorReport(report: ErrorReport): ErrorReport {
  return {
    header: oneLine(report.header),
    entries: report.entries.map((entry) => ('marker' in entry ? entry : { ...entry, functionName: entry.functionName === null ? null : frameName(entry.functionName), location: oneLine(entry.location) })),
  };
}

