import { InvalidInputError } from '../errors.js';
import type { FaithfulnessOk, FaithfulnessPolicy, JudgedClaim, VerdictCounts } from './types.js';

/** Absent claims count as hallucinations: an answer must stay inside its sources. */
export const DEFAULT_FAITHFULNESS_POLICY: FaithfulnessPolicy = Object.freeze({ absentIsHallucination: true });

/**
 * Merge a partial policy over the default, checking each field once, at construction.
 *
 * @example
 * resolvePolicy({ absentIsHallucination: false }) // { absentIsHallucination: false }
 */
export function resolvePolicy(policy: Partial<FaithfulnessPolicy> | undefined): FaithfulnessPolicy {
  if (policy === undefined) return { ...DEFAULT_FAITHFULNESS_POLICY };
  if (typeof policy !== 'object' || policy === null) {
    throw new InvalidInputError(`option policy ${JSON.stringify(policy)} is invalid: use an object such as { absentIsHallucination: true }`, { code: 'invalid_option' });
  }
  const absent = policy.absentIsHallucination;
  if (absent !== undefined && typeof absent !== 'boolean') {
    throw new InvalidInputError(`option policy.absentIsHallucination ${JSON.stringify(absent)} is invalid: use true or false`, { code: 'invalid_option' });
  }
  return { absentIsHallucination: absent ?? DEFAULT_FAITHFULNESS_POLICY.absentIsHallucination };
}

export type DerivedFaithfulness = Pick<FaithfulnessOk, 'counts' | 'faithful' | 'hallucinated' | 'correctlyRefused' | 'undetermined'>;

/**
 * The one place scores are computed from claim verdicts; both judges call it, so a heuristic and
 * an LLM judgment of the same claims always score the same. Judges are never asked for a score.
 *
 * - `hallucinated` = contradicted > 0, or (absent > 0 when `absentIsHallucination`).
 * - `undetermined` = no checkable claim and not a refusal.
 * - `faithful` = `null` for a refusal or an undetermined answer; otherwise `!hallucinated`.
 * - `correctlyRefused` = `null` when the evidence is relevant (refusal does not apply); otherwise
 *   `refused && !hallucinated` (an answer that refuses but still slips in an unsupported claim,
 *   or that does not refuse at all, is `false`).
 *
 * @example
 * deriveFaithfulness([{ text: 'x', verdict: 'absent', evidenceChunkId: null, note: '' }], { refused: false, evidenceRelevant: true }, DEFAULT_FAITHFULNESS_POLICY)
 * // { counts: { verified: 0, contradicted: 0, absent: 1 }, faithful: false, hallucinated: true, correctlyRefused: null, undetermined: false }
 */
export function deriveFaithfulness(
  claims: readonly JudgedClaim[],
  flags: { refused: boolean; evidenceRelevant: boolean },
  policy: FaithfulnessPolicy,
): DerivedFaithfulness {
  const counts: VerdictCounts = { verified: 0, contradicted: 0, absent: 0 };
  for (const claim of claims) counts[claim.verdict] += 1;
  const hallucinated = counts.contradicted > 0 || (policy.absentIsHallucination && counts.absent > 0);
  const checkable = claims.length > 0;
  const undetermined = !flags.refused && !checkable;
  const faithful = flags.refused || !checkable ? null : !hallucinated;
  const correctlyRefused = flags.evidenceRelevant ? null : flags.refused && !hallucinated;
  return { counts, faithful, hallucinated, correctlyRefused, undetermined };
}
