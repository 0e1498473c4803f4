import type { ChatMessage, Usage } from './messages.js';

/** One chunk as it went into a prompt. */
export interface RetrievedChunk {
  /** Stable, readable id: `leave-policy#parental-leave`. */
  chunkId: string;
  /** Document id (slug of its path). */
  document: string;
  /** The page the document was crawled from (`groundcheck ingest <url>`); absent for a document from a folder. */
  url?: string;
  title: string;
  /** Heading path, `Parental Leave > Shared Parental Leave`; `''` for a document's intro. */
  section: string;
  updated: string | null;
  /** Exactly the text placed in the prompt for this chunk: its source line, then its body (`renderChunkText`). */
  text: string;
  /** Content hash of `text` (sha256, hex, first 20 characters). */
  hash: string;
  /** Cosine similarity to the question (what the relevance gate compares with `minSimilarity`). */
  score: number;
  /**
   * Fused score of the vector and BM25 rankings (what orders the chunks): by default the convex sum
   * of each list's max-normalised scores, or the reciprocal-rank sum with `fusion: 'rrf'`.
   */
  fusedScore: number;
  /** 1-based rank after fusion. */
  rank: number;
  vectorRank: number | null;
  textRank: number | null;
}

export type RagMode = 'rag' | 'norag';

/** The term-coverage check of the relevance gate (src/rag/term-coverage.ts). */
export interface TermCoverageSummary {
  /** Topic words of the question's asking clause that were looked up in the corpus vocabulary. */
  checkedTerms: number;
  /** Those found nowhere in the corpus, in no close form and (when checked) in nothing close in meaning. */
  uncoveredTerms: string[];
}

/** What retrieval decided for one question, apart from its chunks; kept in every `rag` trace. */
export interface RetrievalSummary {
  /** True when the relevance gate fired: the pipeline refuses without calling the model. */
  gated: boolean;
  /**
   * Which half of the gate fired: `similarity` (no chunk reached `minSimilarity`) or `coverage`
   * (a topic word of the question occurs nowhere in the corpus); `null` when it did not fire.
   * Absent in traces recorded before the term-coverage check existed.
   */
  gateReason?: 'similarity' | 'coverage' | null;
  /** The term-coverage check; absent when it was turned off or in older traces. */
  termCoverage?: TermCoverageSummary;
  minSimilarity: number;
  /** Best similarity among the fused top-k, passed or not; `null` for an empty index. */
  topSimilarity: number | null;
  candidates: { vector: number; text: number; fused: number };
  embedder: string;
}

/**
 * What happened for one question: produced once by the pipeline, then consumed unchanged by the
 * capture middleware, the judges and the eval runner. Nothing downstream retrieves again.
 */
export interface RagTrace {
  id: string;
  createdAt: string;
  query: string;
  mode: RagMode;
  /** Exactly the chunks the prompt was built from, in prompt order. Empty for `norag` and when gated. */
  chunks: RetrievedChunk[];
  /**
   * When the relevance gate refused (`refusalReason: 'gate'`): the chunks retrieval ranked for the
   * question (its top k, best first), withheld from the model. Nothing is retrieved again to judge
   * the refusal: the judge reads these to tell a correct refusal (no chunk answers) from an
   * over-refusal (one does). Absent otherwise, and in traces recorded before it existed.
   */
  withheldChunks?: RetrievedChunk[];
  /**
   * What the retrieval decided (its chunks are `chunks` above); `null` in `norag` mode, and when the
   * chunks came from an app's own retrieval (`traceFromPlain`).
   */
  retrieval: RetrievalSummary | null;
  /** The messages sent to the chat model; empty when the gate refused without calling it, or when they are unknown (`traceFromPlain`). */
  messages: ChatMessage[];
  /** What the user is shown: the model's answer, then any `notes` (see `renderAnswerWithNotes`). */
  answer: string;
  /**
   * Notes the pipeline appended to the model's answer (the outdated-document note), in order;
   * judges take them off before judging (`answerForJudging`). Absent in older traces.
   */
  notes?: string[];
  refused: boolean;
  /** `gate`: nothing relevant was retrieved; `model`: the model answered with a refusal. */
  refusalReason: 'gate' | 'model' | null;
  promptVersion: string;
  models: { chat: string; embedding: string | null };
  usage: Usage;
  costUsd: number | null;
  finishReason: string | null;
  timings: { retrievalMs: number; generationMs: number; totalMs: number };
}

/**
 * The chunks a judge reads for a trace: the ones the model saw, or, for a refusal by the relevance
 * gate (the model saw none), the chunks the gate withheld. Either way exactly what retrieval
 * returned once, never retrieved again.
 *
 * @example
 * const evidence = evidenceFromChunks(judgedChunks(trace));
 */
export function judgedChunks<C>(trace: { chunks: readonly C[]; withheldChunks?: readonly C[] | undefined; refusalReason: RagTrace['refusalReason'] }): readonly C[] {
  return trace.chunks.length === 0 && trace.refusalReason === 'gate' && trace.withheldChunks !== undefined ? trace.withheldChunks : trace.chunks;
}
