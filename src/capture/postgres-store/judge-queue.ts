import type pg from 'pg';
import type { ClaimOptions } from '../capture-store.js';
import { flagsKeyOf, judgmentRecord } from '../capture-row.js';
import type { Capture, StoredJudgment } from '../types.js';
import type { PostgresCaptureLog } from './capture-log.js';
import { inTransaction } from './connection.js';

/**
 * The live judge's queue in the Postgres store, for many workers on any hosts.
 *
 * - A judge version's queue is `judge_jobs`: one row per capture waiting for its judgment. Claims
 *   lease rows with `FOR UPDATE SKIP LOCKED`, so concurrent claimers never wait on each other's
 *   rows and never lease the same capture; a lease is a time (`lease_expires_ms`) and nothing
 *   else: an owner that vanished only delays its captures until then.
 * - Captures join the queue at claim time, from the judge version's mark in (write_xid, id) order
 *   up to the oldest transaction still running (see `schema.ts`); one claimer at a time moves
 *   the mark (a row lock on `judge_marks`), at most {@link POSTGRES_QUEUE_BATCH} captures a claim.
 * - A judgment is UNIQUE per (capture, judge version): the first saved is kept, and storing it
 *   drops the job in the same transaction.
 */

/** Captures moved into a judge version's queue per claim, at most. */
export const POSTGRES_QUEUE_BATCH = 2000;

/** How long a claim waits at most for running transactions to end before it queues new captures, and how often it looks. */
const HORIZON_WAIT_MS = 250;
const HORIZON_POLL_MS = 5;

const NOT_JUDGED = (capture: string) => `NOT EXISTS (SELECT 1 FROM judgments j WHERE j.capture_id = ${capture} AND j.judge_version = $1)`;

const SQL = {
  horizon: `SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS horizon`,
  ensureMark: `INSERT INTO judge_marks (judge_version, mark_xid, mark_id) VALUES ($1, '0', 0) ON CONFLICT (judge_version) DO NOTHING`,
  lockMark: `SELECT mark_xid::text AS "markXid", mark_id AS "markId" FROM judge_marks WHERE judge_version = $1 FOR UPDATE`,
  mark: `SELECT mark_xid::text AS "markXid", mark_id AS "markId" FROM judge_marks WHERE judge_version = $1`,
  newestPastMark: `SELECT write_xid::text AS xid FROM captures WHERE (write_xid, id) > ($1::xid8, $2::bigint) ORDER BY write_xid DESC, id DESC LIMIT 1`,
  anyPastMark: `SELECT EXISTS (SELECT 1 FROM captures WHERE (write_xid, id) > ($1::xid8, $2::bigint)) AS present`,
  /** The next batch past the mark, behind the horizon: queue its judgeable captures; report its size and last row. */
  fill: `
    WITH batch AS (
      SELECT id, write_xid, captured_ms, truncated, aborted FROM captures
      WHERE (write_xid, id) > ($2::xid8, $3::bigint) AND write_xid < $4::xid8
      ORDER BY write_xid, id LIMIT $5
    ), queued AS (
      INSERT INTO judge_jobs (judge_version, capture_id, captured_ms)
      SELECT $1, b.id, b.captured_ms FROM batch b
      WHERE NOT b.truncated AND NOT b.aborted AND ${NOT_JUDGED('b.id')}
      ORDER BY b.id
      ON CONFLICT (judge_version, capture_id) DO NOTHING
    )
    SELECT count(*) AS n, (SELECT write_xid::text FROM batch ORDER BY write_xid DESC, id DESC LIMIT 1) AS "lastXid",
      (SELECT id FROM batch ORDER BY write_xid DESC, id DESC LIMIT 1) AS "lastId"
    FROM batch`,
  setMark: `UPDATE judge_marks SET mark_xid = $2::xid8, mark_id = $3 WHERE judge_version = $1`,
  claim: `
    WITH claimable AS (
      SELECT q.capture_id FROM judge_jobs q
      WHERE q.judge_version = $1 AND q.captured_ms <= $2 AND q.next_attempt_ms <= $3
        AND (q.lease_owner IS NULL OR q.lease_expires_ms <= $3) AND ${NOT_JUDGED('q.capture_id')}
      ORDER BY q.captured_ms, q.capture_id LIMIT $4
      FOR UPDATE OF q SKIP LOCKED
    )
    UPDATE judge_jobs q SET lease_owner = $5, lease_expires_ms = $6
    FROM claimable WHERE q.judge_version = $1 AND q.capture_id = claimable.capture_id
    RETURNING q.capture_id AS "captureId", q.captured_ms AS "capturedMs"`,
  pending: `
    SELECT
      (SELECT count(*) FROM judge_jobs q WHERE q.judge_version = $1 AND ${NOT_JUDGED('q.capture_id')})
      + (SELECT count(*) FROM captures c
          WHERE (c.write_xid, c.id) > ($2::xid8, $3::bigint) AND NOT c.truncated AND NOT c.aborted AND ${NOT_JUDGED('c.id')}
            AND NOT EXISTS (SELECT 1 FROM judge_jobs q WHERE q.judge_version = $1 AND q.capture_id = c.id)) AS n`,
  attempts: `SELECT q.attempts FROM judge_jobs q JOIN captures c ON c.id = q.capture_id WHERE c.trace_id = $2 AND q.judge_version = $1`,
  recordFailure: `
    INSERT INTO judge_jobs (judge_version, capture_id, captured_ms, attempts, next_attempt_ms, lease_owner, lease_expires_ms, last_error)
    SELECT $1, c.id, c.captured_ms, 1, $3, NULL, 0, $4 FROM captures c WHERE c.trace_id = $2 AND ${NOT_JUDGED('c.id')}
    ON CONFLICT (judge_version, capture_id) DO UPDATE SET attempts = judge_jobs.attempts + 1, next_attempt_ms = excluded.next_attempt_ms,
      lease_owner = NULL, lease_expires_ms = 0, last_error = excluded.last_error
    RETURNING attempts`,
  captureOf: `SELECT id, captured_ms AS "capturedMs", aborted FROM captures WHERE trace_id = $1`,
  insertJudgment: `
    INSERT INTO judgments (capture_id, judge_version, status, faithful, hallucinated, refused, judged_at, record, captured_ms, capture_aborted, flags_key)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8::json, $9, $10, $11)
    ON CONFLICT (capture_id, judge_version) DO NOTHING
    RETURNING id`,
  insertFlagsKey: `INSERT INTO judgment_flag_keys (judge_version, flags_key) VALUES ($1, $2) ON CONFLICT DO NOTHING`,
  deleteJob: `DELETE FROM judge_jobs WHERE capture_id = $1 AND judge_version = $2`,
  releaseLease: `
    UPDATE judge_jobs q SET lease_owner = NULL, lease_expires_ms = 0 FROM captures c
    WHERE c.trace_id = $1 AND q.capture_id = c.id AND q.judge_version = $2 AND q.lease_owner = $3`,
  releaseOwner: `UPDATE judge_jobs SET lease_owner = NULL, lease_expires_ms = 0 WHERE lease_owner = $1`,
  leaseOwners: `SELECT DISTINCT lease_owner AS owner FROM judge_jobs WHERE lease_owner IS NOT NULL AND lease_expires_ms > $1 ORDER BY lease_owner`,
  countJudgments: `SELECT count(*) AS n FROM judgments WHERE judge_version = $1`,
} as const;

interface Mark {
  markXid: string;
  markId: number;
}

export class PostgresJudgeQueue {
  constructor(
    private readonly pool: pg.Pool,
    private readonly log: PostgresCaptureLog,
  ) {}

  /** Lease up to `limit` settled, unjudged captures to `owner`, oldest first (after queueing new captures). */
  async claim(options: ClaimOptions): Promise<Capture[]> {
    const { judgeVersion } = options;
    await this.fillQueue(judgeVersion);
    const { rows } = await this.pool.query<{ captureId: number; capturedMs: number }>(SQL.claim, [
      judgeVersion,
      options.settledBefore,
      options.now,
      Math.max(1, options.limit),
      options.owner,
      options.now + options.leaseMs,
    ]);
    rows.sort((a, b) => a.capturedMs - b.capturedMs || a.captureId - b.captureId);
    return this.log.byIds(rows.map((row) => row.captureId));
  }

  /**
   * Move the next captures behind the horizon into the judge version's queue and advance its mark.
   * The horizon is read first: every transaction below it has ended, so no capture can still
   * appear behind the mark later.
   */
  private async fillQueue(judgeVersion: string): Promise<void> {
    const mark = await this.markOf(judgeVersion);
    const newest = (await this.pool.query<{ xid: string }>(SQL.newestPastMark, [mark.markXid, mark.markId])).rows[0];
    if (newest === undefined) return;
    // The horizon is cluster-wide: a transaction that began before the newest capture was written
    // (a write of another process, any other client's) holds it back. Such transactions are
    // usually short, so wait a little for the horizon to pass the newest capture instead of
    // leaving it for the next claim; past HORIZON_WAIT_MS, queue what is behind the horizon now.
    let horizon = await this.horizon();
    for (let waited = 0; BigInt(horizon) <= BigInt(newest.xid) && waited < HORIZON_WAIT_MS; waited += HORIZON_POLL_MS) {
      await new Promise((resolve) => setTimeout(resolve, HORIZON_POLL_MS));
      horizon = await this.horizon();
    }
    if (BigInt(horizon) <= BigInt(mark.markXid)) return;
    await this.pool.query(SQL.ensureMark, [judgeVersion]);
    await inTransaction(this.pool, async (client) => {
      const locked = (await client.query<Mark>(SQL.lockMark, [judgeVersion])).rows[0]!;
      const batch = (await client.query<{ n: number; lastXid: string | null; lastId: number | null }>(SQL.fill, [judgeVersion, locked.markXid, locked.markId, horizon, POSTGRES_QUEUE_BATCH])).rows[0]!;
      if (batch.n === 0) return;
      // A full batch: stop at its last capture. A short one took everything behind the horizon.
      const next = batch.n < POSTGRES_QUEUE_BATCH ? { xid: horizon, id: 0 } : { xid: batch.lastXid!, id: batch.lastId! };
      await client.query(SQL.setMark, [judgeVersion, next.xid, next.id]);
    });
  }

  private async horizon(): Promise<string> {
    return (await this.pool.query<{ horizon: string }>(SQL.horizon)).rows[0]!.horizon;
  }

  private async markOf(judgeVersion: string): Promise<Mark> {
    return (await this.pool.query<Mark>(SQL.mark, [judgeVersion])).rows[0] ?? { markXid: '0', markId: 0 };
  }

  async hasUnqueuedCaptures(judgeVersion: string): Promise<boolean> {
    const mark = await this.markOf(judgeVersion);
    return (await this.pool.query<{ present: boolean }>(SQL.anyPastMark, [mark.markXid, mark.markId])).rows[0]!.present;
  }

  async pendingCount(judgeVersion: string): Promise<number> {
    const mark = await this.markOf(judgeVersion);
    return (await this.pool.query<{ n: number }>(SQL.pending, [judgeVersion, mark.markXid, mark.markId])).rows[0]!.n;
  }

  async attemptsOf(traceId: string, judgeVersion: string): Promise<number> {
    return (await this.pool.query<{ attempts: number }>(SQL.attempts, [judgeVersion, traceId])).rows[0]?.attempts ?? 0;
  }

  /** Store a judgment and drop the job, atomically; false when one already exists for this capture and judge version. */
  async save(judgment: StoredJudgment): Promise<boolean> {
    return inTransaction(this.pool, async (client) => {
      const capture = (await client.query<{ id: number; capturedMs: number; aborted: boolean }>(SQL.captureOf, [judgment.traceId])).rows[0];
      if (capture === undefined) throw new Error(`saveJudgment: no capture ${judgment.traceId}`);
      const flags = judgment.flags;
      const flagsKey = flagsKeyOf(judgment.status, flags);
      const inserted = await client.query(SQL.insertJudgment, [
        capture.id,
        judgment.judgeVersion,
        judgment.status,
        flags ? flags.faithful : null,
        flags ? flags.hallucinated : null,
        flags ? flags.refused : null,
        judgment.judgedAt,
        judgmentRecord(judgment),
        capture.capturedMs,
        capture.aborted,
        flagsKey,
      ]);
      const stored = inserted.rows.length > 0;
      if (stored && flagsKey !== null) await client.query(SQL.insertFlagsKey, [judgment.judgeVersion, flagsKey]);
      await client.query(SQL.deleteJob, [capture.id, judgment.judgeVersion]);
      return stored;
    });
  }

  async recordFailure(traceId: string, judgeVersion: string, error: string, nextAttemptMs: number): Promise<number> {
    return (await this.pool.query<{ attempts: number }>(SQL.recordFailure, [judgeVersion, traceId, nextAttemptMs, error])).rows[0]?.attempts ?? 0;
  }

  async judgmentCount(judgeVersion: string): Promise<number> {
    return (await this.pool.query<{ n: number }>(SQL.countJudgments, [judgeVersion])).rows[0]!.n;
  }

  async releaseLease(traceId: string, judgeVersion: string, owner: string): Promise<void> {
    await this.pool.query(SQL.releaseLease, [traceId, judgeVersion, owner]);
  }

  async releaseLeasesOf(owner: string): Promise<number> {
    return (await this.pool.query(SQL.releaseOwner, [owner])).rowCount ?? 0;
  }

  /** Owners holding unexpired leases. */
  async leaseOwners(now: number): Promise<string[]> {
    return (await this.pool.query<{ owner: string }>(SQL.leaseOwners, [now])).rows.map((row) => row.owner);
  }
}
