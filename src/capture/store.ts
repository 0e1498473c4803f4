import { isPostgresUrl, type PostgresUrl } from './postgres-store/connection.js';
import { PostgresCaptureStore, readyOrClosed, type OpenPostgresCaptureStoreOptions } from './postgres-store/store.js';
import { SqliteCaptureStore, type OpenSqliteCaptureStoreOptions } from './sqlite-store/store.js';

/**
 * Opening a capture store. The interface every store implements is in `capture-store.ts`; the
 * SQLite store (one file, the default) is in `sqlite-store/`, the Postgres store (many app
 * processes and judge workers on any hosts) in `postgres-store/`. A location is a SQLite path or a
 * `postgres://` / `postgresql://` URL, wherever one is taken: `openCaptureStore({ path })`,
 * `captureRag({ store })`, the dashboard's `store`, `--db` and `GROUNDCHECK_CAPTURE_DB`.
 */

export type { CaptureStore, CaptureLog, CaptureListing, JudgeQueue, DriftQueries, CaptureRecord, CaptureWithJudgment, ListedCapture, ListCapturesOptions, CaptureFilter, OutcomeCountsOptions, OutcomeBucket, ClaimOptions, EvidenceReference, ReclaimedLeases } from './capture-store.js';
export { OUTCOME_BUCKET_MS, MAX_OUTCOME_BUCKETS } from './capture-store.js';
export { SqliteCaptureStore, WRITER_THREAD_BY_DEFAULT } from './sqlite-store/store.js';
export { CAPTURE_SCHEMA_VERSION } from './sqlite-store/schema.js';
export { JUDGE_QUEUE_BATCH, JUDGE_QUEUE_SQL } from './sqlite-store/judge-queue.js';
export { PostgresCaptureStore, openPostgresCaptureStore, type OpenPostgresCaptureStoreOptions } from './postgres-store/store.js';
export { POSTGRES_CAPTURE_SCHEMA_VERSION } from './postgres-store/schema.js';
export { isPostgresUrl, type PostgresUrl } from './postgres-store/connection.js';

export const DEFAULT_CAPTURE_DB_PATH = '.groundcheck/captures.db';

export interface OpenCaptureStoreOptions extends Partial<OpenSqliteCaptureStoreOptions>, Partial<Omit<OpenPostgresCaptureStoreOptions, 'url'>> {
  /** SQLite file (parent folders are created), or a `postgres://` / `postgresql://` URL. [path='.groundcheck/captures.db'] */
  path?: string;
}

/**
 * Open (or create) a capture store: the Postgres store when `path` is a `postgres://` or
 * `postgresql://` URL, else the SQLite store at that path. The SQLite store opens inside the call;
 * the Postgres store connects on its first call (every method waits for it; `await store.ready()`
 * to connect now and see a connection error here).
 *
 * @throws DatabaseFileError (an InvalidInputError) for a SQLite file: `not_found` (with `create: false`), `not_a_database`,
 *   `foreign_database`, `wrong_file_kind` (an index or an LLM cache), `schema_too_new`. A Postgres store reports
 *   `not_found` and `schema_too_new` from its first call instead.
 * @example
 * const store = openCaptureStore({ path: process.env.GROUNDCHECK_CAPTURE_DB ?? '.groundcheck/captures.db' });
 * app.use(captureRag({ store }));
 */
export function openCaptureStore(options: OpenCaptureStoreOptions & { path: PostgresUrl }): PostgresCaptureStore;
export function openCaptureStore(options?: OpenCaptureStoreOptions): SqliteCaptureStore | PostgresCaptureStore;
export function openCaptureStore(options: OpenCaptureStoreOptions = {}): SqliteCaptureStore | PostgresCaptureStore {
  const path = options.path ?? DEFAULT_CAPTURE_DB_PATH;
  if (isPostgresUrl(path)) {
    const { schema, create, maxConnections, connectTimeoutMs, now } = options;
    return new PostgresCaptureStore({ url: path, ...definedOnly({ schema, create, maxConnections, connectTimeoutMs, now }) });
  }
  return new SqliteCaptureStore({ ...options, path });
}

/** Open the SQLite capture store at a path (never a URL): what code that needs SQLite's own handles (`db`) calls. */
export function openSqliteCaptureStore(options: OpenCaptureStoreOptions = {}): SqliteCaptureStore {
  return new SqliteCaptureStore({ ...options, path: options.path ?? DEFAULT_CAPTURE_DB_PATH });
}

function definedOnly<T extends Record<string, unknown>>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/**
 * {@link openCaptureStore}, and for a Postgres store wait until it is connected and migrated, so
 * an unreachable server or a missing store fails here (what the CLI does before it starts work).
 */
export async function connectCaptureStore(options: OpenCaptureStoreOptions = {}): Promise<SqliteCaptureStore | PostgresCaptureStore> {
  const store = openCaptureStore(options);
  return store instanceof PostgresCaptureStore ? readyOrClosed(store) : store;
}
