import type Database from 'better-sqlite3';
import { outcomeOfFlagsKey } from '../../contract/flags-key.js';
import { InvalidInputError } from '../../errors.js';
import type { CaptureFilter, ListCapturesOptions, ListedCapture } from '../capture-store.js';
import type { StoredJudgment } from '../types.js';
import type { SqliteCaptureLog } from './capture-log.js';
import { idList, judgmentFromRecord, type CaptureRow, type JudgmentRow } from './rows.js';

/** Most captures one page may hold. */
export const MAX_PAGE = 500;

/** The stand-in for a judge error's flags key (NULL in the column) in the outcome filter's key list: no real key is empty. */
const JUDGE_ERROR_KEY = '';

/** Up to this many drifted evidence keys, a drift filter looks for each in a capture's references as text (`driftedFew`). */
const FEW_DRIFTED_KEYS = 8;

/**
 * The conditions of a list's WHERE clause, one per filter field (plus the cursor). Each is fixed
 * SQL with bound parameters; a list's statement is the conjunction of the fields it uses,
 * prepared once per combination.
 */
const CONDITIONS = {
  cursor: '(c.captured_ms < @cursorMs OR (c.captured_ms = @cursorMs AND c.id < @cursorId))',
  from: 'c.captured_ms >= @from',
  to: 'c.captured_ms < @to',
  aborted: 'c.aborted = @aborted',
  truncated: 'c.truncated = @truncated',
  refused: 'c.refused = @refused',
  route: 'c.route = @route',
  // LIKE ignores the case of ASCII letters; it was the fastest of LIKE, instr(lower()) and a JS fold (0.1 s a million rows).
  text: `c.query LIKE @text ESCAPE '\\'`,
  judgedOfVersion: 'EXISTS (SELECT 1 FROM judgments j WHERE j.capture_id = c.id AND j.judge_version = @judgeVersion) = @judged',
  judgedOfAny: 'EXISTS (SELECT 1 FROM judgments j WHERE j.capture_id = c.id) = @judged',
  outcomeOfVersion: `c.aborted = 0 AND (SELECT coalesce(j.flags_key, '${JUDGE_ERROR_KEY}') FROM judgments j WHERE j.capture_id = c.id AND j.judge_version = @judgeVersion) IN (SELECT value FROM json_each(@outcomeKeys))`,
  // The newest judgment of any version, as the list shows it.
  outcomeOfAny: `c.aborted = 0 AND (SELECT coalesce(j.flags_key, '${JUDGE_ERROR_KEY}') FROM judgments j WHERE j.capture_id = c.id ORDER BY j.id DESC LIMIT 1) IN (SELECT value FROM json_each(@outcomeKeys))`,
  // Evidence ids as `chunk_refs` holds them. A few ids: each looked for in the row's text as a
  // reference opens, `[id,` (a number after a bracket there is only ever an evidence id); 0.2 s for
  // 200,000 captures of 8 chunks (0.33 s with schema 8's hex keys, where parsing each row's
  // references took 1.1 s). More ids: the parse, whose cost does not grow with their number.
  driftedFew: `EXISTS (SELECT 1 FROM json_each(@driftedEvidence) d WHERE instr(c.chunk_refs, '[' || d.value || ',') > 0)`,
  drifted: 'EXISTS (SELECT 1 FROM json_each(c.chunk_refs) k WHERE k.value ->> 0 IN (SELECT value FROM json_each(@driftedEvidence)))',
} as const;

type Condition = keyof typeof CONDITIONS;

/** The SQL of a list using these conditions (exported for the query-plan test). */
export function listingSql(conditions: readonly Condition[]): string {
  const where = conditions.length === 0 ? '' : `WHERE ${conditions.map((name) => CONDITIONS[name]).join(' AND ')}`;
  return `SELECT c.* FROM captures c ${where} ORDER BY c.captured_ms DESC, c.id DESC LIMIT @limit`;
}

/**
 * Pages of captures with their judgment, newest first, filtered in SQL. The captures, then their
 * chunks and their judgments by id list: three statements a page whatever its size (before schema
 * 3 it was two statements per listed capture: 1,001 for the dashboard's page of 500), plus one for
 * an outcome filter (the judge version's distinct flags keys) and one for a drift filter (the
 * distinct chunks stored).
 */
export class SqliteCaptureListing {
  private readonly statements;
  private readonly lists = new Map<string, Database.Statement>();

  constructor(
    private readonly db: Database.Database,
    private readonly log: SqliteCaptureLog,
  ) {
    this.statements = {
      judgments: db.prepare(`
        SELECT capture_id, record FROM judgments
        WHERE capture_id IN (SELECT value FROM json_each(@ids)) AND (@judgeVersion IS NULL OR judge_version = @judgeVersion)
        ORDER BY id`),
      flagsKeysOf: db.prepare(`SELECT flags_key FROM judgment_flag_keys WHERE judge_version = ?`).pluck(),
      flagsKeysOfAny: db.prepare(`SELECT DISTINCT flags_key FROM judgment_flag_keys`).pluck(),
      evidence: db.prepare(`SELECT id, chunk_id AS chunkId, hash FROM evidence`),
    };
  }

  list(options: ListCapturesOptions = {}): ListedCapture[] {
    const limit = Math.max(1, Math.min(MAX_PAGE, Math.floor(options.limit ?? 50)));
    const judgeVersion = options.judgeVersion ?? null;
    const query = this.query(options.filter ?? {}, judgeVersion);
    if (query === null) return [];
    if (options.cursor !== undefined) {
      const { capturedMs, id } = parseCursor(options.cursor);
      query.conditions.push('cursor');
      Object.assign(query.parameters, { cursorMs: capturedMs, cursorId: id });
    }
    const rows = this.statement(query.conditions).all({ ...query.parameters, limit }) as CaptureRow[];
    if (rows.length === 0) return [];
    const newest = new Map<number, JudgmentRow>();
    // Oldest first, so the last one seen per capture is its newest.
    for (const judgment of this.statements.judgments.all({ ids: idList(rows.map((row) => row.id)), judgeVersion }) as JudgmentRow[]) {
      newest.set(judgment.capture_id, judgment);
    }
    const captures = this.log.withChunks(rows);
    return rows.map((row, position) => {
      const judgment = newest.get(row.id);
      const stored: StoredJudgment | null = judgment ? judgmentFromRecord(judgment.record, row.trace_id) : null;
      return { cursor: `${row.captured_ms}.${row.id}`, capture: captures[position]!, judgment: stored };
    });
  }

  /** The conditions and parameters of a filter, or `null` when no capture can hold it (nothing to read). */
  private query(filter: CaptureFilter, judgeVersion: string | null): { conditions: Condition[]; parameters: Record<string, unknown> } | null {
    const conditions: Condition[] = [];
    const parameters: Record<string, unknown> = {};
    const add = (name: Condition, values: Record<string, unknown>) => {
      conditions.push(name);
      Object.assign(parameters, values);
    };
    if (filter.from !== undefined) add('from', { from: filter.from });
    if (filter.to !== undefined) add('to', { to: filter.to });
    for (const flag of ['aborted', 'truncated', 'refused'] as const) {
      if (filter[flag] !== undefined) add(flag, { [flag]: filter[flag] ? 1 : 0 });
    }
    if (filter.route !== undefined) add('route', { route: filter.route });
    if (filter.text !== undefined && filter.text !== '') add('text', { text: `%${filter.text.replace(/[\\%_]/g, (char) => `\\${char}`)}%` });
    if (filter.judged !== undefined) add(judgeVersion === null ? 'judgedOfAny' : 'judgedOfVersion', { judged: filter.judged ? 1 : 0, ...(judgeVersion === null ? {} : { judgeVersion }) });
    if (filter.outcome !== undefined) {
      const stored = (judgeVersion === null ? this.statements.flagsKeysOfAny.all() : this.statements.flagsKeysOf.all(judgeVersion)) as string[];
      // The outcome table decides now which stored keys are this outcome.
      const keys = [...stored, JUDGE_ERROR_KEY].filter((key) => outcomeOfFlagsKey(key === JUDGE_ERROR_KEY ? null : key) === filter.outcome);
      if (keys.length === 0) return null;
      add(judgeVersion === null ? 'outcomeOfAny' : 'outcomeOfVersion', { outcomeKeys: JSON.stringify(keys), ...(judgeVersion === null ? {} : { judgeVersion }) });
    }
    if (filter.driftedFrom !== undefined) {
      const current = filter.driftedFrom;
      const drifted = (this.statements.evidence.all() as { id: number; chunkId: string; hash: string }[]).filter((row) => current.get(row.chunkId) !== row.hash).map((row) => row.id);
      if (drifted.length === 0) return null;
      add(drifted.length <= FEW_DRIFTED_KEYS ? 'driftedFew' : 'drifted', { driftedEvidence: JSON.stringify(drifted) });
    }
    return { conditions, parameters };
  }

  private statement(conditions: readonly Condition[]): Database.Statement {
    const key = conditions.join(',');
    let statement = this.lists.get(key);
    if (statement === undefined) {
      statement = this.db.prepare(listingSql(conditions));
      this.lists.set(key, statement);
    }
    return statement;
  }
}

/** A cursor this store gave (`<capture time ms>.<id>`). */
function parseCursor(cursor: string): { capturedMs: number; id: number } {
  const match = typeof cursor === 'string' ? /^(-?\d{1,16})\.(\d{1,16})$/.exec(cursor) : null;
  if (!match) throw new InvalidInputError(`not a cursor of this capture store: ${String(cursor).slice(0, 40)}`, { code: 'invalid_cursor' });
  return { capturedMs: Number(match[1]), id: Number(match[2]) };
}
