import type { Capture, CapturedChunk } from '../types.js';

/** Row shapes of the Postgres capture store's tables and their mapping to the public types. */

export interface PostgresCaptureRow {
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
  refused: boolean;
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
  truncated: boolean;
  aborted: boolean;
  first_token_ms: number | null;
}

/** The columns of `captures` a capture is read from (every one but `write_xid`). */
export const CAPTURE_COLUMNS =
  'c.id, c.trace_id, c.request_id, c.captured_at, c.captured_ms, c.route, c.method, c.status, c.latency_ms, c.query, c.mode, c.answer, c.refused, ' +
  'c.refusal_reason, c.prompt_version, c.chat_model, c.embedding_model, c.input_tokens, c.output_tokens, c.total_tokens, c.cost_usd, ' +
  'c.retrieval_ms, c.generation_ms, c.total_ms, c.truncated, c.aborted, c.first_token_ms';

export function captureFromRow(row: PostgresCaptureRow, chunks: CapturedChunk[]): Capture {
  return {
    traceId: row.trace_id,
    requestId: row.request_id,
    capturedAt: row.captured_at,
    route: row.route,
    method: row.method,
    status: row.status,
    latencyMs: row.latency_ms,
    aborted: row.aborted,
    firstTokenMs: row.first_token_ms,
    query: row.query,
    mode: row.mode === 'norag' ? 'norag' : 'rag',
    chunks,
    answer: row.answer,
    refused: row.refused,
    refusalReason: row.refusal_reason === 'gate' || row.refusal_reason === 'model' ? row.refusal_reason : null,
    promptVersion: row.prompt_version,
    models: { chat: row.chat_model, embedding: row.embedding_model },
    usage: { inputTokens: row.input_tokens, outputTokens: row.output_tokens, totalTokens: row.total_tokens },
    costUsd: row.cost_usd,
    timings: { retrievalMs: row.retrieval_ms, generationMs: row.generation_ms, totalMs: row.total_ms },
    truncated: row.truncated,
  };
}

/**
 * Positional parameters for SQL built from parts: `add(value)` gives its `$n`.
 *
 * @example
 * const params = new Params(); `WHERE route = ${params.add('/ask')}` // 'WHERE route = $1'
 */
export class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}
