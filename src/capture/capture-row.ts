import type { Capture, CapturedChunk } from './types.js';

/**
 * A `captures` row as both stores read it, and its mapping to a {@link Capture}: one shape for the
 * SQLite and the Postgres store, which differ only in how a flag comes back (SQLite: 0 or 1;
 * Postgres: a boolean).
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

export function captureFromRow(row: CaptureRowOf<number | boolean>, chunks: CapturedChunk[]): Capture {
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
