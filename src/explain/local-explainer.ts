import { excerptEndLine, parseCodeExcerpt, parseErrorReport, reportFrames, type CodeExcerpt, type ReportFrame } from '../contract/code.js';
import { parseQuestionMessage, parseWordLimit } from '../contract/formats.js';
import { EMPTY_USAGE, type ChatCallOptions, type ChatModel, type ChatResult } from '../providers/spec.js';
import { countWords, escapeRegExp } from '../text/text.js';
import { calledAs, calledNames, CODE_NOISE, definesName } from './called-names.js';
import { readError } from './error-patterns.js';

/** The offline explainer's model id, recorded in every trace it writes. */
export const LOCAL_EXPLAINER_ID = 'local-explain-extractive-v2';

/** Said at the end of every offline explanation, with source or without (so it gives no mode away). */
export const BASELINE_NOTE =
  '_Offline baseline: put together by rules from the stack trace and quoted source lines; it does not reason about the code. Configure a language model for a real explanation._';


/**
 * The offline explainer: a chat model that reads the explanation prompt (the error report, and
 * the code excerpts when there are any) through the contract's parsers and writes an extractive
 * explanation: the error and what that kind of message usually means (a small rule table of V8
 * and Node messages), the innermost app frame and its caller, the source lines that mention what
 * the error names, a first fix for that kind of error, and a note that it is a baseline. It quotes
 * code only from the excerpts it was given and never guesses at code it was not shown.
 *
 * @example
 * const chat = createLocalExplainer();
 * const { text } = await chat.generate({ messages: buildExplainMessages({ report, request: null, chunks, mode: 'rag' }) });
 */
export function createLocalExplainer(): ChatModel {
  return {
    provider: 'local',
    modelId: LOCAL_EXPLAINER_ID,
    async generate(call: ChatCallOptions): Promise<ChatResult> {
      const user = [...call.messages].reverse().find((message) => message.role === 'user')?.content ?? '';
      const system = call.messages.find((message) => message.role === 'system')?.content ?? '';
      const { documents, question } = parseQuestionMessage(user);
      const excerpts = (documents ?? []).map((document) => parseCodeExcerpt(document.text)).filter((excerpt): excerpt is CodeExcerpt => excerpt !== null);
      const text = explain(question, excerpts, parseWordLimit(system) ?? 250);
      return { text, usage: { ...EMPTY_USAGE }, finishReason: 'stop', costUsd: 0, warnings: call.responseFormat?.type === 'json' ? ['the offline explainer writes text, not JSON'] : [], modelId: LOCAL_EXPLAINER_ID };
    },
  };
}

/**
 * The model that explains errors with `chat` configured: the local provider's question answerer
 * cannot explain errors, so offline it is the extractive explainer; any other model explains itself.
 * The error middleware, the explain eval and its header all decide it here.
 */
export function explainingModel(chat: ChatModel): ChatModel {
  return chat.provider === 'local' ? createLocalExplainer() : chat;
}

function explain(question: string, excerpts: CodeExcerpt[], wordCap: number): string {
  const report = parseErrorReport(question);
  if (report === null) return `The error report could not be read, so there is nothing to explain from.\n\n${BASELINE_NOTE}`;
  const reading = readError(report.header);
  const frames = reportFrames(report);
  const appFrames = frames.filter((frame) => frame.kind === 'app');
  const innermost = appFrames[0] ?? null;
  const named = appFrames.find((frame) => frame.functionName !== null) ?? null;
  const caller = appFrames.find((frame) => frame.functionName !== null && !sameFunction(frame, innermost) && !sameFunction(frame, named === innermost ? null : named)) ?? null;

  const paragraphs: string[] = [];
  paragraphs.push(`**What happened:** \`${report.header}\`. ${reading?.meaning ?? 'The message above says what went wrong; the frames below say where.'}`);

  const where: string[] = [];
  if (innermost !== null) {
    where.push(`It was thrown in ${describeFrame(innermost)}${innermost.functionName === null && named !== null ? `, inside ${describeFrame(named)}` : ''}.`);
    if (caller !== null) where.push(`That was called from ${describeFrame(caller)}.`);
  } else if (frames.length > 0) {
    where.push(`None of the frames shown is in the app's own code; the innermost is ${describeFrame(frames[0]!)}.`);
  } else {
    where.push('The stack trace shows no frames.');
  }
  paragraphs.push(`**Where:** ${where.join(' ')}`);

  const evidence = relevantLines(excerpts, report.header, reading?.terms ?? [], innermost, named, caller);
  if (evidence.quotes.length > 0) paragraphs.push(`**Relevant code:**\n${evidence.quotes.map((quote) => `- ${quote}`).join('\n')}`);

  const fixParts: string[] = [];
  if (named !== null) fixParts.push(`start in ${describeFrame(named, false)}${caller !== null ? `, and check what ${describeFrame(caller, false)} passes to it` : ''}.`);
  // An anonymous innermost frame (an inline route handler) is still where it failed: its excerpt names it.
  else if (evidence.frame !== null) fixParts.push(`start in ${excerptName(evidence.frame.excerpt)} (${evidence.frame.excerpt.path}:${evidence.frame.lineNumber}).`);
  else if (evidence.named !== null) fixParts.push(`start in \`${evidence.named.symbol}\` (${evidence.named.path}).`);
  if (reading !== null) fixParts.push(`For this kind of error, ${reading.fix}`);
  if (fixParts.length > 0) paragraphs.push(`**How to fix:** ${capitalize(fixParts.join(' '))}`);

  paragraphs.push(BASELINE_NOTE);
  return capWords(paragraphs, wordCap);
}

function describeFrame(frame: ReportFrame, withLine = true): string {
  const name = frame.functionName === null ? 'an anonymous function' : `\`${frame.functionName.replace(/^async /, '')}\``;
  const position = withLine && frame.line !== null ? `:${frame.line}` : '';
  return `${name} (${frame.location}${position})`;
}

function sameFunction(a: ReportFrame, b: ReportFrame | null): boolean {
  return b !== null && a.functionName === b.functionName && a.location === b.location;
}

interface FoundLine {
  excerpt: CodeExcerpt;
  lineNumber: number;
  code: string;
}

const MAX_QUOTES = 5;

/**
 * The lines worth quoting, in this order: the line the innermost app frame points at; where the
 * value the error is about was assigned in that function (`const post = findPost(…)` for
 * `post.id`); the `return` of the function that assignment called, when it is among the excerpts;
 * a line elsewhere that uses the failing function (a route registration, a call); the caller's
 * line; then lines naming what the error message names. Each is quoted as it is, with `file:line`.
 */
function relevantLines(
  excerpts: CodeExcerpt[],
  header: string,
  terms: string[],
  innermost: ReportFrame | null,
  named: ReportFrame | null,
  caller: ReportFrame | null,
): { quotes: string[]; named: CodeExcerpt | null; frame: FoundLine | null } {
  const chosen: FoundLine[] = [];
  const add = (found: FoundLine | null) => {
    if (found === null || chosen.length >= MAX_QUOTES) return;
    if (chosen.some((line) => line.excerpt.path === found.excerpt.path && line.lineNumber === found.lineNumber)) return;
    chosen.push(found);
  };
  const frameLine = innermost?.line != null ? lineAt(excerpts, innermost.location, innermost.line) : null;
  add(frameLine);
  if (frameLine !== null) {
    const declaration = declarationOf(frameLine, subjectsOf(frameLine.code, header));
    add(declaration);
    for (const callee of calledNames((declaration ?? frameLine).code)) add(returnLineOf(excerpts, callee));
  }
  const failing = named?.functionName ? calledAs(named.functionName) : null;
  if (failing !== null) add(usageOf(excerpts, failing, named?.location ?? null));
  if (caller?.line != null) add(lineAt(excerpts, caller.location, caller.line));
  // What the message names (a file, a property, a variable), in the code.
  const namedTerms = [...terms, ...quotedIn(header)].filter((term) => term.length > 2);
  const scored: (FoundLine & { score: number })[] = [];
  for (const excerpt of excerpts) {
    excerpt.lines.forEach((code, index) => {
      // A name counts as code outside string literals; a path or file name counts anywhere (imports, reads).
      const outsideStrings = code.replace(/(['"`])(?:(?!\1)[^\\]|\\.)*\1/g, '""');
      const score = namedTerms.filter((term) => (/^[\w$]+$/.test(term) ? new RegExp(`(?<![\\w$])${escapeRegExp(term)}(?![\\w$])`).test(outsideStrings) : code.includes(term))).length;
      if (score > 0 && code.trim().length > 3) scored.push({ excerpt, lineNumber: excerpt.startLine + index, code, score });
    });
  }
  scored.sort((a, b) => b.score - a.score || a.excerpt.path.localeCompare(b.excerpt.path) || a.lineNumber - b.lineNumber);
  for (const line of scored.slice(0, 2)) add(line);
  const quotes = chosen.map((line) => `Line ${line.lineNumber} of ${line.excerpt.path} (${symbolText(line.excerpt)}): \`${line.code.trim()}\``);
  return { quotes, named: scored[0]?.excerpt ?? null, frame: frameLine };
}

/** Whether an excerpt is lines outside any function (its symbol is `lines 1–6`). */
function isModuleCode(excerpt: CodeExcerpt): boolean {
  return /^lines \d/.test(excerpt.symbol);
}

/** `\`showPost\`` for a function or handler, `the module code` for lines outside any function. */
function excerptName(excerpt: CodeExcerpt): string {
  return isModuleCode(excerpt) ? 'the module code' : `\`${excerpt.symbol}\``;
}

/** `in \`showPost\`` for a function, `module code` for lines outside any function (in a quote's brackets). */
function symbolText(excerpt: CodeExcerpt): string {
  return isModuleCode(excerpt) ? 'module code' : `in ${excerptName(excerpt)}`;
}

function lineAt(excerpts: CodeExcerpt[], path: string, line: number): FoundLine | null {
  for (const excerpt of excerpts) {
    if (excerpt.path !== path || line < excerpt.startLine || line > excerptEndLine(excerpt)) continue;
    return { excerpt, lineNumber: line, code: excerpt.lines[line - excerpt.startLine]! };
  }
  return null;
}

/** The names the error is about on a line: `post` in `post.id` for "(reading 'id')", `comments` for "comments.map is not a function". */
function subjectsOf(code: string, header: string): string[] {
  const reading = /\((?:reading|setting) '([^']+)'\)/.exec(header)?.[1];
  if (reading !== undefined) return [...code.matchAll(new RegExp(`([A-Za-z_$][\\w$]*)\\??\\.${escapeRegExp(reading)}\\b`, 'g'))].map((match) => match[1]!);
  const called = /([A-Za-z_$][\w$]*)(?:\.[\w$]+)* is not (?:a function|iterable)/.exec(header)?.[1];
  if (called !== undefined) return [called];
  return [];
}

/** The line above `line`, in its excerpt, where one of `names` was declared or assigned. */
function declarationOf(line: FoundLine, names: string[]): FoundLine | null {
  for (const name of names) {
    const pattern = new RegExp(`\\b(?:const|let|var)\\s+(?:\\{[^}]*\\b${escapeRegExp(name)}\\b[^}]*\\}|${escapeRegExp(name)})\\s*=|\\b${escapeRegExp(name)}\\s*=(?!=)`);
    for (let number = line.lineNumber - 1; number >= line.excerpt.startLine; number--) {
      const code = line.excerpt.lines[number - line.excerpt.startLine]!;
      if (pattern.test(code)) return { excerpt: line.excerpt, lineNumber: number, code };
    }
  }
  return null;
}

/** The first `return` line of the excerpt whose symbol is `name` (or ends with `.name`). */
function returnLineOf(excerpts: CodeExcerpt[], name: string): FoundLine | null {
  const excerpt = excerpts.find((candidate) => definesName(candidate.symbol, name));
  if (!excerpt) return null;
  const index = excerpt.lines.findIndex((code) => /\breturn\b/.test(code));
  return index === -1 ? null : { excerpt, lineNumber: excerpt.startLine + index, code: excerpt.lines[index]! };
}

/** A line outside the function `name` that uses it: where it is registered or called. */
function usageOf(excerpts: CodeExcerpt[], name: string, path: string | null): FoundLine | null {
  const pattern = new RegExp(`(?<![\\w$.])(?:[\\w$]+\\.)?${escapeRegExp(name)}(?![\\w$:])`);
  // The failing function's own file first: that is where it is usually registered.
  const ordered = [...excerpts].sort((a, b) => Number(b.path === path) - Number(a.path === path));
  for (const excerpt of ordered) {
    if (definesName(excerpt.symbol, name)) continue;
    const index = excerpt.lines.findIndex((code) => pattern.test(code) && !/\bfunction\b|^\s*import\b/.test(code));
    if (index !== -1) return { excerpt, lineNumber: excerpt.startLine + index, code: excerpt.lines[index]! };
  }
  return null;
}

function quotedIn(header: string): string[] {
  return [...header.matchAll(/'([^']+)'|"([^"]+)"|`([^`]+)`/g)].map((match) => (match[1] ?? match[2] ?? match[3])!.split('/').pop()!);
}

function identifiersOf(code: string): string[] {
  return (code.match(/[A-Za-z_$][\w$]*/g) ?? []).filter((identifier) => identifier.length > 1 && !CODE_NOISE.has(identifier));
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Drop quoted lines from the end until the explanation fits the word cap (the note always stays). */
function capWords(paragraphs: string[], wordCap: number): string {
  const parts = [...paragraphs];
  while (countWords(parts.join('\n\n')) > wordCap && parts.length > 2) {
    const codeIndex = parts.findIndex((part) => part.startsWith('**Relevant code:**'));
    if (codeIndex === -1) break;
    const lines = parts[codeIndex]!.split('\n');
    if (lines.length <= 2) parts.splice(codeIndex, 1);
    else parts[codeIndex] = lines.slice(0, -1).join('\n');
  }
  return parts.join('\n\n');
}
