import { createHash } from 'node:crypto';
import { renderFlagsKey } from '../contract/flags-key.js';
import type { JudgmentFlags } from '../contract/judgment.js';
import type { Capture, CapturedChunk, StoredJudgment } from './types.js';

/**
 * What both capture stores store the same way: a `captures` row and its mapping to a
 * {@link Capture} (the stores differ only in how a flag comes back: SQLite 0 or 1, Postgres a
 * boolean), the key of an `evidence` row, a judgment's `record` and its `flags_key`.
 */
export interface CaptureRowOf<Flag extends number | boolean> {
  id: number;
  trace_id: string;
  request_id: string;
  captured_at: string;
  captured_ms: number;
  route: string;
  method: string;
  status: number;
  latency_ms: number;
  query: string;
  mode: string;
  answer: string;
  refused: Flag;
  refusal_reason: string | null;
  prompt_version: string;
  chat_model: string;
  embedding_model: string | null;
  input_tokens: number | null;
  output_tokens: number | null;
  total_tokens: number | null;
  cost_usd: number | null;
  retrieval_ms: number;
  generation_ms: number;
  total_ms: number;
  truncated: Flag;
  aborted: Flag;
  first_token_ms: number | null;
}

const flag = (value: number | boolean): boolean => value === true || value === 1;

/** A capture from its row and its chunk rows (`withheldChunks`: a gate refusal's withheld chunks, if any). */
export function captureFromRow(row: CaptureRowOf<number | boolean>, chunks: CapturedChunk[], withheldChunks: CapturedChunk[] = []): Capture {
  return {
    traceId: row.trace_id,
    requestId: row.request_id,
    capturedAt: row.captured_at,
    route: row.route,
    method: row.method,
    status: row.status,
    latencyMs: row.latency_ms,
    aborted: flag(row.aborted),
    firstTokenMs: row.first_token_ms,
    query: row.query,
    mode: row.mode === 'norag' ? 'norag' : 'rag',
    chunks,
    ...(withheldChunks.length > 0 ? { withheldChunks } : {}),
    answer: row.answer,
    refused: flag(row.refused),
    refusalReason: row.refusal_reason === 'gate' || row.refusal_reason === 'model' ? row.refusal_reason : null,
    promptVersion: row.prompt_version,
    models: { chat: row.chat_model, embedding: row.embedding_model },
    usage: { inputTokens: row.input_tokens, outputTokens: row.output_tokens, totalTokens: row.total_tokens },
    costUsd: row.cost_usd,
    timings: { retrievalMs: row.retrieval_ms, generationMs: row.generation_ms, totalMs: row.total_ms },
    truncated: flag(row.truncated),
  };
}

/** Every chunk a capture stores, as its chunk rows hold them: the model's chunks, then a gate refusal's withheld ones. */
export function storedChunks(capture: Pick<Capture, 'chunks' | 'withheldChunks'>): CapturedChunk[] {
  return capture.withheldChunks === undefined ? capture.chunks : [...capture.chunks, ...capture.withheldChunks];
}

/**
 * The captures of these rows, from their chunk rows (each a chunk with its capture's id and whether
 * the gate withheld it, in capture and position order): one list of the model's chunks and one of
 * the withheld ones per capture. Both stores read chunks this way; only the flag's type differs.
 */
export function capturesFromRows<Row extends CaptureRowOf<number | boolean>>(rows: readonly Row[], chunkRows: Iterable<CapturedChunk & { captureId: number; withheld: number | boolean }>): Capture[] {
  const chunksById = new Map<number, { chunks: CapturedChunk[]; withheld: CapturedChunk[] }>(rows.map((row) => [row.id, { chunks: [], withheld: [] }]));
  for (const { captureId, withheld, ...chunk } of chunkRows) {
    const lists = chunksById.get(captureId)!;
    (flag(withheld) ? lists.withheld : lists.chunks).push(chunk);
  }
  return rows.map((row) => {
    const lists = chunksById.get(row.id)!;
    return captureFromRow(row, lists.chunks, lists.withheld);
  });
}

export type EvidenceFields = Pick<CapturedChunk, 'chunkId' | 'document' | 'title' | 'section' | 'updated' | 'hash' | 'text'>;

/** A chunk's evidence fields alone, field by field (no spread: nothing else of the source is kept). */
export function evidenceFieldsOf(chunk: EvidenceFields): EvidenceFields {
  return { chunkId: chunk.chunkId, document: chunk.document, title: chunk.title, section: chunk.section, updated: chunk.updated, hash: chunk.hash, text: chunk.text };
}

/**
 * A captured chunk from its evidence fields and its scores, field by field (no spread: extra
 * properties of the source stay behind, and every chunk object has one shape).
 */
export function capturedChunk(fields: EvidenceFields, score: CapturedChunk['score'], fusedScore: CapturedChunk['fusedScore'], rank: CapturedChunk['rank']): CapturedChunk {
  return { chunkId: fields.chunkId, document: fields.document, title: fields.title, section: fields.section, updated: fields.updated, hash: fields.hash, text: fields.text, score, fusedScore, rank };
}

/**
 * Whether two chunks agree on every field of their evidence key (the text first: it is the one
 * most likely to differ, and when both come from one cache the comparison is a pointer check).
 */
export function sameEvidenceFields(a: EvidenceFields, b: EvidenceFields): boolean {
  return a.text === b.text && a.chunkId === b.chunkId && a.hash === b.hash && a.document === b.document && a.title === b.title && a.section === b.section && a.updated === b.updated;
}

/**
 * The key of an `evidence` row: SHA-256 of the JSON array of what is stored for the chunk (also
 * registered as `gc_evidence_digest` for migrations). The id, index hash and metadata are part of
 * the key because the index hash is of the text before redaction: two chunks can share a stored
 * text and still differ.
 */
export function evidenceDigest(chunk: EvidenceFields): Buffer {
  return createHash('sha256').update(JSON.stringify([chunk.chunkId, chunk.document, chunk.title, chunk.section, chunk.updated, chunk.hash, chunk.text]), 'utf8').digest();
}

/** The `record` column: the judgment without its trace id (the row's capture says which), as JSON. */
export function judgmentRecord(judgment: StoredJudgment): string {
  const { traceId: _traceId, ...record } = judgment;
  return JSON.stringify(record);
}

/**
 * The `flags_key` column of a judgment: its flags key when it has flags and is ok, else NULL. The
 * dashboard's verdict reads a judgment the same way (`verdictOf`: flags of an ok judgment, else a
 * judge error).
 */
export function flagsKeyOf(status: string, flags: JudgmentFlags | null): string | null {
  return status === 'ok' ? renderFlagsKey(flags) : null;
}
