import type pg from 'pg';
import type { CaptureRecord, CaptureStore, ClaimOptions, EvidenceReference, ListCapturesOptions, ListedCapture, OutcomeBucket, OutcomeCountsOptions, ReclaimedLeases } from '../capture-store.js';
import type { Capture, StoredJudgment } from '../types.js';
import { PostgresCaptureLog } from './capture-log.js';
import { createPool, safeLocation } from './connection.js';
import { PostgresDriftQueries } from './drift-queries.js';
import { PostgresJudgeQueue } from './judge-queue.js';
import { ProcessLeaseOwners } from './lease-owners.js';
import { PostgresCaptureListing } from './listing.js';
import { PostgresRates } from './rates.js';
import { migrate } from './schema.js';
import { CaptureStoreUnavailableError } from '../store-health.js';

/**
 * The Postgres capture store: the same data and the same contract as the SQLite store, for many
 * app processes writing and judge workers on any hosts (`judge-queue.ts`). One part per job:
 * `capture-log.ts`, `listing.ts`, `rates.ts`, `judge-queue.ts` (with `lease-owners.ts`),
 * `drift-queries.ts`, and `schema.ts` for the migrations; no SQL elsewhere.
 *
 * The pool connects lazily: constructing the store does no I/O. The first call (or
 * {@link PostgresCaptureStore.ready}) connects, migrates the schema and reads the redaction key;
 * every method awaits that first. A failed start is tried again by the next call.
 */

export interface OpenPostgresCaptureStoreOptions {
  /** `postgres://user:password@host:port/database` (any option `pg` reads from a connection string). */
  url: string;
  /** Schema of the tables (created when missing). [schema=the connection's search_path, usually public] */
  schema?: string;
  /** Create the tables when the schema has none; `false` makes a missing store an error. [create=true] */
  create?: boolean;
  /** Most connections this store object opens. [maxConnections=10] */
  maxConnections?: number;
  /** Milliseconds to wait for a connection before a call fails. [connectTimeoutMs=10000] */
  connectTimeoutMs?: number;
  /** Clock, ms since epoch: the store's `created_at`. [now=Date.now] */
  now?: () => number;
}

export class PostgresCaptureStore implements CaptureStore {
  readonly kind = 'postgres';
  /** The URL without its password (and the schema when not the default): safe to log. */
  readonly location: string;
  /** The pool, for tests and tools that read the tables; the store's SQL stays in this folder. */
  readonly pool: pg.Pool;
  private readonly log: PostgresCaptureLog;
  private readonly listing: PostgresCaptureListing;
  private readonly rates: PostgresRates;
  private readonly queue: PostgresJudgeQueue;
  private readonly drift: PostgresDriftQueries;
  private readonly owners = new ProcessLeaseOwners();
  private readonly options: OpenPostgresCaptureStoreOptions;
  private starting: Promise<void> | null = null;
  private key: string | null = null;
  private closed = false;

  constructor(options: OpenPostgresCaptureStoreOptions) {
    this.options = options;
    this.location = safeLocation(options.url, options.schema);
    this.pool = createPool({ url: options.url, maxConnections: options.maxConnections ?? 10, connectTimeoutMs: options.connectTimeoutMs ?? 10_000, ...(options.schema !== undefined ? { schema: options.schema } : {}) });
    this.log = new PostgresCaptureLog(this.pool);
    this.listing = new PostgresCaptureListing(this.pool, this.log);
    this.rates = new PostgresRates(this.pool);
    this.queue = new PostgresJudgeQueue(this.pool, this.log);
    this.drift = new PostgresDriftQueries(this.pool);
  }

  /**
   * Connect, migrate and read the redaction key (once; a failure is tried again on the next call).
   *
   * @throws InvalidInputError `not_found` (no store and `create: false`), `schema_too_new`; the driver's error when the database cannot be reached.
   */
  ready(): Promise<void> {
    if (this.closed) return Promise.reject(new Error(`the capture store at ${this.location} is closed`));
    this.starting ??= this.start().catch((error: unknown) => {
      this.starting = null;
      throw error;
    });
    return this.starting;
  }

  private async start(): Promise<void> {
    const client = await this.pool.connect();
    try {
      const { redactionKey } = await migrate(client, { location: this.location, create: this.options.create ?? true, now: this.options.now ?? Date.now });
      this.key = redactionKey;
    } finally {
      client.release();
    }
  }

  /**
   * The store's redaction key: random at creation, kept in the database, the same for every
   * process and after every restart (so redaction tokens match across them). Known once the store
   * is {@link ready}.
   *
   * @throws Error before the store is ready.
   */
  get redactionKey(): string {
    if (this.key === null) throw new Error(`the capture store at ${this.location} is not ready yet: await store.ready() before reading its redaction key`);
    return this.key;
  }

  async writeCaptures(captures: readonly Capture[]): Promise<void> {
    if (captures.length === 0) return;
    await this.run(() => this.log.write(captures));
  }

  getCapture(traceId: string): Promise<CaptureRecord | undefined> {
    return this.run(() => this.log.get(traceId));
  }

  captureCount(): Promise<number> {
    return this.run(() => this.log.count());
  }

  listCaptures(options: ListCapturesOptions = {}): Promise<ListedCapture[]> {
    return this.run(() => this.listing.list(options));
  }

  outcomeCounts(options: OutcomeCountsOptions): Promise<OutcomeBucket[]> {
    return this.run(() => this.rates.outcomeCounts(options));
  }

  newLeaseOwner(): string {
    return this.owners.create();
  }

  claimPending(options: ClaimOptions): Promise<Capture[]> {
    return this.run(() => this.queue.claim(options));
  }

  hasUnqueuedCaptures(judgeVersion: string): Promise<boolean> {
    return this.run(() => this.queue.hasUnqueuedCaptures(judgeVersion));
  }

  pendingCount(judgeVersion: string): Promise<number> {
    return this.run(() => this.queue.pendingCount(judgeVersion));
  }

  attemptsOf(traceId: string, judgeVersion: string): Promise<number> {
    return this.run(() => this.queue.attemptsOf(traceId, judgeVersion));
  }

  recordFailure(traceId: string, judgeVersion: string, error: string, nextAttemptMs: number): Promise<number> {
    return this.run(() => this.queue.recordFailure(traceId, judgeVersion, error, nextAttemptMs));
  }

  saveJudgment(judgment: StoredJudgment): Promise<boolean> {
    return this.run(() => this.queue.save(judgment));
  }

  judgmentCount(judgeVersion: string): Promise<number> {
    return this.run(() => this.queue.judgmentCount(judgeVersion));
  }

  releaseLease(traceId: string, judgeVersion: string, owner: string): Promise<void> {
    return this.run(() => this.queue.releaseLease(traceId, judgeVersion, owner));
  }

  releaseLeasesOf(owner: string): Promise<number> {
    this.owners.retire(owner);
    return this.run(() => this.queue.releaseLeasesOf(owner));
  }

  /** Gives back only leases of owners this process made and stopped; every other lease waits for its expiry. */
  reclaimAbandonedLeases(now: number, self: string): Promise<ReclaimedLeases[]> {
    return this.run(async () => {
      const reclaimed: ReclaimedLeases[] = [];
      for (const owner of await this.queue.leaseOwners(now)) {
        if (!this.owners.isAbandoned(owner, self)) continue;
        const released = await this.queue.releaseLeasesOf(owner);
        if (released > 0) reclaimed.push({ owner, released });
      }
      return reclaimed;
    });
  }

  judgedEvidence(): Promise<EvidenceReference[]> {
    return this.run(() => this.drift.evidence());
  }

  /**
   * Every call: once the store is ready, its work. A lost connection or a server going away is
   * `CaptureStoreUnavailableError('unreachable')` (retryable: nothing was committed), so the
   * middleware keeps captures queued and the live judge stores a judgment again, as with a locked
   * SQLite file. Anything else (a value the schema rejects, `schema_too_new`) is thrown as is.
   */
  private async run<T>(work: () => Promise<T>): Promise<T> {
    try {
      await this.ready();
      return await work();
    } catch (error) {
      if (isConnectionError(error)) throw new CaptureStoreUnavailableError('unreachable', `the capture store at ${this.location} cannot be reached: ${(error as Error).message}`, { cause: error });
      throw error;
    }
  }

  /** Close the pool (after the calls in flight). Closing twice is fine. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.starting?.catch(() => undefined);
    await this.pool.end();
  }
}

/**
 * Open the Postgres capture store and wait until it is ready (connected, migrated, redaction key read).
 *
 * @example
 * const store = await openPostgresCaptureStore({ url: process.env.GROUNDCHECK_CAPTURE_DB! });
 * app.use(captureRag({ store }));
 */
export async function openPostgresCaptureStore(options: OpenPostgresCaptureStoreOptions): Promise<PostgresCaptureStore> {
  return readyOrClosed(new PostgresCaptureStore(options));
}

/** The store once {@link PostgresCaptureStore.ready}; when it cannot start, closed and the error thrown. */
export async function readyOrClosed(store: PostgresCaptureStore): Promise<PostgresCaptureStore> {
  try {
    await store.ready();
  } catch (error) {
    await store.close();
    throw error;
  }
  return store;
}

/** Errors that say the server or the connection is gone (Node's socket errors, SQLSTATE classes 08 and 57P0x), not the statement. */
function isConnectionError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return /Connection terminated|connection timeout/i.test((error as Error | null)?.message ?? '');
  return ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH'].includes(code) || code.startsWith('08') || /^57P0[1-3]$/.test(code);
}
