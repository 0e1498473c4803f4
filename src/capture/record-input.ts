import type { Logger } from 'pino';
import { traceFromPlain, type PlainTrace } from '../contract/plain-trace.js';
import type { RagTrace } from '../contract/trace.js';
import type { CaptureMetrics } from './metrics.js';

/**
 * What `req.rag.record(value)` accepts, checked when it is called: a `RagTrace` (after a cheap
 * structural check), or the plain record of an app not built with groundcheck
 * (`{ query, chunks: [{ id, text, title?, updated?, score? }], answer, model?, usage? }`),
 * validated and converted by the contract's `traceFromPlain`. A value that is neither is rejected
 * on its own: logged (`rag.capture.rejected`, with the reason) and counted as a `build` failure.
 */
export function recordAcceptor(options: {
  metrics: CaptureMetrics;
  logger: Logger;
  now: () => Date;
  refusalSentence: string | undefined;
}): (value: RagTrace | PlainTrace) => RagTrace | null {
  const { metrics, logger, now, refusalSentence } = options;
  const plainOptions = { now, ...(refusalSentence !== undefined ? { refusalSentence } : {}) };
  return function acceptRecord(value) {
    let trace: RagTrace | null = null;
    let problem: string | null;
    if (looksLikeRagTrace(value)) {
      problem = ragTraceProblem(value);
      if (problem === null) trace = value;
    } else {
      const result = traceFromPlain(value, plainOptions);
      problem = result.ok ? null : result.error;
      if (result.ok) trace = result.trace;
    }
    if (trace === null) {
      metrics.captureFailures.inc({ reason: 'build' });
      logger.error({ event: 'rag.capture.rejected', reason: problem }, `capture rejected: ${problem}`);
    }
    return trace;
  };
}

/** A `RagTrace` (as the pipeline makes it) rather than a plain record: it has an id, a creation time and the prompt messages. */
export function looksLikeRagTrace(value: unknown): value is RagTrace {
  return value !== null && typeof value === 'object' && 'id' in value && 'createdAt' in value && 'messages' in value;
}

/** What is wrong with a value claiming to be a `RagTrace`, checked field by field (cheap: no schema parse on the request path), or `null`. */
export function ragTraceProblem(trace: RagTrace): string | null {
  if (typeof trace.id !== 'string' || trace.id === '') return 'id: expected a non-empty string';
  if (typeof trace.query !== 'string') return 'query: expected a string';
  if (typeof trace.answer !== 'string') return 'answer: expected a string';
  const chunksProblem = chunkListProblem(trace.chunks, 'chunks');
  if (chunksProblem !== null) return chunksProblem;
  if (trace.withheldChunks !== undefined) {
    const withheldProblem = chunkListProblem(trace.withheldChunks, 'withheldChunks');
    if (withheldProblem !== null) return withheldProblem;
  }
  if (trace.models === null || typeof trace.models !== 'object' || typeof trace.models.chat !== 'string') return 'models.chat: expected a string';
  if (trace.timings === null || typeof trace.timings !== 'object') return 'timings: expected an object';
  return null;
}

function chunkListProblem(chunks: unknown, name: string): string | null {
  if (!Array.isArray(chunks)) return `${name}: expected an array`;
  for (let index = 0; index < chunks.length; index++) {
    const chunk = chunks[index] as Partial<RagTrace['chunks'][number]> | null;
    if (chunk === null || typeof chunk !== 'object') return `${name}.${index}: expected an object`;
    if (typeof chunk.chunkId !== 'string' || typeof chunk.text !== 'string' || typeof chunk.hash !== 'string') return `${name}.${index}: expected chunkId, text and hash strings`;
  }
  return null;
}
