import type { JudgedClaim, JudgeInfo, JudgmentFlags, VerdictCounts } from '../contract/judgment.js';
import type { Usage } from '../contract/messages.js';
import type { RagTrace, RetrievedChunk } from '../contract/trace.js';

export { judgeVersionOf, type JudgmentFlags } from '../contract/judgment.js';

/**
 * One chunk exactly as it went into the prompt (after redaction of its text): the trace's chunk
 * without its vector and BM25 ranks, which are not stored.
 */
export interface CapturedChunk extends Omit<RetrievedChunk, 'hash' | 'text' | 'vectorRank' | 'textRank'> {
  /** Content hash of the text the generator saw (computed before redaction, so drift checks compare like with like). */
  hash: string;
  /** The prompt text of the chunk, redacted and possibly cut by the size caps (see `Capture.truncated`). */
  text: string;
}

/** What the middleware knows about the HTTP exchange a trace belongs to. */
export interface HttpFacts {
  /** The request id (pino-http's `req.id` when present, else generated). */
  requestId: string;
  /** When the response finished (ISO 8601). */
  capturedAt: string;
  /** Express route pattern when known (`/api/chat`), else the path. */
  route: string;
  method: string;
  /** HTTP status of the response. */
  status: number;
  /** Time from the middleware seeing the request to the response closing (sent, or the connection ended first), in ms. */
  latencyMs: number;
  /**
   * True when the client hung up before the response finished: it did not receive the whole
   * answer. Such a capture has its own verdict (`aborted`) and is never judged.
   */
  aborted: boolean;
  /**
   * Time from the middleware seeing the request to the first answer text written to the client by
   * `streamRagAnswer`, in ms; `null` when the answer was not streamed through it.
   */
  firstTokenMs: number | null;
}

/**
 * The fields a capture keeps from its trace unchanged (`timings` are the pipeline's retrieval,
 * generation and total times for the question, in ms; the HTTP latency is `latencyMs`).
 * Copied by {@link traceFields} in both directions: trace to capture, capture back to trace.
 */
export type TraceFields = Pick<RagTrace, 'query' | 'mode' | 'answer' | 'refused' | 'refusalReason' | 'promptVersion' | 'models' | 'usage' | 'costUsd' | 'timings'>;

/**
 * One answered question as the capture middleware persists it: the trace plus the HTTP facts
 * around it. `traceId` is unique; recording the same trace twice stores it once.
 */
export interface Capture extends HttpFacts, TraceFields {
  traceId: string;
  chunks: CapturedChunk[];
  /**
   * For a refusal by the relevance gate: the chunks the gate withheld from the model (the trace's
   * `withheldChunks`), which the live judge reads to tell a correct refusal from an over-refusal.
   * Absent (or empty) otherwise.
   */
  withheldChunks?: CapturedChunk[];
  /** True when a size cap cut the query, the answer or a chunk: such captures are not judged. */
  truncated: boolean;
  /**
   * Set only on a capture read back from a store that could not read all of its evidence (a
   * SQLite file edited by hand): why, naming the missing evidence. `chunks` and `withheldChunks`
   * then hold only the chunks it could read, which is less than the model saw, so the live judge
   * never judges it: it stores a judge error for it instead (after its retries), and a reader
   * (dashboard, trace API) shows the capture with this note rather than failing the whole page.
   */
  unreadable?: string;
}

/** A judgment as stored for one capture and one judge version. */
export interface StoredJudgment {
  traceId: string;
  /** `kind:model:promptVersion`: judgments of different judges are never mixed. */
  judgeVersion: string;
  judge: JudgeInfo;
  status: 'ok' | 'error';
  /** Claims with verdicts; empty for errors. */
  claims: JudgedClaim[];
  counts: VerdictCounts;
  /** `null` when the judge failed. */
  flags: JudgmentFlags | null;
  /** Why the judge failed; `null` when it did not. */
  error: string | null;
  rawReply: string | null;
  /** How many times the worker tried before storing this. */
  attempts: number;
  usage: Usage;
  costUsd: number | null;
  durationMs: number;
  judgedAt: string;
}

/**
 * Where the middleware writes captures. The SQLite {@link CaptureStore} implements it; tests and
 * apps may pass anything else (a queue, a log shipper). It may be synchronous or async; it may
 * throw: the middleware counts and logs the failure and the request is never affected.
 */
export interface CaptureSink {
  writeCaptures(captures: readonly Capture[]): void | Promise<void>;
}

/** A copy of the fields a capture shares with its trace; the nested objects are copied too, so neither side shares them. */
export function traceFields(source: TraceFields): TraceFields {
  return {
    query: source.query,
    mode: source.mode,
    answer: source.answer,
    refused: source.refused,
    refusalReason: source.refusalReason,
    promptVersion: source.promptVersion,
    models: { ...source.models },
    usage: { ...source.usage },
    costUsd: source.costUsd,
    timings: { ...source.timings },
  };
}
