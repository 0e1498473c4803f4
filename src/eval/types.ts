import type { JudgmentOutcome } from '../contract/outcome.js';
import type { EvidencePassage, FaithfulnessJudgment, JudgeInfo } from '../judge/types.js';
import type { PairwiseOutcome, PairwiseSummary } from '../judge/pairwise.js';
import type { ConfidenceInterval, KeywordResult, Rate, RetrievalReport, RetrievalScores } from '../metrics/index.js';
import type { RagTrace } from '../contract/trace.js';
import type { GateResult } from './gates.js';
import type { ModelTotals } from './ledger.js';
import type { QuestionCategory } from './questions.js';

/**
 * Bump when the results file changes shape; readers (spot-check, reports) check it.
 * - 2: `target`; `usage.target`; `config.pipeline`; `suite.corpusDir`, `config.indexPath`,
 *   `config.generator`, `config.embedder` and `versions.ragPrompt` are `null` for an external
 *   target; `norag` and `pairwise` are `null` for a target without a RAG-off mode.
 * - 3: judgment v2 records (context verdicts, relevance, refusal verdicts, reference claims) and
 *   `answerQuality`.
 */
export const RESULTS_FORMAT_VERSION = 3;

/** A trace as stored in results: everything but the messages (rebuildable from the chunks) and the chunk texts (in `evidence`). */
export type StoredTrace = Omit<RagTrace, 'messages' | 'chunks' | 'withheldChunks'> & {
  chunks: Omit<RagTrace['chunks'][number], 'text'>[];
  /** A gate refusal's withheld chunks, without their texts (in `evidence`, which the judge read). */
  withheldChunks?: Omit<RagTrace['chunks'][number], 'text'>[];
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
  /**
   * RAG-on only: the documents the answer cites (matched to its trace's chunks) and those among
   * them that hold none of the question's relevant chunks (`unrelated`).
   */
  sources?: { cited: string[]; unrelated: string[] };
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
  /** `null` when the question failed, or the target has no RAG-off mode. */
  norag: SideResult | null;
  /** `null` when the question failed, or there is no RAG-off answer to compare with. */
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

/**
 * Judgment-v2 measures of one side (RAG on), from the judgments' verdicts and outcomes. Each rate
 * names its denominator in METHODOLOGY.md ("Eval rules"); judge errors are left out of all of them.
 */
export interface AnswerQualitySummary {
  /** Rates with their counts: correctAnswerRate, rightOutcomeRate, answerRelevanceRate, offTopicRate, incompleteRate, overRefusalRate, shouldHaveRefusedRate, contextSufficiencyRate. */
  rates: Record<string, Rate>;
  /** Means with how many values they average: contextPrecision, referenceRecall. */
  means: Record<string, { mean: number | null; n: number }>;
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
  /** Judgment-v2 measures of the RAG-on answers. */
  answerQuality: AnswerQualitySummary;
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

/** What answered: groundcheck's pipeline, or an external target (`http`, `module`, your own kind). */
export interface TargetInfo {
  kind: string;
  /** `groundcheck`, `POST http://127.0.0.1:3000/api/chat`, `module ./eval-target.ts`. */
  name: string;
  /** Whether the target answered with retrieval off too. */
  norag: boolean;
}

export interface EvalResults {
  format: typeof RESULTS_FORMAT_VERSION;
  target: TargetInfo;
  suite: { name: string; description: string | null; source: string; corpusDir: string | null; questionsFile: string; questions: number; topK: number; minSimilarity: number | null };
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
    /** The groundcheck target's index; `null` for an external target. */
    indexPath: string | null;
    /** `provider:model` of groundcheck's generator; `null` for an external target. */
    generator: string | null;
    embedder: string | null;
    /** The pipeline settings the groundcheck target ran with (`PIPELINE_SETTINGS`); `{}` for an external target. */
    pipeline: Record<string, number>;
    /** The app's refusal sentence given by the suite or the caller; `null`: groundcheck's default. */
    refusalSentence: string | null;
    /** How RAG-off answers and pairwise verdicts were judged; see METHODOLOGY.md. */
    evidencePolicy: string;
  };
  versions: {
    groundcheck: string;
    /** groundcheck's prompt version; `null` for an external target (its prompt is its own). */
    ragPrompt: string | null;
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
  usage: {
    models: ModelTotals[];
    totalCostUsd: number | null;
    /** Model calls and external target answers together. */
    cache: { hits: number; misses: number; writes: number } | null;
    retries: number;
    /** Calls to an external target (cache hits are not calls); `null` for groundcheck. */
    target: { calls: number; failedCalls: number; cacheHits: number } | null;
  };
  warnings: string[];
}
