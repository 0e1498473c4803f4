/**
 * The judge contract. One implementation of each judge is shared by the offline evals
 * (`src/eval/`) and live judging of captured traffic (`src/capture/`), so their numbers compare.
 */
import type { EvidencePassage } from '../contract/evidence.js';
import type { FaithfulnessJudgment, JudgedClaim, JudgeInfo, PairwiseJudgment } from '../contract/judgment.js';

export type { EvidencePassage } from '../contract/evidence.js';
/** The record types live in the contract (`src/contract/judgment.ts`); judges name them from here. */
export type {
  ClaimVerdict,
  JudgedClaim,
  JudgeInfo,
  VerdictCounts,
  FaithfulnessOk,
  JudgeFailure,
  FaithfulnessJudgment,
  PairwiseCriteria,
  PairwiseOk,
  PairwiseJudgment,
} from '../contract/judgment.js';


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

export interface FaithfulnessJudge {
  readonly info: JudgeInfo;
  judge(input: FaithfulnessInput, options?: { abortSignal?: AbortSignal }): Promise<FaithfulnessJudgment>;
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

export interface PairwiseJudge {
  readonly info: JudgeInfo;
  judge(input: PairwiseInput, options?: { abortSignal?: AbortSignal }): Promise<PairwiseJudgment>;
}
