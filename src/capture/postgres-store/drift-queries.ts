import type pg from 'pg';
import type { EvidenceReference } from '../capture-store.js';

/** What drift checks read from the Postgres store: every (judgment, evidence chunk) pair, oldest capture first. */
export class PostgresDriftQueries {
  constructor(private readonly pool: pg.Pool) {}

  async evidence(): Promise<EvidenceReference[]> {
    const { rows } = await this.pool.query<EvidenceReference>(`
      SELECT c.trace_id AS "traceId", c.captured_at AS "capturedAt", e.chunk_id AS "chunkId", e.hash, j.judge_version AS "judgeVersion",
             j.status, j.faithful, j.hallucinated
      FROM judgments j JOIN captures c ON c.id = j.capture_id JOIN capture_chunks k ON k.capture_id = c.id JOIN evidence e ON e.digest = k.evidence
      ORDER BY c.id, j.id, k.position`);
    return rows;
  }
}
