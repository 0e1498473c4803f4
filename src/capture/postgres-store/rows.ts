import type { CaptureRowOf } from '../capture-row.js';

/** Row shapes of the Postgres capture store's tables and their mapping to the public types. */

export type PostgresCaptureRow = CaptureRowOf<boolean>;

/** The columns of `captures` a capture is read from (every one but `write_xid`). */
export const CAPTURE_COLUMNS =
  'c.id, c.trace_id, c.request_id, c.captured_at, c.captured_ms, c.route, c.method, c.status, c.latency_ms, c.query, c.mode, c.answer, c.refused, ' +
  'c.refusal_reason, c.prompt_version, c.chat_model, c.embedding_model, c.input_tokens, c.output_tokens, c.total_tokens, c.cost_usd, ' +
  'c.retrieval_ms, c.generation_ms, c.total_ms, c.truncated, c.aborted, c.first_token_ms';

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
