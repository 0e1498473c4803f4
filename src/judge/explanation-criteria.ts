import type { JudgedClaim, PairwiseCriteria, PairwiseOk } from '../contract/judgment.js';

/**
 * The explicit questions a pairwise judge answers about an error explanation, the weighted rule
 * that turns two sides' answers into a winner, and what the judge is told about the error (the
 * fixture's known cause and fix location). Both explanation judges (heuristic and LLM) share
 * them; METHODOLOGY.md ("Explaining errors") states the rules.
 */

/** The explicit questions, for one explanation. */
export interface ExplanationCriteria {
  /** It names the actual cause (the fixture's cause), not only the symptom. */
  foundCause: boolean;
  /** It points to where the fix goes: the fix file and the function (or a line inside it). */
  pointsToFixLocation: boolean;
  /** It proposes a fix that would work. */
  proposesWorkingFix: boolean;
  /** It says what the error means in words a learner follows. */
  explainsForLearner: boolean;
  /** No fabrication: from the explanation's claim verdicts against the excerpt, never asked as a bare yes/no. */
  noFabrication: boolean;
}

export type ExplanationWeights = Record<keyof ExplanationCriteria, number>;

/**
 * Default weights. `noFabrication` outweighs the four others together (9 > 8): an explanation
 * that invents code loses to one that says less but nothing false. Among clean ones, finding the
 * cause counts most, then where and how to fix it, then the learner's explanation.
 */
export const DEFAULT_EXPLANATION_WEIGHTS: Readonly<ExplanationWeights> = Object.freeze({
  noFabrication: 9,
  foundCause: 3,
  pointsToFixLocation: 2,
  proposesWorkingFix: 2,
  explainsForLearner: 1,
});

export const EXPLANATION_CRITERIA_KEYS: readonly (keyof ExplanationCriteria)[] = ['foundCause', 'pointsToFixLocation', 'proposesWorkingFix', 'explainsForLearner', 'noFabrication'];

/** What the judge knows about the error: a fixture's expected cause and fix location. */
export interface ExplanationReference {
  /** The cause in a sentence, for an LLM judge and for people. */
  cause: string;
  /** Where the fix goes: the file (`null` when it is outside the code, e.g. the request body) and the function or thing to change. */
  fixLocation: { file: string | null; symbol: string; aliases: string[]; lines: [number, number] | null };
  /** The fix in a sentence. */
  fix: string;
  /** Groups of phrases; an explanation names the cause when it mentions one phrase of every group. */
  causeKeywords: string[][];
  /** The same for a working fix (mentioned in a sentence that proposes a change). */
  fixKeywords: string[][];
}

/** Weighted score of one side. */
export function explanationScore(criteria: ExplanationCriteria, weights: Readonly<ExplanationWeights> = DEFAULT_EXPLANATION_WEIGHTS): number {
  let score = 0;
  for (const key of EXPLANATION_CRITERIA_KEYS) if (criteria[key]) score += weights[key];
  return score;
}

/** The higher weighted score wins; equal scores tie. Symmetric: swapping the sides swaps the verdict. */
export function explanationWinner(a: ExplanationCriteria, b: ExplanationCriteria, weights: Readonly<ExplanationWeights> = DEFAULT_EXPLANATION_WEIGHTS): 'A' | 'B' | 'tie' {
  const scoreA = explanationScore(a, weights);
  const scoreB = explanationScore(b, weights);
  return scoreA > scoreB ? 'A' : scoreB > scoreA ? 'B' : 'tie';
}

/**
 * A pairwise verdict on two explanations. It is a `PairwiseOk`, so the shared protocol
 * (`judgePair`: blind, both orders, seeded order) runs it unchanged; its `a`/`b` carry the
 * question-answering view of the same verdict (answersCorrectly = foundCause, citesRightSource =
 * pointsToFixLocation, statesConditions = proposesWorkingFix) for readers that know only that
 * shape, and `explanation` holds the explanation criteria the winner was computed from.
 */
export interface ExplanationPairwiseOk extends PairwiseOk {
  explanation: { a: ExplanationCriteria; b: ExplanationCriteria };
}

/** The question-answering view of explanation criteria (see {@link ExplanationPairwiseOk}). */
export function asPairwiseCriteria(criteria: ExplanationCriteria): PairwiseCriteria {
  return {
    answersCorrectly: criteria.foundCause,
    citesRightSource: criteria.pointsToFixLocation,
    statesConditions: criteria.proposesWorkingFix,
    noFabrication: criteria.noFabrication,
  };
}

/** Whether a pairwise judgment carries explanation criteria. */
export function isExplanationJudgment(judgment: unknown): judgment is ExplanationPairwiseOk {
  return typeof judgment === 'object' && judgment !== null && (judgment as { status?: unknown }).status === 'ok' && typeof (judgment as { explanation?: unknown }).explanation === 'object';
}

const CODE_SPAN = /`[^`\n]+`/;
const FILE_REFERENCE = /[\w.-]+\/[\w./-]*\.[a-z]{1,4}\b|\b[\w-]+\.(?:[cm]?[jt]sx?|html|ejs|hbs|json|sql)(?::\d+)?\b/i;
const IDENTIFIER = /\b[a-z]+[A-Z]\w*\b|\b\w+\.\w+\(|\b[a-z]+_[a-z]\w*\b/;

/**
 * Whether an explanation states code specifics (code spans, file paths or `file:line`, camelCase
 * or dotted names): an explanation that does, and yet gets no claims from a judge, was not
 * checked, and counts as a judge failure rather than as "nothing fabricated".
 *
 * @example
 * statesCodeSpecifics('`findPost` returns undefined') // true
 */
export function statesCodeSpecifics(explanation: string): boolean {
  return CODE_SPAN.test(explanation) || FILE_REFERENCE.test(explanation) || IDENTIFIER.test(explanation);
}

/** Claims of an explanation for judging: `null` (no verdicts) when a side's claim judgment failed. */
export type ExplanationClaims = JudgedClaim[] | null;
