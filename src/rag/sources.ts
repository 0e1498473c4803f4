import type { RagTrace } from '../contract/trace.js';

/** One cited source, as the CLI's `--json` and the demo API return it. */
export interface AnswerSource {
  chunkId: string;
  title: string;
  section: string;
  updated: string | null;
  /** The page the source was crawled from; absent for a document from a folder. */
  url?: string;
  /** Cosine similarity of the chunk to the question, rounded to 4 places. */
  score: number;
  /**
   * Exactly the text the model saw for this chunk (its source line, then its body), so a client,
   * or `groundcheck eval --target <url>`, can check the answer against what the model was given.
   */
  text: string;
}

/** The public answer shape: `{ answer, refused, sources, traceId }` (the shape `--target <url>` reads by default). */
export interface AnswerPayload {
  answer: string;
  refused: boolean;
  sources: AnswerSource[];
  traceId: string;
}

/** Reduce a trace to the public answer shape shared by the CLI and the demo API. */
export function toAnswerPayload(trace: RagTrace): AnswerPayload {
  return {
    answer: trace.answer,
    refused: trace.refused,
    sources: trace.chunks.map((chunk) => ({
      chunkId: chunk.chunkId,
      title: chunk.title,
      section: chunk.section,
      updated: chunk.updated,
      ...(chunk.url !== undefined ? { url: chunk.url } : {}),
      score: Math.round(chunk.score * 10_000) / 10_000,
      text: chunk.text,
    })),
    traceId: trace.id,
  };
}
