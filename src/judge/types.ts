import type { Usage } from '../providers/spec.js';

/**
 * The judge contract. One implementation of each judge is shared by the offline evals
 * (`src/eval/`) and live judging of captured traffic (`src/capture/`), so their numbers compare.
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

/** A passage the judge may use as evidence. */
export interface EvidencePassage {
  /** A chunk id from the trace, or an id for a reference excerpt. */
  id: string;
  /** Exactly the text the generator saw (for trace chunks). */
  text: string;
  /** `chunk`: from the trace; `reference`: an extra excerpt supplied by the eval (optional). */
  kind: 'chunk' | 'reference';
}

export interface FaithfulnessInput {
  question: string;
  /** The trace's exact chunks (plus optional reference excerpts). */
  evidence: EvidencePassage[];
  answer: string;
}

export interface FaithfulnessPolicy {
  /** Whether a claim the evidence says nothing about counts as a hallucination. [absentIsHallucination=true] */
  absentIsHallucination: boolean;
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

export interface FaithfulnessJudge {
  readonly info: JudgeInfo;
  judge(input: FaithfulnessInput, options?: { abortSignal?: AbortSignal }): Promise<FaithfulnessJudgment>;
}

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

export interface PairwiseInput {
  question: string;
  evidence: EvidencePassage[];
  /** The answer shown as "A". */
  answerA: string;
  /** The answer shown as "B". */
  answerB: string;
  /** Claim verdicts per side from the faithfulness judge; used for `noFabrication`. */
  claimsA: JudgedClaim[] | null;
  claimsB: JudgedClaim[] | null;
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

export interface PairwiseJudge {
  readonly info: JudgeInfo;
  judge(input: PairwiseInput, options?: { abortSignal?: AbortSignal }): Promise<PairwiseJudgment>;
}
