import type { Usage } from './messages.js';

/**
 * The judgment record: what every judge (heuristic or LLM, offline eval or live) produces, what
 * the capture store keeps, and what `/metrics`, the dashboard, the chat page and the eval reports
 * read. Judges fill it; scores and outcomes are derived from it in code (`outcome.ts`).
 */

export type ClaimVerdict = 'verified' | 'contradicted' | 'absent';

/** One atomic claim from an answer, with the judge's verdict against the evidence. */
export interface JudgedClaim {
  text: string;
  verdict: ClaimVerdict;
  /** The evidence passage that verifies or contradicts the claim; `null` for `absent`. */
  evidenceChunkId: string | null;
  /** Why, in a few words (which number or negation disagreed, which words were missing…). */
  note: string;
}

/** Who judged: stored with every judgment so results from different judges are never mixed. */
export interface JudgeInfo {
  kind: 'heuristic' | 'llm' | 'mock';
  /** `heuristic` or `provider:model`. */
  model: string;
  /** Version of the judge prompt or heuristic; changes whenever judgments could change. */
  promptVersion: string;
}

export interface VerdictCounts {
  verified: number;
  contradicted: number;
  absent: number;
}

export interface FaithfulnessOk {
  status: 'ok';
  judge: JudgeInfo;
  claims: JudgedClaim[];
  /** Derived in code from the claims, never asked of the judge directly. */
  counts: VerdictCounts;
  /**
   * No contradicted claim (and, under the default policy, no absent claim), and at least one
   * checkable claim. `null` when the answer is a refusal or has no checkable claim.
   */
  faithful: boolean | null;
  /** At least one contradicted claim (or absent, under the default policy). */
  hallucinated: boolean;
  /** The answer is a refusal (exact sentence or a common paraphrase). */
  refused: boolean;
  /** Whether the evidence holds anything relevant to the question. */
  evidenceRelevant: boolean;
  /**
   * `true`: evidence irrelevant and the answer refuses. `false`: evidence irrelevant and the answer
   * asserts something anyway. `null`: refusal does not apply (the evidence is relevant).
   */
  correctlyRefused: boolean | null;
  /** The answer makes no checkable claim (and is not a refusal). */
  undetermined: boolean;
  usage: Usage;
  costUsd: number | null;
  durationMs: number;
}

/**
 * The judge could not produce a usable verdict (unparseable reply after retries, API failure).
 * Counted and reported on its own; excluded from rates; never a pass, never a zero.
 */
export interface JudgeFailure {
  status: 'error';
  judge: JudgeInfo;
  error: string;
  /** The last raw reply, when there was one. */
  rawReply: string | null;
  attempts: number;
  /** True when the failure was an authentication or billing problem (live workers pause on it). */
  authError: boolean;
  usage: Usage;
  costUsd: number | null;
  durationMs: number;
}

export type FaithfulnessJudgment = FaithfulnessOk | JudgeFailure;

/** The explicit questions the pairwise judge answers for each side. */
export interface PairwiseCriteria {
  /** Answers the question correctly (per the evidence). */
  answersCorrectly: boolean;
  /** Points to the right policy and section. */
  citesRightSource: boolean;
  /** States every condition and exception the evidence attaches. */
  statesConditions: boolean;
  /** No fabrication: taken from the side's claim verdicts, not asked as a bare yes/no. */
  noFabrication: boolean;
}

export interface PairwiseOk {
  status: 'ok';
  judge: JudgeInfo;
  a: PairwiseCriteria;
  b: PairwiseCriteria;
  winner: 'A' | 'B' | 'tie';
  reason: string;
  usage: Usage;
  costUsd: number | null;
  durationMs: number;
}

export type PairwiseJudgment = PairwiseOk | JudgeFailure;


/**
 * The flags of an ok judgment that decide its outcome (see `outcome.ts`); stored with every
 * judgment the capture store keeps.
 */
export type JudgmentFlags = Pick<FaithfulnessOk, 'faithful' | 'hallucinated' | 'refused' | 'evidenceRelevant' | 'correctlyRefused' | 'undetermined'>;

/** The string that identifies a judge in stored judgments: `kind:model:promptVersion`. */
export function judgeVersionOf(info: JudgeInfo): string {
  return `${info.kind}:${info.model}:${info.promptVersion}`;
}
