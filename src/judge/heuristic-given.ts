import { questionTerms } from '../text/question-terms.js';
import { analyze, type Analysis } from './heuristic-analysis.js';
import { WEEKDAY } from './heuristic-quantities.js';
import { hasStem } from './heuristic-tokens.js';

/**
 * Details the user gave (v13). An answer often restates the asker's own situation before the rule
 * that settles it ("Leeds counts as elsewhere in the UK", "any holiday you've earned but not used
 * … is paid in your final salary" for a question about unused holiday): the evidence states the
 * rule in its own words ("Elsewhere in the UK", "annual leave") and never the asker's detail, so
 * that word is missing from every sentence. Such a word is not counted as missing when the rest of
 * the claim is what the sentence states. Guarded, since fabrications echo the question too
 * ("Yes, you can get paid in bitcoin"; METHODOLOGY.md, "Changes in v4" and "Changes in v5"):
 * - at most {@link MAX_GIVEN_DETAILS} such word: a claim made mostly of the question's words
 *   verifies nothing;
 * - most of the claim's words are its own (neither the question's nor light words) and found in
 *   the sentence: a claim whose only support is the question's words verifies nothing;
 * - the claim states no figure: a figure's own words pin it to the evidence's figure for the same
 *   thing ("the cap in Manchester is £190" must not meet London's £190 because "Manchester" was
 *   excused), so a detail describing a figure is never excused;
 * - the sentence's passage does not use the word anywhere: a word the passage uses is found where
 *   it uses it ("Alf Clausen composed the theme" must meet the sentence about the theme; HaluEval
 *   lost two hallucinated answers without this);
 * - not a bare answer and not a table row (those are read against the question already).
 */
export const MAX_GIVEN_DETAILS = 1;

/**
 * The claim's missing stems that are details of the question and may be excused, or none.
 *
 * @example
 * givenDetails(analyze('Leeds counts as elsewhere in the UK'), ['leed'], ['elsewher', 'uk'], analyze(question).stemSet, unit.passageStems, isLight)
 * // ['leed']
 */
export function givenDetails(
  claim: Analysis,
  missing: readonly string[],
  covered: readonly string[],
  question: ReadonlySet<string>,
  passage: ReadonlySet<string>,
  isLight: (stem: string) => boolean,
): string[] {
  if (question.size === 0 || claim.quantities.length > 0 || claim.row !== null || missing.length === 0) return [];
  const details = missing.filter((stem) => hasStem(question, stem) && !hasStem(passage, stem));
  if (details.length === 0 || details.length > MAX_GIVEN_DETAILS) return [];
  const ownSupport = covered.filter((stem) => !hasStem(question, stem) && !isLight(stem));
  return ownSupport.length * 2 > claim.stems.length ? details : [];
}

/** A condition opening or closing a claim: "If you think it's unfair, …", "…, since it's a Saturday". */
const LEADING_CONDITION = /^(?:(?:yes|no)\b[\s,.:;!-]*)?(?:if|when|since|as|because|once)\s+([^,;:]+),/i;
const TRAILING_CONDITION = /,?\s+(?:if|when|since|because)\s+([^,;:]+?)[.!]?$/i;

/**
 * The stems of a condition that only restates the asker's situation (v16): "If you think it's
 * unfair, appeal within 10 working days" for "What can I do if I think it's unfair?", "…, since
 * it's a Saturday" for a question about this Saturday. The condition is the question's, not a
 * statement about the documents, so its words are not looked for in the evidence. Only when every
 * content word of the condition is the question's (or a light word) and it states no figure; the
 * rest of the claim is judged as before.
 *
 * @example
 * restatedCondition("If you think it's unfair, appeal in writing within 10 working days.", analyze('What can I do if I think it is unfair?').stemSet, isLight)
 * // ['think', 'unfair']
 */
export function restatedCondition(text: string, question: ReadonlySet<string>, isLight: (stem: string) => boolean): string[] {
  if (question.size === 0) return [];
  const stems: string[] = [];
  for (const pattern of [LEADING_CONDITION, TRAILING_CONDITION]) {
    const clause = pattern.exec(text.trim())?.[1];
    if (!clause) continue;
    const analysis = analyze(clause);
    if (analysis.quantities.length > 0 || analysis.stems.length === 0) continue;
    if (analysis.stems.every((stem) => hasStem(question, stem) || isLight(stem))) stems.push(...analysis.stems.filter((stem) => hasStem(question, stem)));
  }
  return stems;
}

/**
 * Days of the week the asker named only outside the clause that asks ("been off sick since monday
 * … can i self certify?"), as stems: their calendar, which no sentence need name when a claim
 * restates it (v94; `JudgeClaimOptions.askersDays`). A day the asking clause names ("Do we get a
 * free lunch on Fridays?") is what is asked about, and is left out.
 */
export function askersWeekdays(question: string): Set<string> {
  const terms = questionTerms(question, { typedSentences: true });
  const asked = new Set(terms.filter((term) => term.asking).map((term) => term.stem));
  return new Set(terms.filter((term) => !term.asking && !asked.has(term.stem) && WEEKDAY.test(term.word.toLowerCase())).map((term) => term.stem));
}
