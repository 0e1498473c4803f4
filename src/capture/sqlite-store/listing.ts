import type Database from 'better-sqlite3';
import type { ListCapturesOptions, ListedCapture } from '../capture-store.js';
import type { StoredJudgment } from '../types.js';
import type { SqliteCaptureLog } from './capture-log.js';
import { idList, judgmentFromRecord, type CaptureRow, type JudgmentRow } from './rows.js';

/** Most captures one page may hold. */
export const MAX_PAGE = 500;

/**
 * Pages of captures with their newest judgment. Three statements per page whatever its size: the
 * captures, then their chunks and their judgments by id list (before schema 3 it was two
 * statements per listed capture: 1,001 for the dashboard's page of 500).
 */
export class SqliteCaptureListing {
  private readonly statements;

  constructor(
    db: Database.Database,
    private readonly log: SqliteCaptureLog,
  ) {
    this.statements = {
      newest: db.prepare(`SELECT * FROM captures ORDER BY id DESC LIMIT ?`),
      before: db.prepare(`SELECT * FROM captures WHERE id < ? ORDER BY id DESC LIMIT ?`),
      judgments: db.prepare(`
        SELECT capture_id, record FROM judgments
        WHERE capture_id IN (SELECT value FROM json_each(@ids)) AND (@judgeVersion IS NULL OR judge_version = @judgeVersion)
        ORDER BY id`),
    };
  }

  list(options: ListCapturesOptions = {}): ListedCapture[] {
    const limit = Math.max(1, Math.min(MAX_PAGE, Math.floor(options.limit ?? 50)));
    const rows = (options.beforeId !== undefined ? this.statements.before.all(options.beforeId, limit) : this.statements.newest.all(limit)) as CaptureRow[];
    if (rows.length === 0) return [];
    const newest = new Map<number, JudgmentRow>();
    // Oldest first, so the last one seen per capture is its newest.
    for (const judgment of this.statements.judgments.all({ ids: idList(rows.map((row) => row.id)), judgeVersion: options.judgeVersion ?? null }) as JudgmentRow[]) {
      newest.set(judgment.capture_id, judgment);
    }
    const captures = this.log.withChunks(rows);
    return rows.map((row, position) => {
      const judgment = newest.get(row.id);
      const stored: StoredJudgment | null = judgment ? judgmentFromRecord(judgment.record, row.trace_id) : null;
      return { id: row.id, capture: captures[position]!, judgment: stored };
    });
  }
}
