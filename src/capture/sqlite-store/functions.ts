import type Database from 'better-sqlite3';
import type { JudgmentFlags } from '../../contract/judgment.js';
import { registerChunkRef, registerEvidenceDigest } from './capture-log.js';
import { flagsKeyOf } from '../capture-row.js';

/**
 * The SQL functions the capture store registers on its connection, for migrations that compute
 * in SQL what the store computes in code when it writes (the same functions, so old rows and new
 * rows agree).
 */
export function registerCaptureFunctions(db: Database.Database): void {
  registerEvidenceDigest(db);
  registerChunkRef(db);
  db.function('gc_flags_key', { deterministic: true }, (status, record) => flagsKeyOf(String(status), flagsOfRecord(record)));
}

function flagsOfRecord(record: unknown): JudgmentFlags | null {
  if (typeof record !== 'string') return null;
  const parsed = JSON.parse(record) as { flags?: JudgmentFlags | null };
  return parsed.flags ?? null;
}
