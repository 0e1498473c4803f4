import type pg from 'pg';
import type { CaptureRecord } from '../capture-store.js';
import { capturesFromRows, evidenceDigest, storedChunks } from '../capture-row.js';
import type { Capture, CapturedChunk, StoredJudgment } from '../types.js';
import { inTransaction } from './connection.js';
import { CAPTURE_COLUMNS, type PostgresCaptureRow } from './rows.js';

/**
 * The capture log of the Postgres store: writing captures with their content-addressed evidence
 * (the same digest as the SQLite store), and reading captures back by id list in a fixed number
 * of statements. A batch is three statements whatever its size (captures, evidence, chunk rows),
 * one array parameter per column.
 */
export class PostgresCaptureLog {
  constructor(private readonly pool: pg.Pool) {}

  /** Persist captures in one transaction; a trace id already stored is skipped. */
  async write(captures: readonly Capture[]): Promise<void> {
    if (captures.length === 0) return;
    // Everything is computed before the transaction: a capture that cannot be read fails the batch before any SQL.
    const columns = captureColumns(captures);
    // A capture's chunk rows: the model's chunks, then a gate refusal's withheld chunks (marked).
    const chunksOf = new Map<string, { digests: Buffer[]; chunks: CapturedChunk[]; withheldFrom: number }>();
    const evidence = new Map<string, { digest: Buffer; chunk: CapturedChunk }>();
    for (const capture of captures) {
      const chunks = storedChunks(capture);
      const digests = chunks.map((chunk) => {
        const digest = evidenceDigest(chunk);
        evidence.set(digest.toString('hex'), { digest, chunk });
        return digest;
      });
      if (!chunksOf.has(capture.traceId)) chunksOf.set(capture.traceId, { digests, chunks, withheldFrom: capture.chunks.length });
    }
    // In digest order: two writers inserting the same new chunks lock them in the same order (no deadlock).
    const newEvidence = [...evidence.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, entry]) => entry);
    await inTransaction(this.pool, async (client) => {
      const inserted = await client.query<{ id: number; trace_id: string }>(INSERT_CAPTURES, columns);
      if (inserted.rows.length === 0) return;
      if (newEvidence.length > 0) {
        await client.query(INSERT_EVIDENCE, [
          newEvidence.map((entry) => entry.digest),
          ...(['chunkId', 'document', 'title', 'section', 'updated', 'hash', 'text'] as const).map((field) => newEvidence.map((entry) => entry.chunk[field])),
        ]);
      }
      const rows: [number, number, Buffer, number, number, number, boolean][] = [];
      for (const { id, trace_id: traceId } of inserted.rows) {
        const { digests, chunks, withheldFrom } = chunksOf.get(traceId)!;
        chunks.forEach((chunk, position) => rows.push([id, position, digests[position]!, chunk.score, chunk.fusedScore, chunk.rank, position >= withheldFrom]));
      }
      if (rows.length > 0) await client.query(INSERT_CHUNKS, [0, 1, 2, 3, 4, 5, 6].map((column) => rows.map((row) => row[column])));
    });
  }

  /** One capture by trace id, with every judgment stored for it (oldest first). */
  async get(traceId: string): Promise<CaptureRecord | undefined> {
    const { rows } = await this.pool.query<PostgresCaptureRow>(`SELECT ${CAPTURE_COLUMNS} FROM captures c WHERE c.trace_id = $1`, [traceId]);
    const row = rows[0];
    if (row === undefined) return undefined;
    const [capture] = await this.withChunks([row]);
    const judgments = await this.pool.query<{ record: Omit<StoredJudgment, 'traceId'> }>(`SELECT record FROM judgments WHERE capture_id = $1 ORDER BY id`, [row.id]);
    return { capture: capture!, judgments: judgments.rows.map((judgment) => ({ traceId, ...judgment.record })) };
  }

  /** Captures by id, in the order given (unknown ids skipped): two statements for any number. */
  async byIds(ids: readonly number[]): Promise<Capture[]> {
    if (ids.length === 0) return [];
    const { rows } = await this.pool.query<PostgresCaptureRow>(`SELECT ${CAPTURE_COLUMNS} FROM captures c WHERE c.id = ANY($1::bigint[])`, [ids]);
    const byId = new Map(rows.map((row) => [row.id, row]));
    return this.withChunks(ids.map((id) => byId.get(id)).filter((row): row is PostgresCaptureRow => row !== undefined));
  }

  /** The captures of these rows, their chunks read in one statement. */
  async withChunks(rows: readonly PostgresCaptureRow[]): Promise<Capture[]> {
    if (rows.length === 0) return [];
    const chunks = await this.pool.query<CapturedChunk & { captureId: number; withheld: boolean }>(
      `SELECT k.capture_id AS "captureId", k.withheld, e.chunk_id AS "chunkId", e.document, e.title, e.section, e.updated, e.hash, e.text,
              k.score, k.fused_score AS "fusedScore", k.rank
       FROM capture_chunks k JOIN evidence e ON e.digest = k.evidence
       WHERE k.capture_id = ANY($1::bigint[]) ORDER BY k.capture_id, k.position`,
      [rows.map((row) => row.id)],
    );
    return capturesFromRows(rows, chunks.rows);
  }

  async count(): Promise<number> {
    return (await this.pool.query<{ n: number }>(`SELECT count(*) AS n FROM captures`)).rows[0]!.n;
  }
}

const CAPTURE_FIELDS: [string, string, (capture: Capture) => unknown][] = [
  ['trace_id', 'text', (capture) => capture.traceId],
  ['request_id', 'text', (capture) => capture.requestId],
  ['captured_at', 'text', (capture) => capture.capturedAt],
  ['captured_ms', 'bigint', (capture) => Date.parse(capture.capturedAt) || Date.now()],
  ['route', 'text', (capture) => capture.route],
  ['method', 'text', (capture) => capture.method],
  ['status', 'integer', (capture) => capture.status],
  ['latency_ms', 'double precision', (capture) => capture.latencyMs],
  ['query', 'text', (capture) => capture.query],
  ['mode', 'text', (capture) => capture.mode],
  ['answer', 'text', (capture) => capture.answer],
  ['refused', 'boolean', (capture) => capture.refused],
  ['refusal_reason', 'text', (capture) => capture.refusalReason],
  ['prompt_version', 'text', (capture) => capture.promptVersion],
  ['chat_model', 'text', (capture) => capture.models.chat],
  ['embedding_model', 'text', (capture) => capture.models.embedding],
  ['input_tokens', 'integer', (capture) => capture.usage.inputTokens],
  ['output_tokens', 'integer', (capture) => capture.usage.outputTokens],
  ['total_tokens', 'integer', (capture) => capture.usage.totalTokens],
  ['cost_usd', 'double precision', (capture) => capture.costUsd],
  ['retrieval_ms', 'double precision', (capture) => capture.timings.retrievalMs],
  ['generation_ms', 'double precision', (capture) => capture.timings.generationMs],
  ['total_ms', 'double precision', (capture) => capture.timings.totalMs],
  ['truncated', 'boolean', (capture) => capture.truncated],
  ['aborted', 'boolean', (capture) => capture.aborted],
  ['first_token_ms', 'double precision', (capture) => capture.firstTokenMs],
];

/** One array per column, in batch order (ids follow it: "then by when stored"). */
function captureColumns(captures: readonly Capture[]): unknown[][] {
  return CAPTURE_FIELDS.map(([, , read]) => captures.map((capture) => read(capture) ?? null));
}

const INSERT_CAPTURES = `
  INSERT INTO captures (${CAPTURE_FIELDS.map(([name]) => name).join(', ')})
  SELECT ${CAPTURE_FIELDS.map(([name]) => `u.${name}`).join(', ')}
  FROM unnest(${CAPTURE_FIELDS.map(([, type], index) => `$${index + 1}::${type}[]`).join(', ')}) WITH ORDINALITY
    AS u(${CAPTURE_FIELDS.map(([name]) => name).join(', ')}, position)
  ORDER BY u.position
  ON CONFLICT (trace_id) DO NOTHING
  RETURNING id, trace_id`;

const INSERT_EVIDENCE = `
  INSERT INTO evidence (digest, chunk_id, document, title, section, updated, hash, text)
  SELECT * FROM unnest($1::bytea[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[])
  ON CONFLICT (digest) DO NOTHING`;

const INSERT_CHUNKS = `
  INSERT INTO capture_chunks (capture_id, position, evidence, score, fused_score, rank, withheld)
  SELECT * FROM unnest($1::bigint[], $2::integer[], $3::bytea[], $4::double precision[], $5::double precision[], $6::integer[], $7::boolean[])`;
