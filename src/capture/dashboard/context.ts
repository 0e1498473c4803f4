import type { JudgeInfo } from '../../contract/judgment.js';
import type { DashboardStore, NormalizedDashboardOptions } from './options.js';
import type { HashLookup } from './views.js';

/** What the dashboard's handlers share: the store, which judge matters, and where drift comes from. */
export interface DashboardContext {
  store: DashboardStore;
  /** The judge version whose judgments are shown; `undefined`: the newest of any. */
  judgeVersion: string | undefined;
  judging: boolean;
  /** Current chunk hashes for a list (one read of the index), or `null` when no index was given (no drift shown). */
  listHashes(): HashLookup;
  /** The same for one trace: one chunk at a time when the index can. */
  traceHashes(): HashLookup;
  /** The live judge's identity and state for the page's top bar and banner. */
  judgeState(): { judge: JudgeInfo | null; workerPaused: boolean; pauseReason: string | null };
}

export function dashboardContext(store: DashboardStore, options: NormalizedDashboardOptions): DashboardContext {
  return {
    store,
    judgeVersion: options.judgeVersion,
    judging: options.judging,
    listHashes: () => {
      const hashes = options.index?.chunkHashes();
      return hashes === undefined ? null : (chunkId) => hashes.get(chunkId);
    },
    traceHashes: () => {
      const index = options.index;
      if (index === undefined) return null;
      if (index.getChunk) return (chunkId) => index.getChunk!(chunkId)?.hash;
      const hashes = index.chunkHashes();
      return (chunkId) => hashes.get(chunkId);
    },
    judgeState: () => ({ judge: options.judge?.info ?? null, workerPaused: options.worker?.paused ?? false, pauseReason: options.worker?.pauseReason ?? null }),
  };
}
