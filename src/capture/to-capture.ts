import type { RagTrace } from '../contract/trace.js';
import { capturedChunk } from './capture-row.js';
import type { ChunkInterner } from './chunk-interner.js';
import { traceFields, type Capture, type HttpFacts } from './types.js';

export type { HttpFacts } from './types.js';

/** Size caps applied to each capture (after redaction). Captures that hit one are stored, marked `truncated`, and not judged. */
export interface CaptureLimits {
  /** [maxQueryChars=4000] */
  maxQueryChars: number;
  /** [maxAnswerChars=20000] */
  maxAnswerChars: number;
  /** Per chunk. [maxChunkChars=20000] */
  maxChunkChars: number;
  /** [maxChunks=64] */
  maxChunks: number;
}

export const DEFAULT_CAPTURE_LIMITS: CaptureLimits = Object.freeze({ maxQueryChars: 4000, maxAnswerChars: 20_000, maxChunkChars: 20_000, maxChunks: 64 });

/** HTTP facts as {@link captureFromTrace} takes them: `aborted` defaults to `false`, `firstTokenMs` to `null`. */
export type CaptureHttpFacts = Omit<HttpFacts, 'aborted' | 'firstTokenMs'> & Partial<Pick<HttpFacts, 'aborted' | 'firstTokenMs'>>;

/**
 * The capture of one trace: its chunks exactly as they were in the prompt, and the HTTP facts.
 * `chunkStrings`: take each chunk's strings from this interner (equal values, first copies; see
 * {@link ChunkInterner}), as `captureRag` does.
 */
export function captureFromTrace(trace: RagTrace, http: CaptureHttpFacts, chunkStrings?: ChunkInterner): Capture {
  return {
    traceId: trace.id,
    requestId: http.requestId,
    capturedAt: http.capturedAt,
    route: http.route,
    method: http.method,
    status: http.status,
    latencyMs: http.latencyMs,
    aborted: http.aborted ?? false,
    firstTokenMs: http.firstTokenMs ?? null,
    ...traceFields(trace),
    chunks: capturedChunks(trace.chunks, chunkStrings),
    ...(trace.withheldChunks !== undefined && trace.withheldChunks.length > 0 ? { withheldChunks: capturedChunks(trace.withheldChunks, chunkStrings) } : {}),
    truncated: false,
  };
}

function capturedChunks(chunks: RagTrace['chunks'], chunkStrings: ChunkInterner | undefined): Capture['chunks'] {
  return chunks.map((chunk) => capturedChunk(chunkStrings === undefined ? chunk : chunkStrings.intern(chunk), chunk.score, chunk.fusedScore, chunk.rank));
}

const MARK = '…[truncated]';

/** Whether {@link applyLimits} would cut anything: the query, the answer, a chunk's text, or the number of chunks. */
export function exceedsLimits(capture: Capture, limits: CaptureLimits): boolean {
  if (capture.query.length > limits.maxQueryChars || capture.answer.length > limits.maxAnswerChars) return true;
  return chunksExceed(capture.chunks, limits) || (capture.withheldChunks !== undefined && chunksExceed(capture.withheldChunks, limits));
}

/** More chunks than the cap, or a chunk text over its cap. */
function chunksExceed(chunks: Capture['chunks'], limits: CaptureLimits): boolean {
  if (chunks.length > limits.maxChunks) return true;
  // An index loop: asked of every capture, and the for…of iterator showed in heap profiles (~0.3 KB a capture).
  for (let index = 0; index < chunks.length; index++) if (chunks[index]!.text.length > limits.maxChunkChars) return true;
  return false;
}

/** Cut oversized fields; sets `truncated` when anything was cut. */
export function applyLimits(capture: Capture, limits: CaptureLimits): Capture {
  let truncated = capture.truncated;
  const cut = (text: string, max: number) => {
    if (text.length <= max) return text;
    truncated = true;
    return text.slice(0, Math.max(0, max - MARK.length)) + MARK;
  };
  const capChunks = (list: Capture['chunks']) => {
    const kept = list.length > limits.maxChunks ? ((truncated = true), list.slice(0, limits.maxChunks)) : list;
    // A chunk within the cap is passed on as it is: no copy per chunk per capture.
    return kept.map((chunk) => (chunk.text.length <= limits.maxChunkChars ? chunk : { ...chunk, text: cut(chunk.text, limits.maxChunkChars) }));
  };
  const limited: Capture = {
    ...capture,
    query: cut(capture.query, limits.maxQueryChars),
    answer: cut(capture.answer, limits.maxAnswerChars),
    chunks: capChunks(capture.chunks),
    ...(capture.withheldChunks !== undefined ? { withheldChunks: capChunks(capture.withheldChunks) } : {}),
  };
  limited.truncated = truncated;
  return limited;
}
