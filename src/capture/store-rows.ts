import type { JudgedClaim, JudgeInfo } from '../judge/types.js';
import type { StoredJudgment } from './types.js';

/** Row shapes of the capture store's tables and their mapping to the public types (used by `store.ts` only). */

export interface CaptureRow {
  id: number;
  trace_id: string;
  request_id: string;
  captured_at: string;
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

export interface JudgmentRow {
  judge_version: string;
  judge_kind: string;
  judge_model: string;
  judge_prompt_version: string;
  status: 'ok' | 'error';
  claims: string;
  verified: number;
  contradicted: number;
  absent: number;
  flags: string | null;
  error: string | null;
  raw_reply: string | null;
  attempts: number;
  input_tokens: number | null;
  output_tokens: number | null;
  total_tokens: number | null;
  cost_usd: number | null;
  duration_ms: number;
  judged_at: string;
}

export function toJudgment(row: JudgmentRow, traceId: string): StoredJudgment {
  return {
    traceId,
    judgeVersion: row.judge_version,
    judge: { kind: row.judge_kind as JudgeInfo['kind'], model: row.judge_model, promptVersion: row.judge_prompt_version },
    status: row.status,
    claims: JSON.parse(row.claims) as JudgedClaim[],
    counts: { verified: row.verified, contradicted: row.contradicted, absent: row.absent },
    flags: row.flags ? (JSON.parse(row.flags) as StoredJudgment['flags']) : null,
    error: row.error,
    rawReply: row.raw_reply,
    attempts: row.attempts,
    usage: { inputTokens: row.input_tokens, outputTokens: row.output_tokens, totalTokens: row.total_tokens },
    costUsd: row.cost_usd,
    durationMs: row.duration_ms,
    judgedAt: row.judged_at,
  };
}

export function nullableFlag(value: boolean | null): number | null {
  return value === null ? null : value ? 1 : 0;
}
