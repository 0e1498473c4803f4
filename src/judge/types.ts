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
  ContextVerdict,
  JudgedContext,
  AnswerRelevance,
  RefusalVerdict,
  ReferenceClaim,
} from '../contract/judgment.js';


export interface FaithfulnessInput {
  question: string;
  /** The trace's exact chunks (plus optional reference excerpts). */
  evidence: EvidencePassage[];
  answer: string;
  /**
   * A person's reference answer (offline evals): its claims are checked against the answer for
   * reference-claim recall. It is never evidence on its own: the heuristic judge (v87) may
   * recognise a claim that restates a reference claim, which then rests on the retrieved chunk
   * stating that reference claim. [reference=null]
   */
  reference?: string | null;
  /**
   * Whether the question asks for someone's personal or confidential data, when the caller knows
   * (an eval's guardrail questions); otherwise the judge decides. [personalData=undefined]
   */
  personalData?: boolean;
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
  /**
   * Each side's faithfulness judgment (`null` when there is none, or it failed): `noFabrication`
   * comes from its claims and `answersCorrectly` from its outcome.
   */
  judgmentA: FaithfulnessJudgment | null;
  judgmentB: FaithfulnessJudgment | null;
}

export interface PairwiseJudge {
  readonly info: JudgeInfo;
  judge(input: PairwiseInput, options?: { abortSignal?: AbortSignal }): Promise<PairwiseJudgment>;
}
