import type Database from 'better-sqlite3';
import type { EvidenceReference } from '../capture-store.js';

/** What drift checks read from the SQLite store: every (judgment, evidence chunk) pair. */
export class SqliteDriftQueries {
  private readonly judgedEvidence: Database.Statement;

  constructor(db: Database.Database) {
    this.judgedEvidence = db.prepare(`
      SELECT c.trace_id AS traceId, c.captured_at AS capturedAt, e.chunk_id AS chunkId, e.hash, j.judge_version AS judgeVersion,
             j.status, j.faithful, j.hallucinated
      FROM judgments j JOIN captures c ON c.id = j.capture_id JOIN json_each(c.chunk_refs) k JOIN evidence e ON e.id = k.value ->> 0
      ORDER BY c.id, j.id, k.key`);
  }

  evidence(): EvidenceReference[] {
    return (this.judgedEvidence.all() as (Omit<EvidenceReference, 'faithful' | 'hallucinated'> & { faithful: number | null; hallucinated: number | null })[]).map((row) => ({
      ...row,
      faithful: row.faithful === null ? null : row.faithful === 1,
      hallucinated: row.hallucinated === null ? null : row.hallucinated === 1,
    }));
  }
}
