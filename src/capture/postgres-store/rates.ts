import type pg from 'pg';
import { OUTCOME_BUCKET_MS, type OutcomeBucket, type OutcomeCountsOptions } from '../capture-store.js';
import { addJudged, checkOutcomeRange, outcomeOfKeyCache, zeroOutcomes } from '../outcome-buckets.js';
import { inTransaction } from './connection.js';

/**
 * Live outcome counts per bucket of capture time, from indexed columns only: the captures' flags
 * (`captures_time` covers them) and, per judgment of the judge version, its flags key and capture
 * time (`judgments_outcomes`); never a judgment's record. Two statements for the whole range,
 * each grouped by bucket in the database, read in one snapshot. The outcome of each distinct key
 * is decided in code by the outcome table as it is now, as in the SQLite store.
 */
export const POSTGRES_RATES_SQL = {
  captures: `
    SELECT floor((c.captured_ms - $1) / $3)::bigint AS bucket, count(*) AS captures,
      count(*) FILTER (WHERE c.aborted) AS aborted, count(*) FILTER (WHERE c.refused) AS refused,
      count(*) FILTER (WHERE c.truncated AND NOT c.aborted
        AND NOT EXISTS (SELECT 1 FROM judgments j WHERE j.capture_id = c.id AND j.judge_version = $4)) AS "unjudgedTruncated"
    FROM captures c WHERE c.captured_ms >= $1 AND c.captured_ms < $2
    GROUP BY 1`,
  judgments: `
    SELECT floor((j.captured_ms - $1) / $3)::bigint AS bucket, j.flags_key AS "flagsKey", count(*) AS count
    FROM judgments j
    WHERE j.judge_version = $4 AND j.captured_ms >= $1 AND j.captured_ms < $2 AND NOT j.capture_aborted
    GROUP BY 1, 2`,
} as const;

export class PostgresRates {
  constructor(private readonly pool: pg.Pool) {}

  async outcomeCounts(options: OutcomeCountsOptions): Promise<OutcomeBucket[]> {
    const { from, to, judgeVersion } = checkOutcomeRange(options);
    const size = options.bucket === undefined ? to - from : OUTCOME_BUCKET_MS[options.bucket];
    const buckets: OutcomeBucket[] = [];
    for (let start = from; start < to; start += size) {
      buckets.push({ start, captures: 0, aborted: 0, refused: 0, unjudged: 0, unjudgedTruncated: 0, outcomes: zeroOutcomes() });
    }
    const parameters = [from, to, size, judgeVersion];
    const [captures, judgments] = await inTransaction(
      this.pool,
      async (client) => [
        (await client.query<{ bucket: number; captures: number; aborted: number; refused: number; unjudgedTruncated: number }>(POSTGRES_RATES_SQL.captures, parameters)).rows,
        (await client.query<{ bucket: number; flagsKey: string | null; count: number }>(POSTGRES_RATES_SQL.judgments, parameters)).rows,
      ] as const,
      'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY',
    );
    for (const row of captures) {
      const bucket = buckets[row.bucket]!;
      Object.assign(bucket, { captures: row.captures, aborted: row.aborted, refused: row.refused, unjudged: row.captures - row.aborted, unjudgedTruncated: row.unjudgedTruncated });
    }
    const outcomeOf = outcomeOfKeyCache();
    for (const row of judgments) addJudged(buckets[row.bucket]!, outcomeOf(row.flagsKey), row.count);
    return buckets;
  }
}
