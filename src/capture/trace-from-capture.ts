import type { RagTrace } from '../contract/trace.js';
import { traceFields, type Capture } from './types.js';

/**
 * Rebuild the `RagTrace` a capture was made from, so the live judge calls exactly the same
 * `judgeTrace` the evals call. The chunks are the captured ones (the exact prompt text, after
 * redaction); the prompt messages are not stored, so `messages` is empty.
 */
export function traceFromCapture(capture: Capture): RagTrace {
  const topSimilarity = capture.chunks.length > 0 ? Math.max(...capture.chunks.map((chunk) => chunk.score)) : null;
  return {
    id: capture.traceId,
    createdAt: capture.capturedAt,
    ...traceFields(capture),
    chunks: capture.chunks.map((chunk) => ({ ...chunk, vectorRank: null, textRank: null })),
    retrieval:
      capture.mode === 'rag'
        ? {
            gated: capture.refusalReason === 'gate',
            minSimilarity: Number.NaN,
            topSimilarity,
            candidates: { vector: 0, text: 0, fused: capture.chunks.length },
            embedder: capture.models.embedding ?? 'unknown',
          }
        : null,
    messages: [],
    finishReason: null,
  };
}
