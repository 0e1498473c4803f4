import type pg from 'pg';
import { outcomeOfFlagsKey } from '../../contract/flags-key.js';
import { InvalidInputError } from '../../errors.js';
import type { CaptureFilter, ListCapturesOptions, ListedCapture } from '../capture-store.js';
import type { StoredJudgment } from '../types.js';
import type { PostgresCaptureLog } from './capture-log.js';
import { CAPTURE_COLUMNS, Params, type PostgresCaptureRow } from './rows.js';

/** Most captures one page may hold (as the SQLite store). */
export const MAX_PAGE = 500;

/** The stand-in for a judge error's flags key (NULL in the column) in the outcome filter's key list: no real key is empty. */
const JUDGE_ERROR_KEY = '';

/**
 * Pages of captures with their judgment, newest first, filtered in SQL with the same semantics
 * as the SQLite store (`../sqlite-store/listing.ts`): the captures, then their chunks and their
 * judgments by id list, plus one statement for an outcome filter (the judge version's distinct
 * flags keys, classified now by the outcome table) and one for a drift filter (the distinct
 * chunks stored).
 */
export class PostgresCaptureListing {
  constructor(
    private readonly pool: pg.Pool,
    private readonly log: PostgresCaptureLog,
  ) {}

  async list(options: ListCapturesOptions = {}): Promise<ListedCapture[]> {
    const limit = Math.max(1, Math.min(MAX_PAGE, Math.floor(options.limit ?? 50)));
    const judgeVersion = options.judgeVersion ?? null;
    const cursor = options.cursor === undefined ? undefined : parseCursor(options.cursor);
    const params = new Params();
    const conditions = await this.conditions(options.filter ?? {}, judgeVersion, params);
    if (conditions === null) return [];
    if (cursor !== undefined) {
      const ms = params.add(cursor.capturedMs);
      conditions.push(`(c.captured_ms < ${ms} OR (c.captured_ms = ${ms} AND c.id < ${params.add(cursor.id)}))`);
    }
    const where = conditions.length === 0 ? '' : `WHERE ${conditions.join(' AND ')}`;
    const { rows } = await this.pool.query<PostgresCaptureRow>(`SELECT ${CAPTURE_COLUMNS} FROM captures c ${where} ORDER BY c.captured_ms DESC, c.id DESC LIMIT ${params.add(limit)}`, params.values);
    if (rows.length === 0) return [];
    const judgments = await this.pool.query<{ captureId: number; record: Omit<StoredJudgment, 'traceId'> }>(
      `SELECT capture_id AS "captureId", record FROM judgments WHERE capture_id = ANY($1::bigint[]) AND ($2::text IS NULL OR judge_version = $2) ORDER BY id`,
      [rows.map((row) => row.id), judgeVersion],
    );
    // Oldest first, so the last one seen per capture is its newest.
    const newest = new Map(judgments.rows.map((row) => [row.captureId, row.record]));
    const captures = await this.log.withChunks(rows);
    return rows.map((row, position) => {
      const record = newest.get(row.id);
      return { cursor: `${row.captured_ms}.${row.id}`, capture: captures[position]!, judgment: record ? { traceId: row.trace_id, ...record } : null };
    });
  }

  /** The WHERE conditions of a filter, or `null` when no capture can hold it (nothing to read). */
  private async conditions(filter: CaptureFilter, judgeVersion: string | null, params: Params): Promise<string[] | null> {
    const conditions: string[] = [];
    if (filter.from !== undefined) conditions.push(`c.captured_ms >= ${params.add(filter.from)}`);
    if (filter.to !== undefined) conditions.push(`c.captured_ms < ${params.add(filter.to)}`);
    for (const flag of ['aborted', 'truncated', 'refused'] as const) {
      if (filter[flag] !== undefined) conditions.push(`c.${flag} = ${params.add(filter[flag])}`);
    }
    if (filter.route !== undefined) conditions.push(`c.route = ${params.add(filter.route)}`);
    // ILIKE ignores case (every letter the database's collation knows, ASCII at least); % and _ are escaped to plain characters.
    if (filter.text !== undefined && filter.text !== '') conditions.push(`c.query ILIKE ${params.add(`%${filter.text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`)} ESCAPE '\\'`);
    let versionParameter: string | undefined;
    const ofVersion = () => (judgeVersion === null ? '' : ` AND j.judge_version = ${(versionParameter ??= params.add(judgeVersion))}`);
    if (filter.judged !== undefined) conditions.push(`${filter.judged ? '' : 'NOT '}EXISTS (SELECT 1 FROM judgments j WHERE j.capture_id = c.id${ofVersion()})`);
    if (filter.outcome !== undefined) {
      const stored =
        judgeVersion === null
          ? await this.pool.query<{ key: string }>(`SELECT DISTINCT flags_key AS key FROM judgment_flag_keys`)
          : await this.pool.query<{ key: string }>(`SELECT flags_key AS key FROM judgment_flag_keys WHERE judge_version = $1`, [judgeVersion]);
      // The outcome table decides now which stored keys are this outcome.
      const keys = [...stored.rows.map((row) => row.key), JUDGE_ERROR_KEY].filter((key) => outcomeOfFlagsKey(key === JUDGE_ERROR_KEY ? null : key) === filter.outcome);
      if (keys.length === 0) return null;
      // Of a judge version: its judgment; else the newest judgment of any version, as the list shows it.
      conditions.push(
        `NOT c.aborted AND (SELECT coalesce(j.flags_key, '${JUDGE_ERROR_KEY}') FROM judgments j WHERE j.capture_id = c.id${ofVersion()} ORDER BY j.id DESC LIMIT 1) = ANY(${params.add(keys)}::text[])`,
      );
    }
    if (filter.driftedFrom !== undefined) {
      const current = filter.driftedFrom;
      const evidence = await this.pool.query<{ digest: string; chunkId: string; hash: string }>(`SELECT encode(digest, 'hex') AS digest, chunk_id AS "chunkId", hash FROM evidence`);
      const drifted = evidence.rows.filter((row) => current.get(row.chunkId) !== row.hash).map((row) => row.digest);
      if (drifted.length === 0) return null;
      conditions.push(`EXISTS (SELECT 1 FROM capture_chunks k WHERE k.capture_id = c.id AND k.evidence IN (SELECT decode(d, 'hex') FROM unnest(${params.add(drifted)}::text[]) d))`);
    }
    return conditions;
  }
}

/** A cursor this store gave (`<capture time ms>.<id>`). */
function parseCursor(cursor: string): { capturedMs: number; id: number } {
  const match = typeof cursor === 'string' ? /^(-?\d{1,16})\.(\d{1,16})$/.exec(cursor) : null;
  if (!match) throw new InvalidInputError(`not a cursor of this capture store: ${String(cursor).slice(0, 40)}`, { code: 'invalid_cursor' });
  return { capturedMs: Number(match[1]), id: Number(match[2]) };
}
