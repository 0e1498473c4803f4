import { describe, expect, it } from 'vitest';
import { renderErrorReport } from '../contract/code.js';
import { classifyFrame, parseStack, relativizeHeader, type StackFrame } from './frames.js';
import { collapseRepeats, truncateFrames } from './truncate.js';

const ROOT = '/home/dev/blog';

/** An error with exactly this stack (V8's text format). */
function errorWithStack(stack: string): Error {
  const error = new TypeError("Cannot read properties of undefined (reading 'id')");
  error.stack = stack;
  return error;
}

const EXPRESS_STACK = [
  "TypeError: Cannot read properties of undefined (reading 'id')",
  '    at showPost (file:///home/dev/blog/src/routes/posts.js:7:23)',
  '    at Layer.handleRequest (/home/dev/blog/node_modules/router/lib/layer.js:169:33)',
  '    at next (/home/dev/blog/node_modules/router/lib/route.js:163:13)',
  '    at Route.dispatch (/home/dev/blog/node_modules/router/lib/route.js:123:3)',
  '    at handle (/home/dev/blog/node_modules/router/index.js:449:11)',
  '    at Layer.handleRequest (/home/dev/blog/node_modules/router/lib/layer.js:169:33)',
  '    at /home/dev/blog/node_modules/router/index.js:309:15',
  '    at loadUser (/home/dev/blog/src/middleware/auth.js:12:5)',
  '    at processParams (/home/dev/blog/node_modules/router/index.js:619:12)',
  '    at next (/home/dev/blog/node_modules/router/index.js:305:5)',
  '    at Array.forEach (<anonymous>)',
  '    at async Promise.all (index 0)',
  '    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)',
  '    at /home/dev/shared/tools/wrap.js:3:1',
].join('\n');

function frames(stack = EXPRESS_STACK): StackFrame[] {
  return parseStack(errorWithStack(stack)).frames.map((frame) => classifyFrame(frame, ROOT));
}

describe('reading a V8 stack', () => {
  it('parses the header and each frame form: named, anonymous, async, native, file URLs', () => {
    const parsed = parseStack(errorWithStack(EXPRESS_STACK));
    expect(parsed.header).toBe("TypeError: Cannot read properties of undefined (reading 'id')");
    expect(parsed.frames[0]).toEqual({ functionName: 'showPost', file: '/home/dev/blog/src/routes/posts.js', line: 7, column: 23, generated: null });
    expect(parsed.frames[6]).toEqual({ functionName: null, file: '/home/dev/blog/node_modules/router/index.js', line: 309, column: 15, generated: null });
    expect(parsed.frames[10]).toEqual({ functionName: 'Array.forEach', file: '<anonymous>', line: null, column: null, generated: null });
    expect(parsed.frames[11]).toEqual({ functionName: 'async Promise.all', file: 'index 0', line: null, column: null, generated: null });
  });

  it.each([
    [0, 'app', 'src/routes/posts.js'],
    [1, 'library', 'node_modules/router/lib/layer.js'],
    [7, 'app', 'src/middleware/auth.js'],
    [10, 'internal', '<anonymous>'],
    [12, 'internal', 'node:internal/process/task_queues'],
    [13, 'library', '../shared/tools/wrap.js'],
  ])('frame %i is %s at %s', (index, kind, location) => {
    expect(frames()[index]).toMatchObject({ kind, location });
  });

  it('describes a thrown non-error, and makes the app root relative in headers', () => {
    expect(parseStack('just a string')).toEqual({ header: "Non-error value thrown: 'just a string'", frames: [] });
    expect(relativizeHeader("Cannot find module '/home/dev/blog/src/x.js' imported from file:///home/dev/blog/src/y.js", ROOT)).toBe("Cannot find module 'src/x.js' imported from src/y.js");
  });
});

describe('truncation', () => {
  it('keeps every app frame and the header under a small budget, spending the rest on the frames nearest the throw', () => {
    const entries = truncateFrames(frames(), { maxFrames: 4 });
    const report = renderErrorReport({ header: 'TypeError: x', entries });
    expect(report.split('\n').slice(2)).toEqual([
      'app  at showPost (src/routes/posts.js:7:23)',
      'lib  at Layer.handleRequest (node_modules/router/lib/layer.js:169:33)',
      'lib  at next (node_modules/router/lib/route.js:163:13)',
      '     … 4 library frames omitted …',
      'app  at loadUser (src/middleware/auth.js:12:5)',
      '     … 6 library frames omitted …',
    ]);
  });

  it('keeps app frames even beyond the budget', () => {
    const entries = truncateFrames(frames(), { maxFrames: 1 });
    expect(entries.filter((entry) => !('marker' in entry)).map((entry) => ('marker' in entry ? '' : entry.location))).toEqual(['src/routes/posts.js', 'src/middleware/auth.js']);
  });

  it('tail-only truncation (the historical bug) keeps the outermost frames and loses the app frames', () => {
    const entries = truncateFrames(frames(), { maxFrames: 4, strategy: 'tail' });
    expect(entries[0]).toEqual({ marker: 'omitted', count: 10, library: false });
    expect(entries.slice(1).every((entry) => !('marker' in entry) && entry.kind !== 'app')).toBe(true);
  });

  it('collapses recursion to one copy of its cycle and a count', () => {
    const cycle = ['    at JSON.stringify (<anonymous>)', '    at User.toJSON (/home/dev/blog/src/models/user.js:14:36)'];
    const stack = ['RangeError: Maximum call stack size exceeded', ...Array.from({ length: 20 }, () => cycle).flat(), '    at showUser (/home/dev/blog/src/routes/users.js:6:7)'].join('\n');
    expect(collapseRepeats(frames(stack)).map((block) => [block.frames.length, block.repeats])).toEqual([[2, 19], [1, 0]]);
    const report = renderErrorReport({ header: 'RangeError: Maximum call stack size exceeded', entries: truncateFrames(frames(stack), { maxFrames: 4 }) });
    expect(report.split('\n').slice(2)).toEqual([
      'node at JSON.stringify (<anonymous>)',
      'app  at User.toJSON (src/models/user.js:14:36)',
      '     … the 2 frames above repeat 19 more times …',
      'app  at showUser (src/routes/users.js:6:7)',
    ]);
  });
});
