import type { JudgeInfo } from '../../contract/judgment.js';
import type { ResultsFolder } from '../../eval/results-folder.js';
import type { CaptureFilter } from '../capture-store.js';
import type { DashboardStore, NormalizedDashboardOptions } from './options.js';
import type { HashLookup } from './views.js';

/**
 * The judge version counts use when there is none (nothing judged, no judge configured): no
 * judgment has it, so every capture counts as not judged.
 */
export const NO_JUDGE_VERSION = 'none:none:none';

/** What the dashboard's handlers share: the store, which judge matters, where drift and offline rates come from. */
export interface DashboardContext {
  store: DashboardStore;
  /** The judge version configured (`judgeVersion`, else the worker's); `undefined`: none. */
  judgeVersion: string | undefined;
  judging: boolean;
  /** The index's chunk hashes now (one read of the index), or `null` when no index was given (no drift). */
  currentHashes(): ReadonlyMap<string, string> | null;
  /** The same for one trace: one chunk at a time when the index can. */
  traceHashes(): HashLookup;
  /**
   * The judge version a request shows: one it asks for (`?judgeVersion=`), else the configured
   * one, else that of the newest judged capture in the range (a judge running elsewhere), else `null`.
   */
  resolveJudgeVersion(requested: string | undefined, range: Pick<CaptureFilter, 'from' | 'to'>): Promise<string | null>;
  /** The eval results folder the offline rates come from, and its name as configured; `null`: none. */
  results: { folder: ResultsFolder; label: string } | null;
  /** The live judge's identity and state for the page's top bar and banner. */
  judgeState(): { judge: JudgeInfo | null; workerPaused: boolean; pauseReason: string | null };
  /** The capture middleware writing into the store (option `capture`), or `null`. */
  capture: NormalizedDashboardOptions['capture'];
}

export function dashboardContext(store: DashboardStore, options: NormalizedDashboardOptions): DashboardContext {
  return {
    store,
    judgeVersion: options.judgeVersion,
    judging: options.judging,
    currentHashes: () => options.index?.chunkHashes() ?? null,
    traceHashes: () => {
      const index = options.index;
      if (index === undefined) return null;
      if (index.getChunk) return (chunkId) => index.getChunk!(chunkId)?.hash;
      const hashes = index.chunkHashes();
      return (chunkId) => hashes.get(chunkId);
    },
    async resolveJudgeVersion(requested, range) {
      if (requested !== undefined) return requested;
      if (options.judgeVersion !== undefined) return options.judgeVersion;
      const [newest] = await store.listCaptures({ limit: 1, filter: { judged: true, ...range } });
      return newest?.judgment?.judgeVersion ?? null;
    },
    results: options.evalResults,
    judgeState: () => ({ judge: options.judge?.info ?? null, workerPaused: options.worker?.paused ?? false, pauseReason: options.worker?.pauseReason ?? null }),
    capture: options.capture,
  };
}
