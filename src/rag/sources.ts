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
  /**
   * A relevance-gate refusal's withheld chunks (`RagTrace.withheldChunks`: what retrieval ranked
   * but the model never saw), in the shape of `sources`, only with `{ withheld: true }`. Not
   * sources of the answer: they let `groundcheck eval --target <url>` tell a correct refusal from
   * an over-refusal, as the in-process eval does.
   */
  withheldChunks?: AnswerSource[];
}

/** Options of {@link toAnswerPayload}. */
export interface AnswerPayloadOptions {
  /** Add a gate refusal's withheld chunks as `withheldChunks`. [withheld=false] */
  withheld?: boolean;
}

/** Reduce a trace to the public answer shape shared by the CLI and the demo API. */
export function toAnswerPayload(trace: RagTrace, options: AnswerPayloadOptions = {}): AnswerPayload {
  const withheld = options.withheld === true && trace.withheldChunks !== undefined && trace.withheldChunks.length > 0 ? { withheldChunks: trace.withheldChunks.map(toSource) } : {};
  return {
    answer: trace.answer,
    refused: trace.refused,
    sources: trace.chunks.map(toSource),
    traceId: trace.id,
    ...withheld,
  };
}

function toSource(chunk: RagTrace['chunks'][number]): AnswerSource {
  return {
    chunkId: chunk.chunkId,
    title: chunk.title,
    section: chunk.section,
    updated: chunk.updated,
    ...(chunk.url !== undefined ? { url: chunk.url } : {}),
    score: Math.round(chunk.score * 10_000) / 10_000,
    text: chunk.text,
  };
}
