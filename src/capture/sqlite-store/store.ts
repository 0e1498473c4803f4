import type Database from 'better-sqlite3';
import { openSqlite } from '../../sqlite/open.js';
import type { CaptureRecord, CaptureStore, ClaimOptions, EvidenceReference, ListCapturesOptions, ListedCapture, OutcomeBucket, OutcomeCountsOptions, ReclaimedLeases } from '../capture-store.js';
import type { Capture, StoredJudgment } from '../types.js';
import { SqliteCaptureLog } from './capture-log.js';
import { BackgroundCheckpointer } from './checkpointer.js';
import { SqliteDriftQueries } from './drift-queries.js';
import { registerCaptureFunctions } from './functions.js';
import { SqliteJudgeQueue } from './judge-queue.js';
import { HostLeaseOwners, type LeaseOwnerEnvironment } from './lease-owners.js';
import { SqliteCaptureListing } from './listing.js';
import { SqliteRates } from './rates.js';
import { CAPTURE_MIGRATIONS } from './schema.js';

/**
 * The SQLite capture store: one file (separate from the index) holding captured traces, their
 * chunks (each distinct chunk stored once, content-addressed), the live judge's judgments and its
 * queue. It implements {@link CaptureStore}, composed of one part per job: `capture-log.ts`,
 * `listing.ts`, `rates.ts`, `judge-queue.ts` (with `lease-owners.ts`), `drift-queries.ts`. These files are
 * the only places that write SQL against it. Every method does its work synchronously inside the
 * call (better-sqlite3) and returns a settled Promise.
 */

/** The capture schema this code writes (`PRAGMA user_version`). */
export const CAPTURE_SCHEMA_VERSION = CAPTURE_MIGRATIONS.at(-1)!.version;

/**
 * While a background thread takes the checkpoints, SQLite's own inline checkpoint only triggers
 * past this many log pages (~40 MB): a bound on the log should the thread fall behind.
 */
const INLINE_CHECKPOINT_BACKSTOP_PAGES = 10_000;
/** SQLite's default: an inline checkpoint once the log passes 1000 pages. */
const INLINE_CHECKPOINT_PAGES = 1000;

export interface OpenSqliteCaptureStoreOptions {
  /** SQLite file; parent folders are created. `:memory:` for a throwaway store. */
  path: string;
  /** Create the file when missing. [create=true] */
  create?: boolean;
  /** Milliseconds a writer waits for another process's lock. [busyTimeoutMs=5000] */
  busyTimeoutMs?: number;
  /**
   * Take write-ahead-log checkpoints on a worker thread (started at the first `writeCaptures`)
   * instead of inside a commit on the event loop. `false` leaves them to SQLite, inline.
   * [backgroundCheckpoints=true]
   */
  backgroundCheckpoints?: boolean;
  /** Clock, ms since epoch: the file's `created_at`, and a capture's time when its `capturedAt` does not parse. [now=Date.now] */
  now?: () => number;
  /** Where lease-owner ids come from (host name, pid, random part), for tests. [leaseOwners={}] */
  leaseOwners?: LeaseOwnerEnvironment;
  /** Called with the SQL of every statement run (tests and benchmarks count them). */
  verbose?: (sql: string) => void;
}

export class SqliteCaptureStore implements CaptureStore {
  readonly kind = 'sqlite';
  readonly path: string;
  readonly db: Database.Database;
  private readonly log: SqliteCaptureLog;
  private readonly listing: SqliteCaptureListing;
  private readonly rates: SqliteRates;
  private readonly queue: SqliteJudgeQueue;
  private readonly drift: SqliteDriftQueries;
  private readonly owners: HostLeaseOwners;
  /** Whether a write starts the checkpoint thread: not when turned off, once the thread failed, or once the store is closed. */
  private backgroundCheckpoints: boolean;
  private checkpointer: BackgroundCheckpointer | null = null;

  constructor(options: OpenSqliteCaptureStoreOptions) {
    const now = options.now ?? Date.now;
    this.path = options.path;
    this.backgroundCheckpoints = options.backgroundCheckpoints !== false && options.path !== ':memory:';
    const { db } = openSqlite({
      path: options.path,
      kind: 'capture-store',
      migrations: CAPTURE_MIGRATIONS,
      create: options.create ?? true,
      notFoundMessage: `no capture store at ${options.path}`,
      pathHint: 'pass another --db path',
      busyTimeoutMs: options.busyTimeoutMs ?? 5000,
      // WAL + NORMAL is durable across process crashes (only an OS crash can lose the last commits).
      pragmas: ['foreign_keys = ON', 'synchronous = NORMAL'],
      configure: registerCaptureFunctions,
      onCreate: (connection) => connection.prepare(`INSERT INTO meta (key, value) VALUES ('created_at', ?)`).run(new Date(now()).toISOString()),
      ...(options.verbose ? { verbose: options.verbose } : {}),
    });
    this.db = db;
    try {
      this.log = new SqliteCaptureLog(db, now);
      this.listing = new SqliteCaptureListing(db, this.log);
      this.rates = new SqliteRates(db);
      this.queue = new SqliteJudgeQueue(db, this.log);
      this.drift = new SqliteDriftQueries(db);
    } catch (error) {
      db.close();
      throw error;
    }
    this.owners = new HostLeaseOwners(options.leaseOwners);
  }

  get location(): string {
    return this.path;
  }

  async writeCaptures(captures: readonly Capture[]): Promise<void> {
    if (captures.length === 0) return;
    if (this.checkpointer === null && this.backgroundCheckpoints) this.startCheckpointer();
    this.log.write(captures);
  }

  async getCapture(traceId: string): Promise<CaptureRecord | undefined> {
    return this.log.get(traceId);
  }

  async captureCount(): Promise<number> {
    return this.log.count();
  }

  async listCaptures(options: ListCapturesOptions = {}): Promise<ListedCapture[]> {
    return this.listing.list(options);
  }

  async outcomeCounts(options: OutcomeCountsOptions): Promise<OutcomeBucket[]> {
    return this.rates.outcomeCounts(options);
  }

  newLeaseOwner(): string {
    return this.owners.create();
  }

  async claimPending(options: ClaimOptions): Promise<Capture[]> {
    return this.queue.claim(options);
  }

  async hasUnqueuedCaptures(judgeVersion: string): Promise<boolean> {
    return this.queue.hasUnqueuedCaptures(judgeVersion);
  }

  async pendingCount(judgeVersion: string): Promise<number> {
    return this.queue.pendingCount(judgeVersion);
  }

  async attemptsOf(traceId: string, judgeVersion: string): Promise<number> {
    return this.queue.attemptsOf(traceId, judgeVersion);
  }

  async recordFailure(traceId: string, judgeVersion: string, error: string, nextAttemptMs: number): Promise<number> {
    return this.queue.recordFailure(traceId, judgeVersion, error, nextAttemptMs);
  }

  async saveJudgment(judgment: StoredJudgment): Promise<boolean> {
    return this.queue.save(judgment);
  }

  async judgmentCount(judgeVersion: string): Promise<number> {
    return this.queue.judgmentCount(judgeVersion);
  }

  async releaseLease(traceId: string, judgeVersion: string, owner: string): Promise<void> {
    this.queue.releaseLease(traceId, judgeVersion, owner);
  }

  async releaseLeasesOf(owner: string): Promise<number> {
    this.owners.retire(owner);
    return this.queue.releaseLeasesOf(owner);
  }

  async reclaimAbandonedLeases(now: number, self: string): Promise<ReclaimedLeases[]> {
    const reclaimed: ReclaimedLeases[] = [];
    for (const owner of this.queue.leaseOwners(now)) {
      if (!this.owners.isAbandoned(owner, self)) continue;
      const released = this.queue.releaseLeasesOf(owner);
      if (released > 0) reclaimed.push({ owner, released });
    }
    return reclaimed;
  }

  /** Owners holding unexpired leases (what the reclaim policy looks at). */
  leaseOwners(now: number): string[] {
    return this.queue.leaseOwners(now);
  }

  async judgedEvidence(): Promise<EvidenceReference[]> {
    return this.drift.evidence();
  }

  async close(): Promise<void> {
    this.backgroundCheckpoints = false;
    this.checkpointer?.close();
    this.checkpointer = null;
    if (this.db.open) this.db.close();
  }

  private startCheckpointer(): void {
    const fallBack = () => {
      this.checkpointer = null;
      this.backgroundCheckpoints = false;
      if (this.db.open) this.db.pragma(`wal_autocheckpoint = ${INLINE_CHECKPOINT_PAGES}`);
    };
    try {
      this.checkpointer = new BackgroundCheckpointer(this.path, fallBack);
      this.db.pragma(`wal_autocheckpoint = ${INLINE_CHECKPOINT_BACKSTOP_PAGES}`);
    } catch {
      fallBack();
    }
  }
}
