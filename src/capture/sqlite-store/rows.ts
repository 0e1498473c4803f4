import type { Capture, CapturedChunk, StoredJudgment } from '../types.js';
import { renderFlagsKey } from '../../contract/flags-key.js';
import type { JudgmentFlags } from '../../contract/judgment.js';

/** Row shapes of the SQLite capture store's tables and their mapping to the public types. */

export interface CaptureRow {
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
  refused: number;
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
  truncated: number;
  aborted: number;
  first_token_ms: number | null;
}

export function captureFromRow(row: CaptureRow, chunks: CapturedChunk[]): Capture {
  return {
    traceId: row.trace_id,
    requestId: row.request_id,
    capturedAt: row.captured_at,
    route: row.route,
    method: row.method,
    status: row.status,
    latencyMs: row.latency_ms,
    aborted: row.aborted === 1,
    firstTokenMs: row.first_token_ms,
    query: row.query,
    mode: row.mode === 'norag' ? 'norag' : 'rag',
    chunks,
    answer: row.answer,
    refused: row.refused === 1,
    refusalReason: row.refusal_reason === 'gate' || row.refusal_reason === 'model' ? row.refusal_reason : null,
    promptVersion: row.prompt_version,
    models: { chat: row.chat_model, embedding: row.embedding_model },
    usage: { inputTokens: row.input_tokens, outputTokens: row.output_tokens, totalTokens: row.total_tokens },
    costUsd: row.cost_usd,
    timings: { retrievalMs: row.retrieval_ms, generationMs: row.generation_ms, totalMs: row.total_ms },
    truncated: row.truncated === 1,
  };
}

/** A `judgments` row as the queries read it: the record and the capture it belongs to. */
export interface JudgmentRow {
  capture_id: number;
  record: string;
}

/** The `record` column: the judgment without its trace id (the row's capture says which), as JSON. */
export function judgmentRecord(judgment: StoredJudgment): string {
  const { traceId: _traceId, ...record } = judgment;
  return JSON.stringify(record);
}

export function judgmentFromRecord(record: string, traceId: string): StoredJudgment {
  return { traceId, ...(JSON.parse(record) as Omit<StoredJudgment, 'traceId'>) };
}

/** The indexed columns beside the record. */
export function judgmentColumns(judgment: StoredJudgment) {
  const flags = judgment.flags;
  return {
    judgeVersion: judgment.judgeVersion,
    status: judgment.status,
    faithful: flags ? nullableFlag(flags.faithful) : null,
    hallucinated: flags ? (flags.hallucinated ? 1 : 0) : null,
    refused: flags ? (flags.refused ? 1 : 0) : null,
    judgedAt: judgment.judgedAt,
    flagsKey: flagsKeyOf(judgment.status, flags),
  };
}

function nullableFlag(value: boolean | null): number | null {
  return value === null ? null : value ? 1 : 0;
}

/** The ids as one bound parameter, read back in SQL by `json_each(?)`: one statement for any number of ids. */
export function idList(ids: readonly number[]): string {
  return JSON.stringify(ids);
}

/**
 * The `flags_key` column of a judgment: its flags key when it has flags and is ok, else NULL. The
 * dashboard's verdict reads a judgment the same way (`verdictOf`: flags of an ok judgment, else a
 * judge error).
 */
export function flagsKeyOf(status: string, flags: JudgmentFlags | null): string | null {
  return status === 'ok' ? renderFlagsKey(flags) : null;
}
