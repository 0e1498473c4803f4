import { isAbsolute, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inspect } from 'node:util';
import type { FrameKind, ReportFrame } from '../contract/code.js';

/**
 * Reading a V8 stack trace: the error's header and its frames, each classified as the app's own
 * code, a dependency (`node_modules`, or anything outside the app's root) or Node's internals.
 * V8's frame format is small and stable (`at name (location:line:column)`, `at location`), so it
 * is parsed here rather than through a stack-parsing package, which would add a dependency for
 * one regular expression and still not know which frames are the app's.
 */

/** One frame of a stack, as V8 wrote it, with where its code lives. */
export interface StackFrame {
  /** `showPost`, `User.toJSON`, `async listComments`; `null` for an anonymous function. */
  functionName: string | null;
  /** An absolute file path (file URLs converted), or what V8 wrote instead (`node:fs`, `<anonymous>`, `native`). */
  file: string;
  line: number | null;
  column: number | null;
  kind: FrameKind;
  /** What reports show: relative to the app's root, `node_modules/…` from the package on, or as V8 wrote it. */
  location: string;
  /** Where the frame pointed before its source map was applied; `null` when no map was used. */
  generated: { file: string; line: number; column: number | null } | null;
}

/** A parsed stack: the error's header (`TypeError: …`, on one line) and its frames, innermost first. */
export interface ParsedStack {
  header: string;
  frames: Omit<StackFrame, 'kind' | 'location'>[];
}

const FRAME = /^\s*at (?:(.*?) \((.*)\)|(.*))$/;
const POSITION = /^(.*?):(\d+)(?::(\d+))?$/;

/**
 * The header and frames of an error. Anything that is not an `Error` with a stack (a thrown
 * string, an object) gets a header describing it and no frames.
 *
 * @example
 * parseStack(new TypeError('x is not a function')).header // 'TypeError: x is not a function'
 */
export function parseStack(error: unknown): ParsedStack {
  if (!(error instanceof Error)) return { header: `Non-error value thrown: ${inspect(error, { depth: 2, breakLength: Infinity }).slice(0, 500)}`, frames: [] };
  const stack = typeof error.stack === 'string' ? error.stack : '';
  const lines = stack.split('\n');
  const firstFrame = lines.findIndex((line) => /^\s+at /.test(line));
  const headerLines = firstFrame === -1 ? lines : lines.slice(0, firstFrame);
  const header = headerLines.join(' ').replace(/\s+/g, ' ').trim() || `${error.name}: ${error.message}`;
  const frames: ParsedStack['frames'] = [];
  for (const line of firstFrame === -1 ? [] : lines.slice(firstFrame)) {
    const match = FRAME.exec(line);
    if (!match) continue;
    const name = match[1] ?? null;
    const where = match[2] ?? match[3] ?? '';
    const position = POSITION.exec(where);
    const file = position ? position[1]! : where;
    frames.push({
      functionName: name === null || name === '' ? null : name,
      file: file.startsWith('file://') ? safeFilePath(file) : file,
      line: position ? Number(position[2]) : null,
      column: position?.[3] === undefined ? null : Number(position[3]),
      generated: null,
    });
  }
  return { header, frames };
}

function safeFilePath(url: string): string {
  try {
    return fileURLToPath(url);
  } catch {
    return url;
  }
}

/**
 * Where a frame's code lives, seen from the app's root: `internal` for Node (`node:…`, native and
 * anonymous frames), `library` for `node_modules` and anything outside the root, else `app`.
 */
export function classifyFrame(frame: Omit<StackFrame, 'kind' | 'location'>, appRoot: string): StackFrame {
  const { file } = frame;
  let kind: FrameKind;
  let location: string;
  if (frame.line === null || !isAbsolute(file) || file.startsWith('node:')) {
    kind = 'internal';
    location = file;
  } else if (file.split(sep).includes('node_modules')) {
    kind = 'library';
    const parts = file.split(sep);
    location = parts.slice(parts.lastIndexOf('node_modules')).join('/');
  } else if (isInside(file, appRoot)) {
    kind = 'app';
    location = relative(appRoot, file).split(sep).join('/');
  } else {
    kind = 'library';
    location = relative(appRoot, file).split(sep).join('/');
  }
  return { ...frame, kind, location };
}

/** Whether `path` is `root` or inside it. */
export function isInside(path: string, root: string): boolean {
  const fromRoot = relative(root, path);
  return fromRoot === '' || (!fromRoot.startsWith('..') && !isAbsolute(fromRoot));
}

/**
 * The header with the app's absolute paths made relative (`/home/me/app/src/a.js` → `src/a.js`),
 * as frames show them, so a report names files the same way everywhere and leaks no home folder.
 */
export function relativizeHeader(header: string, appRoot: string): string {
  const root = appRoot.endsWith(sep) ? appRoot : `${appRoot}${sep}`;
  const url = `file://${root.split(sep).join('/')}`;
  return header.split(url).join('').split(root).join('');
}

/** A frame as the error report shows it. */
export function reportFrame(frame: StackFrame): ReportFrame {
  return { kind: frame.kind, functionName: frame.functionName, location: frame.location, line: frame.line, column: frame.column };
}
