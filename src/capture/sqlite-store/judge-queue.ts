import type Database from 'better-sqlite3';
import type { ClaimOptions } from '../capture-store.js';
import type { Capture, StoredJudgment } from '../types.js';
import type { SqliteCaptureLog } from './capture-log.js';
import { judgmentRecord } from '../capture-row.js';
import { judgmentColumns } from './rows.js';

/**
 * The live judge's queue in the SQLite store: claims with leases, attempts and backoff, and the
 * judgments (UNIQUE on capture and judge version in the schema).
 */

/**
 * Captures moved into a judge version's queue per claim, at most. A new judge version meeting a
 * file of a million captures queues them over many short write transactions (the worker yields
 * between them), never in one long one that would hold up the middleware's writes.
 */
export const JUDGE_QUEUE_BATCH = 2000;

/**
 * The statements the judge worker's claim runs, exported so a test can check their query plans
 * (an index search on the queue, never a scan of `captures`).
 */
export const JUDGE_QUEUE_SQL = {
  /** The highest capture id already considered for a judge version's queue. */
  mark: `SELECT last_capture_id FROM judge_marks WHERE judge_version = ?`,
  /** The next batch of captures past the mark: how many, and the last id. */
  nextBatch: `SELECT count(*) AS n, max(id) AS upTo FROM (SELECT id FROM captures WHERE id > @from ORDER BY id LIMIT @batch)`,
  /** Queue the batch's judgeable captures: not truncated, not aborted, not judged by this version. */
  enqueue: `
    INSERT INTO judge_jobs (judge_version, capture_id, captured_ms)
    SELECT @judgeVersion, c.id, c.captured_ms FROM captures c
    WHERE c.id > @from AND c.id <= @upTo AND c.truncated = 0 AND c.aborted = 0
      AND NOT EXISTS (SELECT 1 FROM judgments j WHERE j.capture_id = c.id AND j.judge_version = @judgeVersion)
    ON CONFLICT (judge_version, capture_id) DO NOTHING`,
  setMark: `
    INSERT INTO judge_marks (judge_version, last_capture_id) VALUES (?, ?)
    ON CONFLICT (judge_version) DO UPDATE SET last_capture_id = excluded.last_capture_id`,
  /**
   * Settled, not in backoff, not leased by anyone (or the lease expired), oldest first. Reads the
   * version's settled jobs in `judge_jobs_settled` order and stops at `limit`: captures still
   * settling are never visited.
   */
  claimable: `
    SELECT q.capture_id FROM judge_jobs q INDEXED BY judge_jobs_settled
    WHERE q.judge_version = @judgeVersion AND q.captured_ms <= @settledBefore AND q.next_attempt_ms <= @now
      AND (q.lease_owner IS NULL OR q.lease_expires_ms <= @now)
      AND NOT EXISTS (SELECT 1 FROM judgments j WHERE j.capture_id = q.capture_id AND j.judge_version = @judgeVersion)
    ORDER BY q.captured_ms, q.capture_id LIMIT @limit`,
} as const;

export class SqliteJudgeQueue {
  private readonly statements;

  constructor(
    private readonly db: Database.Database,
    private readonly log: SqliteCaptureLog,
  ) {
    this.statements = {
      mark: db.prepare(JUDGE_QUEUE_SQL.mark).pluck(),
      nextBatch: db.prepare(JUDGE_QUEUE_SQL.nextBatch),
      enqueue: db.prepare(JUDGE_QUEUE_SQL.enqueue),
      setMark: db.prepare(JUDGE_QUEUE_SQL.setMark),
      claimable: db.prepare(JUDGE_QUEUE_SQL.claimable).pluck(),
      anyPastMark: db.prepare(`SELECT EXISTS (SELECT 1 FROM captures WHERE id > ?)`).pluck(),
      // Every judgeable capture up to the mark without a judgment has a job row (jobs are deleted
      // only together with storing the judgment); past the mark, count the captures themselves.
      countPending: db.prepare(`
        SELECT
          (SELECT count(*) FROM judge_jobs q
            WHERE q.judge_version = @judgeVersion AND q.capture_id <= @mark
              AND NOT EXISTS (SELECT 1 FROM judgments j WHERE j.capture_id = q.capture_id AND j.judge_version = @judgeVersion))
          + (SELECT count(*) FROM captures c
            WHERE c.id > @mark AND c.truncated = 0 AND c.aborted = 0
              AND NOT EXISTS (SELECT 1 FROM judgments j WHERE j.capture_id = c.id AND j.judge_version = @judgeVersion))`).pluck(),
      lease: db.prepare(`UPDATE judge_jobs SET lease_owner = @owner, lease_expires_ms = @expires WHERE judge_version = @judgeVersion AND capture_id = @captureId`),
      jobAttempts: db.prepare(`SELECT attempts FROM judge_jobs WHERE capture_id = ? AND judge_version = ?`).pluck(),
      // The capture's time and aborted flag are copied in, for outcome counts that read one index (schema 5).
      insertJudgment: db.prepare(`
        INSERT INTO judgments (capture_id, judge_version, status, faithful, hallucinated, refused, judged_at, record, captured_ms, capture_aborted, flags_key)
        SELECT @captureId, @judgeVersion, @status, @faithful, @hallucinated, @refused, @judgedAt, @record, c.captured_ms, c.aborted, @flagsKey
        FROM captures c WHERE c.id = @captureId
        ON CONFLICT (capture_id, judge_version) DO NOTHING`),
      insertFlagsKey: db.prepare(`INSERT INTO judgment_flag_keys (judge_version, flags_key) VALUES (?, ?) ON CONFLICT DO NOTHING`),
      deleteJob: db.prepare(`DELETE FROM judge_jobs WHERE capture_id = ? AND judge_version = ?`),
      // The job row normally exists (it was claimed); never re-create one for a capture judged meanwhile.
      recordFailure: db.prepare(`
        INSERT INTO judge_jobs (judge_version, capture_id, captured_ms, attempts, next_attempt_ms, lease_owner, lease_expires_ms, last_error)
        SELECT @judgeVersion, c.id, c.captured_ms, 1, @nextAttemptMs, NULL, 0, @error FROM captures c
        WHERE c.id = @captureId AND NOT EXISTS (SELECT 1 FROM judgments j WHERE j.capture_id = c.id AND j.judge_version = @judgeVersion)
        ON CONFLICT (judge_version, capture_id) DO UPDATE SET attempts = attempts + 1, next_attempt_ms = excluded.next_attempt_ms,
          lease_owner = NULL, lease_expires_ms = 0, last_error = excluded.last_error
        RETURNING attempts`).pluck(),
      releaseLease: db.prepare(`UPDATE judge_jobs SET lease_owner = NULL, lease_expires_ms = 0 WHERE capture_id = ? AND judge_version = ? AND lease_owner = ?`),
      releaseOwner: db.prepare(`UPDATE judge_jobs SET lease_owner = NULL, lease_expires_ms = 0 WHERE lease_owner = ?`),
      leaseOwners: db.prepare(`SELECT DISTINCT lease_owner FROM judge_jobs WHERE lease_owner IS NOT NULL AND lease_expires_ms > ? ORDER BY lease_owner`).pluck(),
      countJudgments: db.prepare(`SELECT count(*) FROM judgments WHERE judge_version = ?`).pluck(),
    };
  }

  /**
   * Lease up to `limit` settled, unjudged captures to `owner` for `leaseMs`, in one write
   * transaction (so two workers never lease the same capture). Captures in backoff or leased by
   * someone else are skipped.
   *
   * The captures come from the judge version's queue (`judge_jobs`), read through its primary
   * key, so a poll costs the same with a thousand judged captures or a million. Before claiming,
   * captures written since the last claim (at most {@link JUDGE_QUEUE_BATCH}) join the queue; a
   * judge version never seen before starts from the first capture, so it judges old captures too.
   * {@link hasUnqueuedCaptures} says when more are waiting to join.
   */
  claim(options: ClaimOptions): Capture[] {
    const { judgeVersion } = options;
    const ids = this.db
      .transaction(() => {
        this.fillQueue(judgeVersion);
        const claimable = this.statements.claimable.all({
          settledBefore: options.settledBefore,
          judgeVersion,
          now: options.now,
          limit: Math.max(1, options.limit),
        }) as number[];
        for (const captureId of claimable) {
          this.statements.lease.run({ captureId, judgeVersion, owner: options.owner, expires: options.now + options.leaseMs });
        }
        return claimable;
      })
      .immediate();
    return this.log.byIds(ids);
  }

  hasUnqueuedCaptures(judgeVersion: string): boolean {
    return this.statements.anyPastMark.get(this.markOf(judgeVersion)) === 1;
  }

  private markOf(judgeVersion: string): number {
    return (this.statements.mark.get(judgeVersion) as number | undefined) ?? 0;
  }

  /**
   * Move the next captures past the judge version's mark into its queue and advance the mark.
   * Safe because capture ids only grow: a write transaction (this one is IMMEDIATE) sees every
   * committed capture, and a capture committed later gets a larger id. (Deleting the newest
   * captures would let SQLite reuse their ids; nothing deletes captures.)
   */
  private fillQueue(judgeVersion: string): void {
    const from = this.markOf(judgeVersion);
    const { n, upTo } = this.statements.nextBatch.get({ from, batch: JUDGE_QUEUE_BATCH }) as { n: number; upTo: number | null };
    if (n === 0 || upTo === null) return;
    this.statements.enqueue.run({ judgeVersion, from, upTo });
    this.statements.setMark.run(judgeVersion, upTo);
  }

  pendingCount(judgeVersion: string): number {
    return this.statements.countPending.get({ judgeVersion, mark: this.markOf(judgeVersion) }) as number;
  }

  attemptsOf(traceId: string, judgeVersion: string): number {
    const captureId = this.log.idOf(traceId);
    if (captureId === undefined) return 0;
    return (this.statements.jobAttempts.get(captureId, judgeVersion) as number | undefined) ?? 0;
  }

  /** Store a judgment and drop the job, atomically; false when one already exists for this capture and judge version. */
  save(judgment: StoredJudgment): boolean {
    const captureId = this.log.idOf(judgment.traceId);
    if (captureId === undefined) throw new Error(`saveJudgment: no capture ${judgment.traceId}`);
    return this.db
      .transaction(() => {
        const columns = judgmentColumns(judgment);
        const result = this.statements.insertJudgment.run({ captureId, ...columns, record: judgmentRecord(judgment) });
        if (result.changes > 0 && columns.flagsKey !== null) this.statements.insertFlagsKey.run(columns.judgeVersion, columns.flagsKey);
        this.statements.deleteJob.run(captureId, judgment.judgeVersion);
        return result.changes > 0;
      })
      .immediate();
  }

  recordFailure(traceId: string, judgeVersion: string, error: string, nextAttemptMs: number): number {
    const captureId = this.log.idOf(traceId);
    if (captureId === undefined) return 0;
    return this.statements.recordFailure.get({ captureId, judgeVersion, nextAttemptMs, error }) as number;
  }

  judgmentCount(judgeVersion: string): number {
    return this.statements.countJudgments.get(judgeVersion) as number;
  }

  releaseLease(traceId: string, judgeVersion: string, owner: string): void {
    const captureId = this.log.idOf(traceId);
    if (captureId !== undefined) this.statements.releaseLease.run(captureId, judgeVersion, owner);
  }

  releaseLeasesOf(owner: string): number {
    return this.statements.releaseOwner.run(owner).changes;
  }

  /** Owners holding unexpired leases. */
  leaseOwners(now: number): string[] {
    return this.statements.leaseOwners.all(now) as string[];
  }
}
