import { InvalidInputError } from '../errors.js';
import { COMPLETE_REFERENCE_RECALL, flagsOf, outcomeOf, type JudgmentOutcome } from '../contract/outcome.js';
import { isRefusal, REFUSAL_SENTENCE } from '../contract/refusal.js';
import { words } from '../text/text.js';
import { DEFAULT_FAITHFULNESS_POLICY } from './faithfulness-score.js';
import type { FaithfulnessJudgment, FaithfulnessPolicy, JudgedClaim, PairwiseCriteria } from './types.js';

/**
 * What both pairwise judges share: `noFabrication` computed in code from claim verdicts, and the
 * weighted rule that turns two sides' criteria into a winner. METHODOLOGY.md ("Pairwise") states
 * both rules; change them together.
 */

export type CriteriaWeights = Record<keyof PairwiseCriteria, number>;

/**
 * Default weights. `noFabrication` outweighs all the others together, so any answer with a
 * fabrication loses to any answer without one (a refusal included): "I don't know" beats a
 * confident wrong answer. Among clean answers, answering correctly outweighs citing and
 * conditions together; those two count one each.
 */
export const DEFAULT_CRITERIA_WEIGHTS: Readonly<CriteriaWeights> = Object.freeze({
  noFabrication: 6,
  answersCorrectly: 3,
  statesConditions: 1,
  citesRightSource: 1,
});

/**
 * No fabrication, from one answer's claim verdicts (never asked of a judge as a bare yes/no):
 * - claims known: no `contradicted` claim and, when `absentIsHallucination` (default), no
 *   `absent` claim. An answer with no checkable claim has fabricated nothing: `true`.
 * - claims `null` (no faithfulness verdict for this answer): `true` only when the answer is a
 *   refusal, which asserts nothing; otherwise `false`, because nothing vouches for it.
 *
 * @example
 * noFabrication('25 days.', [{ text: '25 days', verdict: 'verified', evidenceChunkId: 'a', note: '' }]) // true
 */
export function noFabrication(
  answer: string,
  claims: readonly JudgedClaim[] | null,
  policy: FaithfulnessPolicy = DEFAULT_FAITHFULNESS_POLICY,
  refusalSentence: string = REFUSAL_SENTENCE,
): boolean {
  if (claims === null) return isRefusal(answer, refusalSentence);
  return claims.every((claim) => claim.verdict === 'verified' || (claim.verdict === 'absent' && !policy.absentIsHallucination));
}

/** The claims of a side's judgment; `null` when it has none or it failed. */
export function claimsOf(judgment: FaithfulnessJudgment | null): JudgedClaim[] | null {
  return judgment === null || judgment.status !== 'ok' ? null : judgment.claims;
}

/** The outcome of a side's judgment, from the one outcome table; `null` without a judgment. */
export function sideOutcome(judgment: FaithfulnessJudgment | null): JudgmentOutcome | null {
  return judgment === null ? null : outcomeOf(flagsOf(judgment));
}

/**
 * Answers correctly, from the side's faithfulness verdicts (never asked of a judge): its outcome is
 * `correct`, or `correct_refusal` (refusing was the right answer). No judgment: `false`.
 *
 * @example
 * answersCorrectly(refusalJudgmentOnAMustRefuseQuestion) // true
 */
export function answersCorrectly(judgment: FaithfulnessJudgment | null): boolean {
  const outcome = sideOutcome(judgment);
  return outcome === 'correct' || outcome === 'correct_refusal';
}

/**
 * Whether a side is an answer to the question at all (not a refusal, not off topic, not an answer
 * that should have been a refusal): only then can it cite the right source or state the
 * conditions. Without a judgment, any non-refusal counts as an answer.
 */
export function isAnswer(answer: string, judgment: FaithfulnessJudgment | null, refusalSentence: string = REFUSAL_SENTENCE): boolean {
  const outcome = sideOutcome(judgment);
  if (outcome === null || outcome === 'judge_error') return !isRefusal(answer, refusalSentence);
  return outcome === 'correct' || outcome === 'incomplete' || outcome === 'hallucinated' || outcome === 'undetermined';
}

/** Weighted number of criteria a side satisfies. */
export function criteriaScore(criteria: PairwiseCriteria, weights: Readonly<CriteriaWeights> = DEFAULT_CRITERIA_WEIGHTS): number {
  let score = 0;
  for (const key of CRITERIA_KEYS) if (criteria[key]) score += weights[key];
  return score;
}

/**
 * The side with the higher weighted score wins; equal scores tie. Symmetric: swapping the sides
 * swaps the verdict.
 *
 * @example
 * winnerByCriteria(refusal, fabricated) // 'A' (6 points to at most 5)
 */
export function winnerByCriteria(a: PairwiseCriteria, b: PairwiseCriteria, weights: Readonly<CriteriaWeights> = DEFAULT_CRITERIA_WEIGHTS): 'A' | 'B' | 'tie' {
  const scoreA = criteriaScore(a, weights);
  const scoreB = criteriaScore(b, weights);
  return scoreA > scoreB ? 'A' : scoreB > scoreA ? 'B' : 'tie';
}

/**
 * A gap in reference-claim recall at least this wide decides between two failing answers before
 * their contradicted claims do (v16): a quarter of the known answer more is a difference a reader
 * sees, while one contradicted claim may be the claim rules misreading the asker's own words.
 * Between two answers that both answer correctly it decides before citing and conditions (v23).
 */
export const DECISIVE_RECALL_GAP = 0.25;

/**
 * A winner and the rule that chose it: the criteria, the reference (a side stating it against one
 * stating little of it, or, between two correct answers, the one stating clearly more of it), or a
 * non-answer's precedence (the losing side's kind).
 */
export interface PrecedenceDecision {
  winner: 'A' | 'B' | 'tie';
  decidedBy: 'criteria' | 'reference' | 'more_of_reference' | 'over_refusal' | 'off_topic';
}

/**
 * Between two answers that both answer correctly, judged with a reference answer (offline evals):
 * the one stating at least a quarter more of it (`DECISIVE_RECALL_GAP`) wins (v23), before citing
 * and conditions decide. Both are `correct`, so each states more than a third of the reference;
 * one stating all of it against one stating half is the more complete answer, which the
 * conditions criterion, read from words ("unless", "if", …), often misses, and citing the policy's
 * title is no substitute for the rest of the answer. Symmetric; `tie` without a reference (live).
 */
export function moreOfReference(a: FaithfulnessJudgment | null, b: FaithfulnessJudgment | null): 'A' | 'B' | 'tie' {
  if (a === null || b === null || a.status !== 'ok' || b.status !== 'ok') return 'tie';
  return byDecisiveRecallGap(a.referenceRecall, b.referenceRecall);
}

/**
 * The side stating at least `DECISIVE_RECALL_GAP` more of the reference answer; `tie` when the gap
 * is smaller or either side has no reference recall. Shared by {@link moreOfReference} and the
 * heuristic judge's tie-break between failing answers (`compareStanding`).
 */
export function byDecisiveRecallGap(recallA: number | null, recallB: number | null): 'A' | 'B' | 'tie' {
  if (recallA === null || recallB === null) return 'tie';
  const gap = recallA - recallB;
  if (Math.abs(gap) < DECISIVE_RECALL_GAP - 1e-9) return 'tie';
  return gap > 0 ? 'A' : 'B';
}

/**
 * The winner by the criteria, unless the side they chose does not answer correctly and the
 * reference decides ({@link referencePrecedence}) or a non-answer (an over-refusal or an
 * off-topic answer) meets an answer ({@link nonAnswerPrecedence}): what both pairwise judges
 * (heuristic, and LLM with `winnerRule: 'criteria'`) take as their winner, before their own
 * tie-breaks.
 */
export function winnerFromVerdicts(
  a: PairwiseCriteria,
  b: PairwiseCriteria,
  judgmentA: FaithfulnessJudgment | null,
  judgmentB: FaithfulnessJudgment | null,
  weights: Readonly<CriteriaWeights> = DEFAULT_CRITERIA_WEIGHTS,
): PrecedenceDecision {
  if (a.answersCorrectly && b.answersCorrectly) {
    const byRecall = moreOfReference(judgmentA, judgmentB);
    if (byRecall !== 'tie') return { winner: byRecall, decidedBy: 'more_of_reference' };
  }
  const byCriteria = winnerByCriteria(a, b, weights);
  const chosenAnswersCorrectly = byCriteria === 'A' ? a.answersCorrectly : byCriteria === 'B' ? b.answersCorrectly : false;
  if (!chosenAnswersCorrectly) {
    const byReference = referencePrecedence(judgmentA, judgmentB);
    if (byReference !== 'tie') return { winner: byReference, decidedBy: 'reference' };
    const byNonAnswer = nonAnswerPrecedence(judgmentA, judgmentB);
    if (byNonAnswer.loser !== null) return { winner: byNonAnswer.winner, decidedBy: byNonAnswer.loser };
  }
  return { winner: byCriteria, decidedBy: 'criteria' };
}

/**
 * A non-answer loses to a side that answers the question
 * (relevance `answers` or `partial`) with at least one verified claim and none contradicted:
 * - an over-refusal, a refusal where a chunk answers (v17): "I don't know" beats a confident
 *   answer only when nothing relevant was there, and here something was;
 * - an off-topic answer, a faithful answer to another question (v22): it fabricates nothing, but
 *   it gives the asker nothing either (a faithful answer that does not answer the question is a
 *   failure), so it is no better than a refusal; before, it won such a pair on `noFabrication`
 *   whenever the answering side had one claim the word rules could not find.
 * With a reference answer, the answering side must state at least a third of it (one stating
 * less is about something else, whatever its relevance verdict; v25, before which it had to state
 * more than a third: {@link ANSWERS_PART_RECALL}). Applied after
 * {@link referencePrecedence}, when the criteria chose a side that does not answer correctly;
 * live (no reference) as offline. Symmetric: the winner and the losing side's kind of non-answer,
 * or `tie` and `null` when it does not apply.
 */
export function nonAnswerPrecedence(a: FaithfulnessJudgment | null, b: FaithfulnessJudgment | null): { winner: 'A' | 'B' | 'tie'; loser: 'over_refusal' | 'off_topic' | null } {
  const kindB = answersWithoutContradiction(a) ? nonAnswerKind(b) : null;
  if (kindB !== null) return { winner: 'A', loser: kindB };
  const kindA = answersWithoutContradiction(b) ? nonAnswerKind(a) : null;
  if (kindA !== null) return { winner: 'B', loser: kindA };
  return { winner: 'tie', loser: null };
}

function answersWithoutContradiction(judgment: FaithfulnessJudgment | null): boolean {
  if (judgment === null || judgment.status !== 'ok' || judgment.refused) return false;
  if (judgment.answerRelevance !== 'answers' && judgment.answerRelevance !== 'partial') return false;
  const recall = judgment.referenceRecall;
  return judgment.counts.contradicted === 0 && judgment.counts.verified >= 1 && (recall === null || recall >= ANSWERS_PART_RECALL - 1e-9);
}

/**
 * Reference recall from which a side with a verified claim and none contradicted beats a non-answer
 * ({@link nonAnswerPrecedence}; v25): a third of the known answer. Before v25 it had to state more
 * than a third (the outcome table's `incomplete` bound, `COMPLETE_REFERENCE_RECALL`), so an answer
 * stating exactly one of three reference claims, verified and on topic, lost to an off-topic quote
 * or an over-refusal that gives the asker nothing.
 */
export const ANSWERS_PART_RECALL = 1 / 3;

/**
 * Words an off-topic answer's claims must hold between them for {@link nonAnswerPrecedence} to
 * apply. A name or a "yes" (four words or fewer) that the relevance check calls off topic is more
 * likely a terse answer it could not place than an answer to another question: HaluEval's right
 * answers are mostly such names, and 13 of its 500 pairs turned against them without this bound.
 */
export const OFF_TOPIC_MIN_WORDS = 5;

/** `over_refusal` or `off_topic` when the side is that kind of non-answer, else `null`. */
function nonAnswerKind(judgment: FaithfulnessJudgment | null): 'over_refusal' | 'off_topic' | null {
  if (isOverRefusal(judgment)) return 'over_refusal';
  if (sideOutcome(judgment) !== 'off_topic') return null;
  const stated = (claimsOf(judgment) ?? []).reduce((sum, claim) => sum + words(claim.text).length, 0);
  return stated >= OFF_TOPIC_MIN_WORDS ? 'off_topic' : null;
}

function isOverRefusal(judgment: FaithfulnessJudgment | null): boolean {
  return judgment !== null && judgment.status === 'ok' && judgment.refused && judgment.refusalVerdict === 'over_refusal';
}

/** Why the reference decided, for a judgment's reason. */
export function referenceReason(winner: 'A' | 'B'): string {
  return `${winner} states the reference answer (at least half of it contradicting nothing, or three quarters of it with at least as many claims verified as contradicted); ${winner === 'A' ? 'B' : 'A'} states little of it (a refusal where a chunk answers, or an answer stating under a third of the reference).`;
}

/** Why a non-answer lost, for a judgment's reason. */
export function nonAnswerReason(winner: 'A' | 'B', loser: 'over_refusal' | 'off_topic'): string {
  const other = winner === 'A' ? 'B' : 'A';
  const what = loser === 'over_refusal' ? 'refuses although a passage answers (an over-refusal)' : 'does not answer the question (off topic)';
  return `${other} ${what}; ${winner} answers the question with a verified claim and none contradicted.`;
}

/** Why {@link winnerFromVerdicts} chose its winner when a precedence rule decided, for a judgment's reason; `''` when the criteria did (or it is a tie). */
export function precedenceReason(decided: PrecedenceDecision): string {
  if (decided.winner === 'tie' || decided.decidedBy === 'criteria') return '';
  if (decided.decidedBy === 'reference') return referenceReason(decided.winner);
  if (decided.decidedBy === 'more_of_reference') return `Both answer correctly; ${decided.winner} states at least a quarter more of the reference answer.`;
  return nonAnswerReason(decided.winner, decided.decidedBy);
}

/** Reference recall at or above which a side that contradicts nothing counts as stating the reference answer. */
export const STATES_REFERENCE_RECALL = 0.5;
/**
 * Reference recall at or above which a side counts as stating the reference answer although the
 * claim rules contradicted one of its claims, as long as they verified at least as many of its
 * claims as they contradicted (pairwise v16: more verified than contradicted; v24: at least as
 * many, so one verified and one contradicted claim beside the whole reference stated counts). A
 * correct answer in the asker's own words is often read as contradicting one sentence ("paid the
 * Friday before, not the Monday after" against an overtime rule about Mondays) while it states most
 * of the known answer; a wrong answer rarely does both:
 * on the development files, of the answers with a contradicted claim, 5 correct ones and 1
 * fabricated one stated at least 75% of the reference, and none labelled contradicted.
 */
export const STATES_REFERENCE_DESPITE_CONTRADICTION = 0.75;

/**
 * Offline (a reference answer exists): a side that states at least half of the reference answer's
 * claims and contradicts none (or, since v16, three quarters of them with more claims verified than
 * contradicted; since v24, at least as many verified as contradicted) beats a side that states
 * little of it: a refusal where a chunk answers (over-refusal), or an answer stating under a third of the reference (an answer about
 * something else, a partial one, or one whose details are made up). "I don't know" beats a
 * confident answer only when nothing relevant was there; and an answer whose claims the word rules
 * could not find (absent) but which states the known answer is more likely said in other words
 * than made up. Symmetric; `tie` when it does not apply (always, without a reference).
 */
export function referencePrecedence(a: FaithfulnessJudgment | null, b: FaithfulnessJudgment | null): 'A' | 'B' | 'tie' {
  const statesA = statesReference(a);
  const statesB = statesReference(b);
  if (statesA && !statesB && statesLittle(b)) return 'A';
  if (statesB && !statesA && statesLittle(a)) return 'B';
  return 'tie';
}

function statesReference(judgment: FaithfulnessJudgment | null): boolean {
  if (judgment === null || judgment.status !== 'ok' || judgment.refused || judgment.referenceRecall === null) return false;
  const { contradicted, verified } = judgment.counts;
  if (contradicted === 0) return judgment.referenceRecall >= STATES_REFERENCE_RECALL;
  return judgment.referenceRecall >= STATES_REFERENCE_DESPITE_CONTRADICTION && contradicted <= verified;
}

/** A refusal where a chunk answers, or an answer stating under a third of the reference (the outcome table's `incomplete` bound). */
function statesLittle(judgment: FaithfulnessJudgment | null): boolean {
  if (judgment === null || judgment.status !== 'ok') return false;
  if (judgment.refused) return isOverRefusal(judgment);
  return judgment.referenceRecall !== null && judgment.referenceRecall < COMPLETE_REFERENCE_RECALL;
}

export const CRITERIA_KEYS: readonly (keyof PairwiseCriteria)[] = ['noFabrication', 'answersCorrectly', 'statesConditions', 'citesRightSource'];

/** Merge user weights over the defaults, naming the bad option. */
export function normalizeWeights(weights: Partial<CriteriaWeights> | undefined): CriteriaWeights {
  const merged = { ...DEFAULT_CRITERIA_WEIGHTS, ...weights };
  for (const key of CRITERIA_KEYS) {
    const value = merged[key];
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      throw new InvalidInputError(`option weights.${key} ${String(value)} is invalid: use a finite number ≥ 0`, { code: 'invalid_option' });
    }
  }
  for (const key of Object.keys(weights ?? {})) {
    if (!CRITERIA_KEYS.includes(key as keyof PairwiseCriteria)) {
      throw new InvalidInputError(`option weights.${key} is unknown: use ${CRITERIA_KEYS.join(', ')}`, { code: 'invalid_option' });
    }
  }
  return merged;
}

/** "answers correctly, cites the source" — for `reason` strings. */
export function describeCriteria(criteria: PairwiseCriteria): string {
  const parts = [
    criteria.answersCorrectly ? 'answers correctly' : 'does not answer correctly',
    criteria.citesRightSource ? 'cites the right source' : 'does not cite the right source',
    criteria.statesConditions ? 'states the conditions' : 'misses conditions',
    criteria.noFabrication ? 'no fabrication' : 'fabricates',
  ];
  return parts.join(', ');
}
