import { SqliteCaptureStore, type OpenSqliteCaptureStoreOptions } from './sqlite-store/store.js';

/**
 * Opening a capture store. The interface every store implements is in `capture-store.ts`; the
 * SQLite store, the one groundcheck ships, is in `sqlite-store/`.
 */

export type { CaptureStore, CaptureLog, CaptureListing, JudgeQueue, DriftQueries, CaptureRecord, CaptureWithJudgment, ListedCapture, ListCapturesOptions, CaptureFilter, OutcomeCountsOptions, OutcomeBucket, ClaimOptions, EvidenceReference, ReclaimedLeases } from './capture-store.js';
export { OUTCOME_BUCKET_MS, MAX_OUTCOME_BUCKETS } from './capture-store.js';
export { SqliteCaptureStore, CAPTURE_SCHEMA_VERSION } from './sqlite-store/store.js';
export { JUDGE_QUEUE_BATCH, JUDGE_QUEUE_SQL } from './sqlite-store/judge-queue.js';

export const DEFAULT_CAPTURE_DB_PATH = '.groundcheck/captures.db';

export interface OpenCaptureStoreOptions extends Partial<OpenSqliteCaptureStoreOptions> {
  /** SQLite file; parent folders are created. [path='.groundcheck/captures.db'] */
  path?: string;
}

/**
 * Open (or create) the SQLite capture store.
 *
 * @throws DatabaseFileError (an InvalidInputError) `not_found` (with `create: false`), `not_a_database`,
 *   `foreign_database`, `wrong_file_kind` (an index or an LLM cache), `schema_too_new`.
 * @example
 * const store = openCaptureStore({ path: '.groundcheck/captures.db' });
 * app.use(captureRag({ store }));
 */
export function openCaptureStore(options: OpenCaptureStoreOptions = {}): SqliteCaptureStore {
  return new SqliteCaptureStore({ ...options, path: options.path ?? DEFAULT_CAPTURE_DB_PATH });
}
