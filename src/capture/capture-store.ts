import type { JudgmentOutcome } from '../contract/outcome.js';
import type { StoreHealth } from './store-health.js';
import type { Capture, CaptureSink, StoredJudgment } from './types.js';

export type { StoreHealth, StoreHealthReason } from './store-health.js';

/**
 * The capture store's interface: what the middleware, the live judge worker, the drift checks, the
 * dashboard and the CLI use. The SQLite store (`sqlite-store/`) and the Postgres store
 * (`postgres-store/`) implement it and pass the same contract tests
 * (`src/test-support/capture-store-contract.ts`).
 *
 * Every call that may touch the database returns a Promise, so no caller assumes a synchronous
 * store. (The SQLite store does its work inside the call and returns a settled Promise.)
 * It is split by job: {@link CaptureLog}, {@link CaptureListing}, {@link JudgeQueue},
 * {@link DriftQueries}; functions that need one job take that part only.
 */

/** One capture with every judgment stored for it, oldest first. */
export interface CaptureRecord {
  capture: Capture;
  judgments: StoredJudgment[];
}

/** A capture row for lists: the capture plus its newest judgment, if any. */
export interface CaptureWithJudgment {
  capture: Capture;
  judgment: StoredJudgment | null;
}

/** A listed capture with its place in the list: pass `cursor` as `ListCapturesOptions.cursor` for the page after it. */
export interface ListedCapture extends CaptureWithJudgment {
  /** Opaque; valid for the store that gave it, with any filter. */
  cursor: string;
}

/**
 * Which captures a list holds. Every field given must hold (they combine with AND); an empty
 * filter holds for every capture. "The judgment" is the one the list shows: of
 * `ListCapturesOptions.judgeVersion` when given, else the newest of any version.
 */
export interface CaptureFilter {
  /**
   * Only captures whose judgment has this outcome under the contract's outcome table as it is
   * when the list is read (`judge_error` for a failed judgment); aborted captures never match (their
   * verdict is `aborted`, whatever judgment they have).
   */
  outcome?: JudgmentOutcome;
  /** `true`: only captures with a judgment; `false`: only captures without one. */
  judged?: boolean;
  /** Only captures whose client hung up before the answer finished (`true`), or only the others. */
  aborted?: boolean;
  /** Only captures cut by the size caps (`true`), or only the others. */
  truncated?: boolean;
  /** Only refusals (`true`: gate or model), or only answers. */
  refused?: boolean;
  /** Only captures of this route, exactly as stored (`Capture.route`). */
  route?: string;
  /** Only captures made at or after this time (ms since epoch; `Capture.capturedAt`). */
  from?: number;
  /** Only captures made before this time (ms since epoch). */
  to?: number;
  /** Only captures whose question contains this text, ignoring case (ASCII letters at least). */
  text?: string;
  /**
   * Only captures with drift: a chunk whose hash differs from its hash in this map (chunk id to
   * current hash, e.g. `index.chunkHashes()`), or that the map does not hold (gone).
   */
  driftedFrom?: ReadonlyMap<string, string>;
}

export interface ListCapturesOptions {
  /** [limit=50], at most 500. */
  limit?: number;
  /** Only judgments of this judge version count; default: the newest judgment of any version. */
  judgeVersion?: string;
  /** The page after the capture that gave this cursor (`ListedCapture.cursor`); default: the first page. */
  cursor?: string;
  /** [filter={}]: every capture. */
  filter?: CaptureFilter;
}

/** Bucket lengths of {@link OutcomeCountsOptions}: an hour or a day (24 hours), in ms. */
export const OUTCOME_BUCKET_MS = { hour: 3_600_000, day: 86_400_000 } as const;
/** Most buckets one {@link CaptureListing.outcomeCounts} call returns. */
export const MAX_OUTCOME_BUCKETS = 1000;

export interface OutcomeCountsOptions {
  /** The judge whose judgments are counted (`kind:model:promptVersion`). */
  judgeVersion: string;
  /** Start of the first bucket, whole ms since epoch (inclusive). */
  from: number;
  /** End of the range, whole ms since epoch (exclusive). */
  to: number;
  /**
   * Bucket length, counted from `from` (so a caller picks the alignment: a local midnight, an
   * hour); the last bucket may be cut short by `to`. [bucket=none: one bucket for the whole range]
   */
  bucket?: keyof typeof OUTCOME_BUCKET_MS;
}

/** Counts of the captures made in one bucket of time (by `Capture.capturedAt`). */
export interface OutcomeBucket {
  /** Start of the bucket, ms since epoch. */
  start: number;
  /** Every capture of the bucket. */
  captures: number;
  /** Captures whose client hung up before the answer finished. */
  aborted: number;
  /** Refusals (gate or model), aborted or not. */
  refused: number;
  /** Captures not aborted without a judgment of this judge version, and how many of them were cut by the size caps. */
  unjudged: number;
  unjudgedTruncated: number;
  /**
   * Judgments of this judge version of the bucket's captures that were not aborted, by outcome
   * under the contract's outcome table as it is when the counts are read. Every outcome is a key
   * (`outcomeNames()`), zeros included.
   */
  outcomes: Record<JudgmentOutcome, number>;
}

export interface ClaimOptions {
  judgeVersion: string;
  /** Only captures made at or before this time (ms since epoch): the settle delay. */
  settledBefore: number;
  /** Most captures to lease (at least 1 is asked for). */
  limit: number;
  /** The lease owner, from {@link JudgeQueue.newLeaseOwner}. */
  owner: string;
  /** How long the leases last from `now`. */
  leaseMs: number;
  /** The caller's clock, ms since epoch: leases and backoff are compared with it. */
  now: number;
}

/** One (judgment, evidence chunk) pair: what drift checks compare with the index. */
export interface EvidenceReference {
  traceId: string;
  capturedAt: string;
  chunkId: string;
  hash: string;
  judgeVersion: string;
  status: 'ok' | 'error';
  faithful: boolean | null;
  hallucinated: boolean | null;
}

/** Leases a store gave back early because their owner is known to be gone. */
export interface ReclaimedLeases {
  owner: string;
  released: number;
}

/** Captures and their evidence: written by the middleware, read by everyone. */
export interface CaptureLog extends CaptureSink {
  /**
   * Persist captures (one transaction where the store has them); a trace id already stored is
   * skipped. Each distinct chunk is stored once and referenced by later captures.
   */
  writeCaptures(captures: readonly Capture[]): Promise<void>;
  /** One capture by trace id with its judgments, or `undefined`. */
  getCapture(traceId: string): Promise<CaptureRecord | undefined>;
  captureCount(): Promise<number>;
}

/** Pages of captures for the dashboard and the CLI. */
export interface CaptureListing {
  /**
   * Captures newest first (by capture time, then by when they were stored), each with its judgment
   * (of `judgeVersion` when given, else the newest of any version), that hold `filter`. Pages
   * follow `cursor`: paging to the end gives every capture that holds the filter exactly once
   * (captures stored meanwhile may or may not appear). A page costs the same few queries whatever
   * its size.
   *
   * @throws InvalidInputError `invalid_cursor` for a cursor this store did not give.
   */
  listCaptures(options?: ListCapturesOptions): Promise<ListedCapture[]>;
  /**
   * Counts per bucket of time from `from` to `to`, every bucket listed (empty ones too), oldest
   * first: the live rates the dashboard shows. It must not read judgment records one by one: a
   * store keeps what it counts in indexed columns (the SQLite store keeps the flags key).
   *
   * @throws InvalidInputError `invalid_range` when `to <= from`, a bound is not a whole number, or
   *   there would be more than {@link MAX_OUTCOME_BUCKETS} buckets.
   */
  outcomeCounts(options: OutcomeCountsOptions): Promise<OutcomeBucket[]>;
}

/**
 * The live judge's queue: claims with leases, attempts and backoff, and the judgments. A
 * judgment is unique per (capture, judge version), enforced by the store, so no crash, restart or
 * race stores two.
 *
 * Leases expire by time: a lease owner that vanished without releasing its leases only delays
 * its captures until `leaseMs` passes. Correctness never depends on telling owners apart; a store
 * may give back leases early when it can tell safely that their owner is gone
 * ({@link reclaimAbandonedLeases}).
 */
export interface JudgeQueue {
  /** A new lease-owner id for one run of one worker. Unique; what it encodes is the store's business. */
  newLeaseOwner(): string;
  /**
   * Lease up to `limit` settled, unjudged captures to `owner` (never truncated or aborted ones), oldest first, so
   * that no two owners hold a lease on the same capture. Captures in backoff or leased by someone
   * else (until the lease expires) are skipped.
   */
  claimPending(options: ClaimOptions): Promise<Capture[]>;
  /** Whether captures were written that have not yet joined this judge version's queue (claim again soon: the next claims add them). */
  hasUnqueuedCaptures(judgeVersion: string): Promise<boolean>;
  /** Captures still waiting for a judgment of this judge version (settled or not, leased or not; truncated and aborted ones never wait). */
  pendingCount(judgeVersion: string): Promise<number>;
  /** Failed attempts so far for this capture and judge version (0 when none). */
  attemptsOf(traceId: string, judgeVersion: string): Promise<number>;
  /** Count a failed attempt, release the lease and schedule the next try. Returns the attempts so far. */
  recordFailure(traceId: string, judgeVersion: string, error: string, nextAttemptMs: number): Promise<number>;
  /**
   * Store a judgment and drop its job, atomically. Returns false when one already exists for this
   * capture and judge version (the first is kept; this one is discarded).
   */
  saveJudgment(judgment: StoredJudgment): Promise<boolean>;
  judgmentCount(judgeVersion: string): Promise<number>;
  /** Give a leased capture back without counting an attempt (the worker paused or stopped). */
  releaseLease(traceId: string, judgeVersion: string, owner: string): Promise<void>;
  /** Release every lease held by `owner` (its worker stopped); the owner id is not used again. */
  releaseLeasesOf(owner: string): Promise<number>;
  /**
   * Give back leases whose owners this store can tell are gone (the SQLite store: a stopped worker
   * of this process, or a dead process on this host; the Postgres store: a stopped worker of this
   * process only), so they need not wait for expiry. A store that cannot tell returns `[]` and
   * lets leases expire.
   */
  reclaimAbandonedLeases(now: number, self: string): Promise<ReclaimedLeases[]>;
}

/** What drift checks read. */
export interface DriftQueries {
  /** Every (judgment, evidence chunk) pair, oldest capture first. */
  judgedEvidence(): Promise<EvidenceReference[]>;
}

/** A capture store: the four jobs, plus where it is and how to close it. */
export interface CaptureStore extends CaptureLog, CaptureListing, JudgeQueue, DriftQueries {
  /** `sqlite`, `postgres`, …: for logs and health checks. */
  readonly kind: string;
  /** Where the data lives, safe to log (a path; a URL without its password). */
  readonly location: string;
  /**
   * The key the default redaction keys its placeholders with (the middleware reads it): random, at
   * least 32 characters, made when the store is created and kept in it, so tokens match across
   * restarts and processes sharing the store. Optional: without one, tokens match within a process.
   */
  readonly redactionKey?: string;
  /**
   * Whether the store can take writes now, and why not (`/api/health`, `/metrics`). Cheap and
   * synchronous (the SQLite store checks that its file is still the one it opened); a store
   * without it is judged by its calls alone. While degraded, writes throw
   * `CaptureStoreUnavailableError` (retryable) and the store tries to recover on its own.
   */
  health?(): StoreHealth;
  close(): Promise<void>;
}
