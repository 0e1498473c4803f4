import type Database from 'better-sqlite3';
import { availableParallelism } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { DatabaseFileError, errorMessage } from '../../errors.js';
import type { CaptureRecord, CaptureStore, ClaimOptions, EvidenceReference, ListCapturesOptions, ListedCapture, OutcomeBucket, OutcomeCountsOptions, ReclaimedLeases } from '../capture-store.js';
import { CaptureStoreUnavailableError, degradedHealth, STORE_OK, type StoreHealth, type StoreHealthReason } from '../store-health.js';
import type { Capture, StoredJudgment } from '../types.js';
import { BackgroundCheckpointer } from './checkpointer.js';
import { openStoreConnection, type StoreConnection } from './connection.js';
import { fileChange, healthReasonOf, isBusyError, isWritable, MAX_BUSY_PAUSE_MS, removeStaleLogs } from './file-state.js';
import { HostLeaseOwners, type LeaseOwnerEnvironment } from './lease-owners.js';
import { prepareAndWrite, RedactorsByKey, type RawWriteOptions, type RawWriteResult } from './raw-write.js';
import { CAPTURE_MIGRATIONS } from './schema.js';
import { fileChangeOfCode, WriterThread, WriterThreadUnavailableError, WRITER_STOPPED } from './writer-thread.js';

/**
 * The SQLite capture store: one file (separate from the index) holding captured traces, their
 * chunks (each distinct chunk stored once, content-addressed), the live judge's judgments and its
 * queue. It implements {@link CaptureStore}, composed of one part per job: `capture-log.ts`,
 * `listing.ts`, `rates.ts`, `judge-queue.ts` (with `lease-owners.ts`), `drift-queries.ts`. These files are
 * the only places that write SQL against it.
 *
 * Every call runs its SQL synchronously (better-sqlite3, a few milliseconds at most) but never
 * waits inside SQLite: the connection's busy timeout is 0, and a call that meets another
 * process's lock is retried on a timer (yielding the event loop) for up to `busyTimeoutMs`, then
 * fails with `CaptureStoreUnavailableError('busy')`. Before and after each write the store checks
 * that the file at its path is still the one it opened: a deleted file is recreated, a replaced one
 * is opened, and a write that went to the old file is reported as failed (so it is written again),
 * never as done. A file that cannot be written (`read_only`, `io_error`) degrades the store; it
 * reopens the file with backoff until writes work again. `health()` tells which.
 */

/**
 * While a background thread takes the checkpoints, SQLite's own inline checkpoint only triggers
 * past this many log pages (~40 MB): a bound on the log should the thread fall behind.
 */
const INLINE_CHECKPOINT_BACKSTOP_PAGES = 10_000;
/** SQLite's default: an inline checkpoint once the log passes 1000 pages. */
const INLINE_CHECKPOINT_PAGES = 1000;
/** Reopening a degraded store: first after this long, doubling up to {@link MAX_RECOVERY_DELAY_MS}. */
const FIRST_RECOVERY_DELAY_MS = 100;
const MAX_RECOVERY_DELAY_MS = 5000;
/** After this many writer threads failed to start or died (in the store's life), the store writes on its caller's thread. */
const MAX_WRITER_THREAD_FAILURES = 3;

export interface OpenSqliteCaptureStoreOptions {
  /** SQLite file; parent folders are created. `:memory:` for a throwaway store. */
  path: string;
  /** Create the file when missing. [create=true] */
  create?: boolean;
  /**
   * Milliseconds a call waits for another process's lock, retrying on a timer (the event loop
   * keeps running), before it fails with `CaptureStoreUnavailableError('busy')`. Opening the
   * store waits up to as long, synchronously. [busyTimeoutMs=5000]
   */
  busyTimeoutMs?: number;
  /**
   * Take write-ahead-log checkpoints on a worker thread (started at the first `writeCaptures`)
   * instead of inside a commit on the event loop. `false` leaves them to SQLite, inline.
   * [backgroundCheckpoints=true]
   */
  backgroundCheckpoints?: boolean;
  /**
   * Redact, cap and write the captures of `writeRawCaptures` (what `captureRag` writes through)
   * on a worker thread with its own connection, started at the first such write, so the thread
   * serving requests only hands them over. It takes about half of a capture's CPU time off the
   * request thread (bench:capture-path) but costs a little more in all (the hand-over, the
   * thread's own wake-ups): worth it with a core to spare, hence on by default only where the
   * process may run on more than one CPU (`os.availableParallelism()`; a container held to one
   * CPU by a quota rather than by affinity still counts its host's: set it to `false` there).
   * Plain `writeCaptures` always writes on the caller's thread. Ignored for `:memory:`.
   * [writerThread=WRITER_THREAD_BY_DEFAULT: os.availableParallelism() > 1]
   */
  writerThread?: boolean;
  /** For tests: the module the checkpoint thread loads as its SQLite driver. [checkpointDriver=better-sqlite3] */
  checkpointDriver?: string;
  /** Clock, ms since epoch: the file's `created_at`, a capture's time when its `capturedAt` does not parse, health times. [now=Date.now] */
  now?: () => number;
  /** Where lease-owner ids come from (host name, pid, random part), for tests. [leaseOwners={}] */
  leaseOwners?: LeaseOwnerEnvironment;
  /** Called with the SQL of every statement run (tests and benchmarks count them). */
  verbose?: (sql: string) => void;
}

/** Whether a SQLite capture store writes `captureRag`'s batches on its writer thread unless told: with more than one CPU to run on. */
export const WRITER_THREAD_BY_DEFAULT = availableParallelism() > 1;

export class SqliteCaptureStore implements CaptureStore {
  readonly kind = 'sqlite';
  readonly path: string;
  /**
   * The key of the file first opened (kept for this store's life: a recreated file gets the same
   * one, so the placeholders of one process stay consistent).
   */
  readonly redactionKey: string;
  private connection: StoreConnection | null;
  private readonly owners: HostLeaseOwners;
  private readonly now: () => number;
  private readonly busyTimeoutMs: number;
  private readonly verbose: ((sql: string) => void) | undefined;
  private readonly inMemory: boolean;
  private readonly checkpointDriver: string | undefined;
  private state: StoreHealth = STORE_OK;
  private recovering: Promise<void> | null = null;
  private nextRecoveryAt = 0;
  private recoveryDelayMs = 0;
  private closed = false;
  /** Whether a write starts the checkpoint thread: not when turned off, once the thread failed, or once the store is closed. */
  private backgroundCheckpoints: boolean;
  private checkpointer: BackgroundCheckpointer | null = null;
  /** Whether `writeRawCaptures` writes on a thread: not when turned off, or once threads kept failing. */
  private useWriterThread: boolean;
  private writer: WriterThread | null = null;
  private writerThreadFailures = 0;
  /** For `writeRawCaptures` on this thread. */
  private readonly redactors = new RedactorsByKey();

  constructor(options: OpenSqliteCaptureStoreOptions) {
    this.now = options.now ?? Date.now;
    this.path = options.path;
    this.inMemory = options.path === ':memory:';
    this.busyTimeoutMs = options.busyTimeoutMs ?? 5000;
    this.verbose = options.verbose;
    this.checkpointDriver = options.checkpointDriver;
    this.backgroundCheckpoints = options.backgroundCheckpoints !== false && !this.inMemory;
    this.useWriterThread = (options.writerThread ?? WRITER_THREAD_BY_DEFAULT) && !this.inMemory;
    this.connection = openStoreConnection({ path: options.path, create: options.create ?? true, openBusyTimeoutMs: this.busyTimeoutMs, now: this.now, ...(this.verbose ? { verbose: this.verbose } : {}) });
    this.redactionKey = this.connection.redactionKey;
    this.owners = new HostLeaseOwners(options.leaseOwners);
    // A file this process cannot write opens anyway (SQLite opens it read-only): degraded from the start.
    if (!this.inMemory && !isWritable(this.path)) this.degrade('read_only', `${this.path} is not writable by this process`);
  }

  get location(): string {
    return this.path;
  }

  /** The connection now (it changes when the store reopens its file). */
  get db(): Database.Database {
    return this.live().db;
  }

  health(): StoreHealth {
    if (!this.closed && !this.inMemory) {
      const connection = this.connection;
      const change = connection?.identity ? fileChange(this.path, connection.identity) : null;
      if (change !== null) this.degrade(change, this.changeMessage(change));
      else if (this.state.status === 'ok' && !isWritable(this.path)) this.degrade('read_only', `${this.path} is not writable by this process`);
      if (this.state.status === 'degraded') void this.recoverIfDue();
    }
    return this.state;
  }

  async writeCaptures(captures: readonly Capture[]): Promise<void> {
    if (captures.length === 0) return;
    await this.write((connection) => {
      if (this.checkpointer === null && this.backgroundCheckpoints) this.startCheckpointer();
      connection.log.write(captures);
    });
  }

  /**
   * Write captures as recorded: the default redaction under `options.redactionKey` and the caps
   * first, each capture on its own, then one transaction; on the writer thread when the store has
   * one (`writerThread`). Says what became of each capture; used by `captureRag`.
   *
   * @throws CaptureStoreUnavailableError when the store cannot take the batch now (nothing was written).
   */
  async writeRawCaptures(captures: readonly Capture[], options: RawWriteOptions): Promise<RawWriteResult> {
    if (captures.length === 0) return { outcomes: [], retryError: null };
    if (this.useWriterThread && !this.closed) {
      const result = await this.writeOnThread(captures, options);
      if (result !== null) return result;
    }
    return this.write((connection) => {
      if (this.checkpointer === null && this.backgroundCheckpoints) this.startCheckpointer();
      return prepareAndWrite(connection.log, captures, options, this.redactors, this.path);
    });
  }

  /** The kernel task ids of the store's own threads (writer, checkpoints) on Linux, for benchmarks that read their CPU time. */
  backgroundThreadIds(): number[] {
    return [this.writer?.threadId, this.checkpointer?.threadId].filter((id): id is number => typeof id === 'number');
  }

  /** For tests: stop the writer thread at once, as a crash would. */
  async crashWriterThreadForTests(): Promise<void> {
    await this.writer?.terminateForTests();
  }

  getCapture(traceId: string): Promise<CaptureRecord | undefined> {
    return this.read((connection) => connection.log.get(traceId));
  }

  captureCount(): Promise<number> {
    return this.read((connection) => connection.log.count());
  }

  listCaptures(options: ListCapturesOptions = {}): Promise<ListedCapture[]> {
    return this.read((connection) => connection.listing.list(options));
  }

  outcomeCounts(options: OutcomeCountsOptions): Promise<OutcomeBucket[]> {
    return this.read((connection) => connection.rates.outcomeCounts(options));
  }

  newLeaseOwner(): string {
    return this.owners.create();
  }

  claimPending(options: ClaimOptions): Promise<Capture[]> {
    return this.write((connection) => connection.queue.claim(options));
  }

  hasUnqueuedCaptures(judgeVersion: string): Promise<boolean> {
    return this.read((connection) => connection.queue.hasUnqueuedCaptures(judgeVersion));
  }

  pendingCount(judgeVersion: string): Promise<number> {
    return this.read((connection) => connection.queue.pendingCount(judgeVersion));
  }

  attemptsOf(traceId: string, judgeVersion: string): Promise<number> {
    return this.read((connection) => connection.queue.attemptsOf(traceId, judgeVersion));
  }

  recordFailure(traceId: string, judgeVersion: string, error: string, nextAttemptMs: number): Promise<number> {
    return this.write((connection) => connection.queue.recordFailure(traceId, judgeVersion, error, nextAttemptMs));
  }

  saveJudgment(judgment: StoredJudgment): Promise<boolean> {
    return this.write((connection) => connection.queue.save(judgment));
  }

  judgmentCount(judgeVersion: string): Promise<number> {
    return this.read((connection) => connection.queue.judgmentCount(judgeVersion));
  }

  releaseLease(traceId: string, judgeVersion: string, owner: string): Promise<void> {
    return this.write((connection) => connection.queue.releaseLease(traceId, judgeVersion, owner));
  }

  releaseLeasesOf(owner: string): Promise<number> {
    this.owners.retire(owner);
    return this.write((connection) => connection.queue.releaseLeasesOf(owner));
  }

  reclaimAbandonedLeases(now: number, self: string): Promise<ReclaimedLeases[]> {
    return this.write((connection) => {
      const reclaimed: ReclaimedLeases[] = [];
      for (const owner of connection.queue.leaseOwners(now)) {
        if (!this.owners.isAbandoned(owner, self)) continue;
        const released = connection.queue.releaseLeasesOf(owner);
        if (released > 0) reclaimed.push({ owner, released });
      }
      return reclaimed;
    });
  }

  /** Owners holding unexpired leases (what the reclaim policy looks at). */
  leaseOwners(now: number): string[] {
    return this.live().queue.leaseOwners(now);
  }

  judgedEvidence(): Promise<EvidenceReference[]> {
    return this.read((connection) => connection.drift.evidence());
  }

  async close(): Promise<void> {
    this.closed = true;
    this.backgroundCheckpoints = false;
    const checkpointer = this.checkpointer;
    this.checkpointer = null;
    const writer = this.writer;
    this.writer = null;
    if (this.connection?.db.open) this.connection.db.close();
    // The writes already posted finish first; then the thread closes its connection. The checkpoint
    // thread takes its last checkpoint and closes too: once close() resolves, nothing touches the
    // file, its -wal or its -shm any more (a caller may move or delete them).
    await Promise.all([writer?.close(), checkpointer?.close()]);
  }

  /**
   * {@link writeRawCaptures} on the writer thread, checked against the file before and after as
   * {@link run} checks a write; `null` when there is no thread to write on (it writes here then).
   */
  private async writeOnThread(captures: readonly Capture[], options: RawWriteOptions): Promise<RawWriteResult | null> {
    if (this.state.status === 'degraded' && this.state.reason !== 'busy') {
      await this.recoverIfDue();
      if (this.state.status === 'degraded') throw this.unavailable();
    }
    const connection = this.connection;
    if (connection === null || this.closed) throw this.closed ? new Error('the capture store is closed') : this.unavailable();
    // A running thread checks the file itself, before and after each write (off this thread); one
    // about to start is checked here, so a moved file is reported as moved, not as a thread failure.
    if (!this.writer?.running) this.checkFile(connection);
    const writer = this.writerThreadFor(connection);
    if (writer === null) return null;
    let result: RawWriteResult;
    try {
      result = await writer.write(captures, options);
    } catch (error) {
      if (!(error instanceof WriterThreadUnavailableError)) throw error;
      if (error.code === WRITER_STOPPED) throw new CaptureStoreUnavailableError('io_error', `${error.message}; the captures are written again`, { cause: error });
      const change = fileChangeOfCode(error.code);
      if (change !== null) throw this.degrade(change, this.changeMessage(change), error);
      const reason = healthReasonOf(error, this.path) ?? 'io_error';
      const message = reason === 'busy' ? `another connection held the capture store's write lock for over ${this.busyTimeoutMs} ms` : `${this.path}: ${error.message}`;
      throw this.degrade(reason, message, error);
    }
    // The thread wrote through its own connection to the file this store opened, and found it still
    // at the path after the write; but the store may have reopened its path meanwhile.
    if (this.connection !== connection) {
      // The store reopened its path meanwhile (the file was deleted or replaced): the batch may have gone to the old file.
      throw new CaptureStoreUnavailableError(this.state.reason ?? 'file_replaced', `${this.path} was reopened while a batch was being written to it; the batch is written again`);
    }
    if (this.state.status === 'degraded') this.recovered();
    return result;
  }

  /** The running writer thread for this connection's file, started now if needed; `null` when the store writes on its own thread. */
  private writerThreadFor(connection: StoreConnection): WriterThread | null {
    if (!this.useWriterThread || connection.identity === null) return null;
    if (this.writer?.running) return this.writer;
    if (this.checkpointer === null && this.backgroundCheckpoints) this.startCheckpointer();
    const failed = (error?: Error) => {
      this.writer = null;
      this.writerThreadFailures += 1;
      if (this.writerThreadFailures < MAX_WRITER_THREAD_FAILURES) return;
      this.useWriterThread = false;
      // Nothing is lost (the batches are written on the caller's thread), but the cost moves back: say so once.
      process.emitWarning(`capture store ${this.path}: the writer thread failed ${this.writerThreadFailures} times (last: ${error?.message ?? 'could not start'}); captures are written on the caller's thread from now on`, { code: 'GROUNDCHECK_WRITER_THREAD_FALLBACK' });
    };
    try {
      const writer = new WriterThread({ path: this.path, identity: connection.identity, busyTimeoutMs: this.busyTimeoutMs }, (error) => {
        if (this.writer === writer) failed(error);
      });
      this.writer = writer;
      return writer;
    } catch (error) {
      failed(error as Error);
      return null;
    }
  }

  private read<T>(work: (connection: StoreConnection) => T): Promise<T> {
    return this.run(false, work);
  }

  private write<T>(work: (connection: StoreConnection) => T): Promise<T> {
    return this.run(true, work);
  }

  /**
   * Run one call's SQL, retrying on a timer while another connection holds the lock. A write
   * is checked against the file before it runs (a gone file is not written to) and after it
   * committed (a write that reached a file deleted or replaced meanwhile is reported as failed).
   */
  private async run<T>(writes: boolean, work: (connection: StoreConnection) => T): Promise<T> {
    // A closed store: the call fails as better-sqlite3 fails it, at once.
    if (this.closed) return work(this.live());
    if (writes && this.state.status === 'degraded' && this.state.reason !== 'busy') {
      await this.recoverIfDue();
      if (this.state.status === 'degraded') throw this.unavailable();
    }
    // Deadlines run on the process clock, never the injected one (a test's fixed clock would never pass them).
    const giveUpAt = performance.now() + this.busyTimeoutMs;
    let pauseMs = 1;
    for (;;) {
      const connection = this.connection;
      if (connection === null || this.closed) throw this.closed ? new Error('the capture store is closed') : this.unavailable();
      try {
        if (writes) this.checkFile(connection);
        const result = work(connection);
        if (writes) {
          this.checkFile(connection);
          if (this.state.status === 'degraded') this.recovered();
        }
        return result;
      } catch (error) {
        if (error instanceof CaptureStoreUnavailableError) throw error;
        if (isBusyError(error) && performance.now() < giveUpAt) {
          await sleep(pauseMs);
          pauseMs = Math.min(pauseMs * 2, MAX_BUSY_PAUSE_MS);
          continue;
        }
        const reason = healthReasonOf(error, this.path);
        if (reason === null) throw error;
        const message = reason === 'busy' ? `another connection held the capture store's write lock for over ${this.busyTimeoutMs} ms` : `${this.path}: ${errorMessage(error)}`;
        throw this.degrade(reason, message, error);
      }
    }
  }

  /** Throws (degrading the store) when the file at the path is not the one this connection opened. */
  private checkFile(connection: StoreConnection): void {
    if (connection.identity === null) return;
    const change = fileChange(this.path, connection.identity);
    if (change !== null) throw this.degrade(change, this.changeMessage(change));
  }

  private changeMessage(change: 'file_deleted' | 'file_replaced'): string {
    return change === 'file_deleted'
      ? `${this.path} was deleted while the store was open; a new file is created there`
      : `${this.path} was replaced by another file while the store was open; the new file is opened`;
  }

  private degrade(reason: StoreHealthReason, message: string, cause?: unknown): CaptureStoreUnavailableError {
    this.state = degradedHealth(this.state, reason, message, new Date(this.now()));
    // A moved file is reopened at once; anything else after a pause that doubles each time.
    if (reason === 'file_deleted' || reason === 'file_replaced') this.nextRecoveryAt = 0;
    return new CaptureStoreUnavailableError(reason, message, cause === undefined ? undefined : { cause });
  }

  private unavailable(): CaptureStoreUnavailableError {
    return new CaptureStoreUnavailableError(this.state.reason ?? 'io_error', this.state.message ?? 'the capture store is unavailable');
  }

  private recovered(): void {
    this.state = STORE_OK;
    this.recoveryDelayMs = 0;
    this.nextRecoveryAt = 0;
  }

  /** Reopen the file when the store is degraded by its file and the backoff allows; one reopen at a time. */
  private recoverIfDue(): Promise<void> {
    if (this.closed || this.inMemory || this.state.status === 'ok' || this.state.reason === 'busy') return Promise.resolve();
    if (this.recovering) return this.recovering;
    if (performance.now() < this.nextRecoveryAt) return Promise.resolve();
    this.recovering = this.reopen().finally(() => {
      this.recovering = null;
    });
    return this.recovering;
  }

  private async reopen(): Promise<void> {
    const old = this.connection;
    const moved = this.state.reason === 'file_deleted' || this.state.reason === 'file_replaced';
    this.connection = null;
    // Both connections to the old file are closed before anything opens the path again: the last
    // one to close checkpoints into the old file and removes the log the new file must not read.
    await this.checkpointer?.close();
    this.checkpointer = null;
    // The writes it was given finish first (to the old file: they are reported as failed and written again).
    await this.writer?.close();
    this.writer = null;
    if (old?.db.open) old.db.close();
    if (this.closed) return;
    if (moved) removeStaleLogs(this.path);
    try {
      this.connection = openStoreConnection({ path: this.path, create: true, openBusyTimeoutMs: 0, now: this.now, redactionKey: this.redactionKey, ...(this.verbose ? { verbose: this.verbose } : {}) });
    } catch (error) {
      const reason = error instanceof DatabaseFileError ? 'unusable' : (healthReasonOf(error, this.path) ?? 'unusable');
      this.degrade(reason, `${this.path} cannot be opened as a capture store: ${errorMessage(error)}`, error);
      this.backOff();
      return;
    }
    if (!isWritable(this.path)) {
      this.degrade('read_only', `${this.path} is not writable by this process`);
      this.backOff();
      return;
    }
    this.recovered();
  }

  private backOff(): void {
    this.recoveryDelayMs = Math.min(Math.max(this.recoveryDelayMs * 2, FIRST_RECOVERY_DELAY_MS), MAX_RECOVERY_DELAY_MS);
    this.nextRecoveryAt = performance.now() + this.recoveryDelayMs;
  }

  private live(): StoreConnection {
    if (this.connection === null) throw this.unavailable();
    return this.connection;
  }

  private startCheckpointer(): void {
    const fallBack = () => {
      this.checkpointer = null;
      this.backgroundCheckpoints = false;
      if (this.connection?.db.open) this.connection.db.pragma(`wal_autocheckpoint = ${INLINE_CHECKPOINT_PAGES}`);
    };
    try {
      this.checkpointer = new BackgroundCheckpointer(this.path, fallBack, { identity: this.connection?.identity ?? null, ...(this.checkpointDriver === undefined ? {} : { driver: this.checkpointDriver }) });
      this.connection?.db.pragma(`wal_autocheckpoint = ${INLINE_CHECKPOINT_BACKSTOP_PAGES}`);
    } catch {
      fallBack();
    }
  }
}
