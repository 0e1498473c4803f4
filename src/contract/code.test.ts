import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  excerptEndLine,
  normalizeErrorReport,
  normalizeExcerptFields,
  parseCodeExcerpt,
  parseErrorReport,
  renderCodeExcerpt,
  renderErrorReport,
  type ErrorReport,
  type ReportEntry,
} from './code.js';
import { neutralizeDelimiters, parseChunkText, PROMPT_TAGS } from './formats.js';

const hostile = fc.oneof(
  fc.constantFrom(...PROMPT_TAGS.flatMap((tag) => [`<${tag}>`, `</${tag}>`]), ' | ', '|', ']', '[Source: x | Last updated: y]', ' (', ')', '(', ':12:3', '…', '"app"'),
  fc.string({ maxLength: 10 }),
);
const text = fc.array(hostile, { maxLength: 6 }).map((parts) => parts.join(''));
const codeLine = text.map((line) => line.replace(/[\r\n]/g, ''));

describe('code excerpt', () => {
  it('renders a chunk text with the path as title, the symbol as section and numbered lines', () => {
    const rendered = renderCodeExcerpt({ path: 'src/routes/posts.js', symbol: 'showPost', startLine: 9, lines: ['export function showPost(req, res) {', '  return 1;', '}'] });
    expect(rendered).toBe(
      '[Source: src/routes/posts.js | Section: showPost | Last updated: unknown]\n' +
        ' 9 | export function showPost(req, res) {\n10 |   return 1;\n11 | }',
    );
    expect(parseChunkText(rendered)).toMatchObject({ title: 'src/routes/posts.js', section: 'showPost', updated: null });
    expect(parseCodeExcerpt(rendered)).toEqual({ path: 'src/routes/posts.js', symbol: 'showPost', startLine: 9, lines: ['export function showPost(req, res) {', '  return 1;', '}'] });
    expect(excerptEndLine({ startLine: 9, lines: ['a', 'b', 'c'] })).toBe(11);
  });

  it('round-trips any path, symbol and code (fields normalized as the source line does, code delimiters neutralized)', () => {
    fc.assert(
      fc.property(text.filter((value) => value.trim() !== ''), text.filter((value) => value.trim() !== ''), fc.integer({ min: 1, max: 99_999 }), fc.array(codeLine, { minLength: 1, maxLength: 8 }), (path, symbol, startLine, lines) => {
        const parsed = parseCodeExcerpt(renderCodeExcerpt({ path, symbol, startLine, lines }));
        expect(parsed).toEqual({ ...normalizeExcerptFields({ path, symbol }), startLine, lines: lines.map((line) => neutralizeDelimiters(line)) });
      }),
    );
  });

  it('is not a code excerpt without numbered lines, or with a gap in the numbers', () => {
    expect(parseCodeExcerpt('[Source: a.md | Last updated: unknown]\nPlain prose.')).toBeNull();
    expect(parseCodeExcerpt('[Source: a.js | Last updated: unknown]\n1 | a\n3 | b')).toBeNull();
    expect(parseCodeExcerpt('no source line')).toBeNull();
  });
});

describe('error report', () => {
  const report: ErrorReport = {
    header: "TypeError: Cannot read properties of undefined (reading 'id')",
    entries: [
      { kind: 'app', functionName: 'showPost', location: 'src/routes/posts.js', line: 7, column: 23 },
      { kind: 'app', functionName: null, location: 'src/routes/posts.js', line: 18, column: 67 },
      { kind: 'internal', functionName: 'Array.filter', location: '<anonymous>', line: null, column: null },
      { marker: 'omitted', count: 5, library: true },
      { marker: 'omitted', count: 1, library: false },
      { kind: 'library', functionName: 'Layer.handleRequest', location: 'node_modules/router/lib/layer.js', line: 169, column: 33 },
      { marker: 'repeated', frames: 2, times: 23 },
      { kind: 'internal', functionName: 'eval', location: 'eval at f (src/a.js:1:1), <anonymous>', line: 1, column: 1 },
    ],
  };

  it('renders one line per frame, marked app, lib or node, with the truncation markers', () => {
    expect(renderErrorReport(report)).toBe(
      [
        "Unhandled error: TypeError: Cannot read properties of undefined (reading 'id')",
        'Stack trace (innermost call first; "app" marks the app\'s own code, "lib" a dependency, "node" Node.js itself):',
        'app  at showPost (src/routes/posts.js:7:23)',
        'app  at <anonymous> (src/routes/posts.js:18:67)',
        'node at Array.filter (<anonymous>)',
        '     … 5 library frames omitted …',
        '     … 1 frame omitted …',
        'lib  at Layer.handleRequest (node_modules/router/lib/layer.js:169:33)',
        '     … the 2 frames above repeat 23 more times …',
        'node at eval (eval at f (src/a.js:1:1), <anonymous>:1:1)',
      ].join('\n'),
    );
    expect(parseErrorReport(renderErrorReport(report))).toEqual(report);
  });

  it('stops at the first line that is not part of the report', () => {
    expect(parseErrorReport(`${renderErrorReport(report)}\n\nExplain this error.`)).toEqual(report);
    expect(parseErrorReport('TypeError: no intro line')).toBeNull();
  });

  const entry: fc.Arbitrary<ReportEntry> = fc.oneof(
    fc.record({
      kind: fc.constantFrom('app' as const, 'library' as const, 'internal' as const),
      functionName: fc.option(text.filter((name) => name.trim() !== '' && name.trim() !== '<anonymous>'), { nil: null }),
      location: text.map((value) => value.replace(/(?::\d+)+$/, '').trim()).filter((value) => value !== '' && !/:\d+$/.test(value)),
      line: fc.option(fc.integer({ min: 1, max: 100_000 }), { nil: null }),
      column: fc.option(fc.integer({ min: 1, max: 1000 }), { nil: null }),
    }).map((frame) => (frame.line === null ? { ...frame, column: null } : frame)),
    fc.record({ marker: fc.constant('omitted' as const), count: fc.integer({ min: 1, max: 500 }), library: fc.boolean() }),
    fc.record({ marker: fc.constant('repeated' as const), frames: fc.integer({ min: 1, max: 4 }), times: fc.integer({ min: 1, max: 500 }) }),
  );

  it('round-trips any header and entries (white space collapsed, parentheses in names as brackets)', () => {
    fc.assert(
      fc.property(text, fc.array(entry, { maxLength: 8 }), (header, entries) => {
        expect(parseErrorReport(renderErrorReport({ header, entries }))).toEqual(normalizeErrorReport({ header, entries }));
      }),
    );
  });
});
