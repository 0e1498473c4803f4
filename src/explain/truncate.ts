import type { ReportEntry } from '../contract/code.js';
import { reportFrame, type StackFrame } from './frames.js';

/**
 * Trimming a stack to a frame budget without losing the app's own frames. The historical failure
 * this guards against: keeping only the tail of a long trace cut off the app's frames, which are
 * nearest the throw, and left the model with the framework's plumbing (METHODOLOGY.md, "Explaining
 * errors").
 */

/**
 * - `app-frames` (default): keep the error header and every app frame, spend what is left of the
 *   budget on the library and Node frames nearest the throw, and write `… N library frames
 *   omitted …` where frames were left out.
 * - `tail`: keep only the last `maxFrames` frames (the outermost calls). The bug above, kept as a
 *   baseline so the eval can measure what it cost.
 */
export type TruncationStrategy = 'app-frames' | 'tail';

export interface TruncateOptions {
  /** Frames kept. The app's own frames are always kept, even beyond it; the rest of the budget goes to the others. [maxFrames=10] */
  maxFrames?: number;
  /** [strategy='app-frames'] */
  strategy?: TruncationStrategy;
}

/** A run of frames that repeats (recursion): one copy of it is kept, with the count. */
interface Block {
  frames: StackFrame[];
  /** How many more times the block repeats right after itself. */
  repeats: number;
}

const MAX_PERIOD = 4;
const MIN_REPETITIONS = 3;

/**
 * Collapse runs of repeated frames (a recursion of one to four frames, three times or more) into
 * one copy and a count, so a stack overflow shows its cycle once instead of filling the budget.
 */
export function collapseRepeats(frames: readonly StackFrame[]): Block[] {
  const blocks: Block[] = [];
  let index = 0;
  while (index < frames.length) {
    let collapsed = false;
    for (let period = 1; period <= MAX_PERIOD && index + period * MIN_REPETITIONS <= frames.length; period++) {
      let repetitions = 1;
      while (index + period * (repetitions + 1) <= frames.length && samePeriod(frames, index, index + period * repetitions, period)) repetitions += 1;
      if (repetitions >= MIN_REPETITIONS) {
        blocks.push({ frames: frames.slice(index, index + period), repeats: repetitions - 1 });
        index += period * repetitions;
        collapsed = true;
        break;
      }
    }
    if (!collapsed) {
      blocks.push({ frames: [frames[index]!], repeats: 0 });
      index += 1;
    }
  }
  return blocks;
}

function samePeriod(frames: readonly StackFrame[], first: number, second: number, period: number): boolean {
  for (let offset = 0; offset < period; offset++) {
    const a = frames[first + offset]!;
    const b = frames[second + offset]!;
    if (a.functionName !== b.functionName || a.file !== b.file || a.line !== b.line || a.column !== b.column) return false;
  }
  return true;
}

/**
 * The report entries of a stack trimmed to a budget (see {@link TruncationStrategy}).
 *
 * @example
 * truncateFrames(frames, { maxFrames: 6 }) // every app frame, the 6 other frames nearest the throw, markers for the rest
 */
export function truncateFrames(frames: readonly StackFrame[], options: TruncateOptions = {}): ReportEntry[] {
  const maxFrames = options.maxFrames ?? 10;
  const blocks = collapseRepeats(frames);
  const keep = new Array<boolean>(blocks.length).fill(false);
  if ((options.strategy ?? 'app-frames') === 'tail') {
    let budget = maxFrames;
    for (let index = blocks.length - 1; index >= 0 && budget >= blocks[index]!.frames.length; index--) {
      keep[index] = true;
      budget -= blocks[index]!.frames.length;
    }
  } else {
    let budget = maxFrames;
    blocks.forEach((block, index) => {
      if (!block.frames.some((frame) => frame.kind === 'app')) return;
      keep[index] = true;
      budget -= block.frames.length;
    });
    // Nearest the throw first: the frames right under the app's code say what it called.
    blocks.forEach((block, index) => {
      if (keep[index] || block.frames.length > budget) return;
      keep[index] = true;
      budget -= block.frames.length;
    });
  }
  const entries: ReportEntry[] = [];
  let omitted = 0;
  let omittedApp = false;
  const flush = () => {
    if (omitted > 0) entries.push({ marker: 'omitted', count: omitted, library: !omittedApp });
    omitted = 0;
    omittedApp = false;
  };
  blocks.forEach((block, index) => {
    if (!keep[index]) {
      omitted += block.frames.length * (block.repeats + 1);
      omittedApp ||= block.frames.some((frame) => frame.kind === 'app');
      return;
    }
    flush();
    for (const frame of block.frames) entries.push(reportFrame(frame));
    if (block.repeats > 0) entries.push({ marker: 'repeated', frames: block.frames.length, times: block.repeats });
  });
  flush();
  return entries;
}
