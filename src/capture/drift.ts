import type { DriftQueries } from './capture-store.js';

/** How one captured chunk differs from the index now. */
export interface DriftedChunk {
  chunkId: string;
  /** Hash of the text the generator (and the judge) saw. */
  capturedHash: string;
  /** Hash in the index now; `null` when the chunk is gone. */
  currentHash: string | null;
  change: 'changed' | 'vanished';
}

/** A stored judgment whose evidence has changed or vanished since it was made. */
export interface DriftedJudgment {
  traceId: string;
  capturedAt: string;
  judgeVersion: string;
  status: 'ok' | 'error';
  faithful: boolean | null;
  hallucinated: boolean | null;
  chunks: DriftedChunk[];
}

export interface DriftReport {
  /** Judgments with evidence compared with the index (judgments of chunk-less captures, e.g. gate refusals, have none). */
  judgmentsChecked: number;
  drifted: DriftedJudgment[];
}

/**
 * Compare the evidence of every stored judgment (captured chunk ids and content hashes) with the
 * index's current chunks, so a verdict never silently refers to text that no longer exists.
 *
 * @example
 * const report = await findDrift(captureStore, index.chunkHashes());
 * for (const judgment of report.drifted) console.log(judgment.traceId, judgment.chunks);
 */
export async function findDrift(store: DriftQueries, currentHashes: ReadonlyMap<string, string>): Promise<DriftReport> {
  const byJudgment = new Map<string, DriftedJudgment>();
  const checked = new Set<string>();
  for (const row of await store.judgedEvidence()) {
    const key = `${row.traceId}\u0000${row.judgeVersion}`;
    checked.add(key);
    const change = compare(row.chunkId, row.hash, currentHashes.get(row.chunkId));
    if (!change) continue;
    let entry = byJudgment.get(key);
    if (!entry) {
      entry = {
        traceId: row.traceId,
        capturedAt: row.capturedAt,
        judgeVersion: row.judgeVersion,
        status: row.status,
        faithful: row.faithful,
        hallucinated: row.hallucinated,
        chunks: [],
      };
      byJudgment.set(key, entry);
    }
    entry.chunks.push(change);
  }
  return { judgmentsChecked: checked.size, drifted: [...byJudgment.values()] };
}

/**
 * The chunks of one capture that changed or vanished, in prompt order, for a capture already
 * read (no query of the store). `currentHashOf` gives a chunk's hash in the index now, or
 * `undefined` when it is gone.
 *
 * @example
 * const drift = chunkDrift(capture.chunks, (chunkId) => index.getChunk(chunkId)?.hash);
 */
export function chunkDrift(chunks: readonly { chunkId: string; hash: string }[], currentHashOf: (chunkId: string) => string | undefined): DriftedChunk[] {
  const drifted: DriftedChunk[] = [];
  for (const chunk of chunks) {
    const change = compare(chunk.chunkId, chunk.hash, currentHashOf(chunk.chunkId));
    if (change) drifted.push(change);
  }
  return drifted;
}

function compare(chunkId: string, hash: string, current: string | undefined): DriftedChunk | null {
  if (current === undefined) return { chunkId, capturedHash: hash, currentHash: null, change: 'vanished' };
  if (current !== hash) return { chunkId, capturedHash: hash, currentHash: current, change: 'changed' };
  return null;
}
