import type { Capture } from '../types.js';

/**
 * Captures as one flat array of their values, for the hand-over to the writer thread. Cloning a
 * batch this way costs the sending thread about a third of what cloning the capture objects does
 * (a structured clone writes every property name of every object again: 26 per capture and 10
 * per chunk; bench:capture-path). Only the fields of {@link Capture} travel; the order below is
 * the format.
 */

/** Values per capture before its chunks (the last one is the number of chunks). */
const CAPTURE_VALUES = 26;
/** Values per chunk. */
const CHUNK_VALUES = 10;

export function encodeCaptures(captures: readonly Capture[]): unknown[] {
  const out: unknown[] = [];
  for (const c of captures) {
    out.push(
      c.traceId, c.requestId, c.capturedAt, c.route, c.method, c.status, c.latencyMs, c.aborted, c.firstTokenMs,
      c.query, c.mode, c.answer, c.refused, c.refusalReason, c.promptVersion, c.models.chat, c.models.embedding,
      c.usage.inputTokens, c.usage.outputTokens, c.usage.totalTokens, c.costUsd,
      c.timings.retrievalMs, c.timings.generationMs, c.timings.totalMs, c.truncated, c.chunks.length,
    );
    for (const k of c.chunks) out.push(k.chunkId, k.document, k.title, k.section, k.updated, k.hash, k.text, k.score, k.fusedScore, k.rank);
  }
  return out;
}

export function decodeCaptures(values: readonly unknown[]): Capture[] {
  const captures: Capture[] = [];
  let at = 0;
  const next = () => values[at++] as never;
  while (at < values.length) {
    if (values.length - at < CAPTURE_VALUES) throw new Error('decodeCaptures: the values end inside a capture');
    const capture: Capture = {
      traceId: next(), requestId: next(), capturedAt: next(), route: next(), method: next(), status: next(), latencyMs: next(), aborted: next(), firstTokenMs: next(),
      query: next(), mode: next(), answer: next(), refused: next(), refusalReason: next(), promptVersion: next(),
      models: { chat: next(), embedding: next() },
      usage: { inputTokens: next(), outputTokens: next(), totalTokens: next() },
      costUsd: next(),
      timings: { retrievalMs: next(), generationMs: next(), totalMs: next() },
      // Filled in below (after the number of chunks, which follows truncated).
      chunks: [],
      truncated: false,
    };
    capture.truncated = next();
    const count = next() as number;
    if (values.length - at < count * CHUNK_VALUES) throw new Error('decodeCaptures: the values end inside a chunk');
    for (let index = 0; index < count; index++) {
      capture.chunks.push({ chunkId: next(), document: next(), title: next(), section: next(), updated: next(), hash: next(), text: next(), score: next(), fusedScore: next(), rank: next() });
    }
    captures.push(capture);
  }
  return captures;
}
