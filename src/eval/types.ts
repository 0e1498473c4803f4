import type { JudgmentOutcome } from '../contract/outcome.js';
import type { EvidencePassage, FaithfulnessJudgment, JudgeInfo } from '../judge/types.js';
import type { PairwiseOutcome, PairwiseSummary } from '../judge/pairwise.js';
import type { ConfidenceInterval, KeywordResult, Rate, RetrievalReport, RetrievalScores } from '../metrics/index.js';
import type { RagTrace } from '../contract/trace.js';
import type { GateResult } from './gates.js';
import type { ModelTotals } from './ledger.js';
import type { QuestionCategory } from './questions.js';

/** Bump when the results file changes shape; readers (spot-check, reports) check it. */
export const RESULTS_FORMAT_VERSION = 1;

/** A trace as stored in results: everything but the messages (rebuildable from the chunks) and the chunk texts (in `evidence`). */
export type StoredTrace = Omit<RagTrace, 'messages' | 'chunks'> & {
  chunks: Omit<RagTrace['chunks'][number], 'text'>[];
  messageCount: number;
};

/** One side (RAG-on or RAG-off) of one question. */
export interface SideResult {
  answer: string;
  refused: boolean;
  trace: StoredTrace;
  /** Ids of the `evidence` passages this side was judged against. */
  judgedAgainst: string[];
  judgment: FaithfulnessJudgment;
  keywords: KeywordResult;
  /** Share of the answer's content words found in the evidence it was judged against. */
  contentWordOverlap: number | null;
  words: number;
}

export interface QuestionResult {
  id: string;
  category: QuestionCategory;
  question: string;
  mustRefuse: boolean;
  relevantChunkIds: string[];
  keywords: string[];
  referenceAnswer: string;
  /** `error`: the question could not be run (a model call failed after retries); see `error`. */
  status: 'ok' | 'error';
  error: string | null;
  /** Chunk ids of the RAG-on trace, in prompt order (after the relevance gate). */
  retrievedChunkIds: string[];
  /** Retrieval metrics for this question; `null` for must-refuse questions (excluded). */
  retrieval: RetrievalScores | null;
  /**
   * Every passage any judge saw for this question, with its exact text: the RAG-on trace's chunks
   * (exactly what the generator saw) and, for answerable questions, the reference answer.
   */
  evidence: EvidencePassage[];
  rag: SideResult | null;
  norag: SideResult | null;
  pairwise: PairwiseOutcome | null;
  durationMs: number;
}

/** Faithfulness of one side, over the questions of one run. */
export interface FaithfulnessSummary {
  /** Judgments requested (one per question that ran). */
  judged: number;
  errors: number;
  refusals: number;
  /** Judged ok, not a refusal, but no checkable claim. */
  undetermined: number;
  /** Denominator of the hallucination rate: judged ok, not a refusal, at least one checkable claim. */
  checkable: number;
  hallucinated: number;
  /** hallucinated / checkable. */
  hallucinationRate: Rate;
  hallucinationCi: ConfidenceInterval | null;
  verdicts: { verified: number; contradicted: number; absent: number };
  /** Judgments per outcome, from the contract's outcome table (the same classification `/metrics` and the dashboard use). */
  outcomes: Record<JudgmentOutcome, number>;
}

export interface CategorySummary {
  category: string;
  questions: number;
  recallAt5: number | null;
  refusalRate: number | null;
  falseRefusalRate: number | null;
  hallucinationRate: number | null;
  noragHallucinationRate: number | null;
  keywordHitRate: number | null;
  pairwise: { wins: number; ties: number; losses: number; errors: number; winRate: number | null };
}

export interface JudgeErrorEntry {
  questionId: string;
  /** `rag` / `norag`: faithfulness; `pairwise:rag-first` / `pairwise:norag-first`: one pairwise trial. */
  call: string;
  judge: JudgeInfo;
  error: string;
  attempts: number;
}

export interface RunSummary {
  run: number;
  seed: number;
  questions: QuestionResult[];
  /** Flat headline metrics, the names gates use; `null` = not measured. */
  metrics: Record<string, number | null>;
  retrieval: RetrievalReport;
  refusal: { mustRefuse: Rate; falseRefusal: Rate; mustRefuseCi: ConfidenceInterval | null };
  faithfulness: { rag: FaithfulnessSummary; norag: FaithfulnessSummary };
  pairwise: PairwiseSummary;
  keywordHitRate: number | null;
  byCategory: CategorySummary[];
  judgeErrors: { calls: number; errors: number; rate: number | null; list: JudgeErrorEntry[] };
  /** Questions that could not be run (model call failed after retries). */
  failedQuestions: { questionId: string; error: string }[];
  durationMs: number;
}

/** A metric across runs. */
export interface Spread {
  mean: number | null;
  min: number | null;
  max: number | null;
  /** Sample standard deviation; `null` with fewer than two measured runs. */
  sd: number | null;
  /** One value per run (`null` where not measured). */
  values: (number | null)[];
}

export interface EvalResults {
  format: typeof RESULTS_FORMAT_VERSION;
  suite: { name: string; description: string | null; source: string; corpusDir: string; questionsFile: string; questions: number; topK: number; minSimilarity: number | null };
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  config: {
    runs: number;
    seed: number;
    runSeeds: number[];
    concurrency: number;
    bothOrders: boolean;
    maxRetries: number;
    cache: { enabled: boolean; path: string | null };
    indexPath: string;
    generator: string;
    embedder: string;
    /** How RAG-off answers and pairwise verdicts were judged; see METHODOLOGY.md. */
    evidencePolicy: string;
  };
  versions: {
    groundcheck: string;
    ragPrompt: string;
    faithfulnessJudge: JudgeInfo;
    pairwiseJudge: JudgeInfo;
    node: string;
  };
  runs: RunSummary[];
  /** Headline metrics across runs (a single run gives mean = min = max). */
  aggregate: Record<string, Spread>;
  gates: GateResult[];
  /** True when every gate passed and every question ran. */
  passed: boolean;
  usage: { models: ModelTotals[]; totalCostUsd: number | null; cache: { hits: number; misses: number; writes: number } | null; retries: number };
  warnings: string[];
}
