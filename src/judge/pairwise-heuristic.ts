import { passageParts } from '../contract/evidence.js';
import { sectionPath } from '../contract/formats.js';
import { InvalidInputError } from '../errors.js';
import { contentStems, splitSentences, words } from '../text/text.js';
import { EMPTY_USAGE } from '../providers/spec.js';
import { isRefusal, REFUSAL_SENTENCE } from '../contract/refusal.js';
import { DEFAULT_FAITHFULNESS_POLICY } from './faithfulness-score.js';
import { withoutQuantityWord } from './heuristic-analysis.js';
import {
  answersCorrectly,
  claimsOf,
  criteriaScore,
  describeCriteria,
  isAnswer,
  noFabrication,
  normalizeWeights,
  precedenceReason,
  winnerFromVerdicts,
  type CriteriaWeights,
  sideOutcome,
  byDecisiveRecallGap,
} from './pairwise-criteria.js';
import type { EvidencePassage, FaithfulnessJudgment, FaithfulnessPolicy, JudgeInfo, PairwiseCriteria, PairwiseInput, PairwiseJudge, PairwiseOk } from './types.js';

/**
 * Bumped whenever a rule below could change a verdict.
 * - `pairwise-heuristic-v2`: answersCorrectly is the side's faithfulness outcome (`correct`, or
 *   `correct_refusal`); citing and conditions count only for a side that answers the question.
 * - `pairwise-heuristic-v3`: a tie on the criteria is broken by the claim verdicts: fewer
 *   contradicted claims, then a larger share of verified claims.
 * - `pairwise-heuristic-v4`: refusals recognised in more words, and pointers after a refusal are
 *   no claims (`isRefusal`, `splitAnswer`; the heuristic judge's v10).
 * - `pairwise-heuristic-v5`: with a reference answer (offline evals), a side that states at least
 *   half of it and contradicts nothing beats an over-refusal or an answer stating under a third of
 *   it, unless the criteria already chose a side that answers correctly (`referencePrecedence`).
 * - `pairwise-heuristic-v6`: a tie left by the criteria and the claim verdicts goes to a side that
 *   answers part of the question (`incomplete`) over one that answers none of it (`off_topic`, or
 *   `over_refusal`: `comparePartialAnswer`).
 * - `pairwise-heuristic-v7`: the question's words are read without "how quickly", "how fast",
 *   "how big" … as without "how long" (`withoutQuantityWord`, the heuristic judge's v36), which can
 *   change the passage that best matches the question.
 * - `pairwise-heuristic-v9`: more refusal wordings ("I don't have access to that information", "None of the documents mention …", "It's not clear from the documents"; `isRefusal`; the heuristic judge's v50).
 * - `pairwise-heuristic-v8`: refusals in chat wording and more pointers after a refusal (`isRefusal`, `isRefusalAside`; the heuristic judge's v46).
 * - `pairwise-heuristic-v11`: questions back to the user are no claims ("Is it a particular gym you're thinking of?"); more refusal wordings ("I'm not aware of a gym discount.", "Not that I can find", "Not as far as I can tell from the handbook", "… aren't mentioned anywhere in the leave policy", "There doesn't seem to be a …", "Can't find anything on …") and pointers after a refusal ("You could check MyHarbour", "Have a look at …", "Worth a quick message to …", "I'd assume not"; `splitAnswer`, `isRefusal`, `isRefusalAside`; the heuristic judge's v62).
 * - `pairwise-heuristic-v10`: more refusal wordings ("There's no policy on dogs in what I've got", "Colleagues' pay isn't something I can share", "Hmm, not sure.", "… aren't available to me") and asides after a refusal ("The handbook talks about …", "I'd rather not guess"; `isRefusal`, `isRefusalAside`; the heuristic judge's v60).
 * - `pairwise-heuristic-v12`: more refusal wordings that say whose sources they are ("There isn't a policy on pet insurance that I can see", "The policies I can see don't cover that", "Nothing in the documents I have covers …", "That isn't something the documents address", "The handbook is quiet on that one"; `isRefusal`; the heuristic judge's v91).
 * - `pairwise-heuristic-v13`: a tie on the criteria between sides contradicted equally goes to the
 *   side stating more of the reference answer (reference-claim recall, offline evals) before the
 *   larger verified share.
 * - `pairwise-heuristic-v14`: a fourth list of refusal wordings ("I've had a look and can't see anything about that", "Nothing comes up for that", "That doesn't seem to be covered anywhere", "It doesn't say in the handbook", "I don't see a policy for that", "No policy on that that I could find", "That isn't in anything I've got", "There aren't any rules about that in the handbook"), and "There's nothing in the handbook that stops you" is an answer; `isRefusal`; the heuristic judge's v98.
 * - `pairwise-heuristic-v15`: more pointers after a refusal are asides ("Might be worth dropping HR a line", "Give the Service Desk a shout", "HR are best placed to answer that", "That's one for the People team", "Probably one for your manager"; `isRefusalAside`; the heuristic judge's v99).
 * - `pairwise-heuristic-v16`: with a reference answer, a side stating three quarters of it with more
 *   claims verified than contradicted states it (`referencePrecedence`, shared with the LLM judge),
 *   and between two failing answers a reference-recall gap of a quarter decides before the
 *   contradicted claims (`compareStanding`).
 * - `pairwise-heuristic-v17`: an over-refusal loses to a side that answers the question (or part of
 *   it) with a verified claim and none contradicted, stating more than a third of the reference
 *   where there is one (`nonAnswerPrecedence`, shared with the LLM judge).
 * - `pairwise-heuristic-v18`: a fifth list of refusal wordings ("I don't have contact details for Payroll", "I've got nothing on that", "Nothing on sabbaticals in what I can see", "I can't pull up another employee's payslip", "Can't help with that one", "I'm not sure the handbook covers …", "… don't come up in the policies I can see") and pointers after a refusal ("The People team can contact him for you", "Your manager should have the dates", "individual pay is confidential", "you'd need to ask Payroll", a contact in parentheses); `isRefusal`, `isRefusalAside`; the heuristic judge's v104.
 * - `pairwise-heuristic-v19`: the claims and the question as the heuristic judge's v105 reads them (answers typed in lower case split into sentences; "must not exceed 48 hours" an upper bound; "decline to" a negation; clipped words written out).
 * - `pairwise-heuristic-v20`: a tie left by the criteria and the claim verdicts goes to the side whose unverified claims invent fewer figures or names that neither the evidence nor the question holds (`compareInvented`), before v6's partial-answer tie-break.
 * - `pairwise-heuristic-v21`: the claims as the heuristic judge's v107 reads them (social remarks with an interjection or an adverb, "ugh, sorry!", are no claims); its rules are unchanged.
 * - `pairwise-heuristic-v22`: an off-topic answer (faithful, answering another question) loses, as an
 *   over-refusal does since v17, to a side that answers the question (or part of it) with a verified
 *   claim and none contradicted, stating more than a third of the reference where there is one
 *   (`nonAnswerPrecedence`, shared with the LLM judge); before, it won on `noFabrication`.
 * - `pairwise-heuristic-v23`: between two sides that both answer correctly, judged with a
 *   reference answer, the one stating at least a quarter more of it wins before citing and
 *   conditions decide (`moreOfReference`, shared with the LLM judge).
 * - `pairwise-heuristic-v24`: with a reference answer, a side stating three quarters of it counts
 *   as stating it when the claim rules verified at least as many of its claims as they
 *   contradicted (v16: more verified than contradicted), so one verified and one contradicted claim
 *   beside the whole reference stated beats an over-refusal or an answer stating little of it
 *   (`referencePrecedence`, shared with the LLM judge).
 * - `pairwise-heuristic-v25`: with a reference answer, a side with a verified claim and none
 *   contradicted beats an over-refusal or an off-topic answer when it states at least a third of
 *   the reference (v17 and v22: more than a third; `ANSWERS_PART_RECALL`, shared with the LLM judge).
 */
export const HEURISTIC_PAIRWISE_VERSION = 'pairwise-heuristic-v25';

export interface HeuristicPairwiseJudgeOptions {
  /** Whether absent claims count as fabrication for `noFabrication`. [policy={ absentIsHallucination: true }] */
  policy?: FaithfulnessPolicy;
  /** Criterion weights for the winner. [weights={ noFabrication: 6, answersCorrectly: 3, statesConditions: 1, citesRightSource: 1 }] */
  weights?: Partial<CriteriaWeights>;
  /** The sentence the app refuses with. [refusalSentence=REFUSAL_SENTENCE] */
  refusalSentence?: string;
}

/**
 * The offline pairwise judge: deterministic rules over the question, the evidence, the two
 * answers and their claim verdicts. Each side's criteria depend only on that side's answer and
 * claims (plus the shared question and evidence), and the winner is the weighted comparison, so
 * swapping A and B swaps the verdict: position bias is zero by construction.
 *
 * - answersCorrectly: the side's faithfulness outcome is `correct` or `correct_refusal`.
 * - citesRightSource: the side answers the question, and it names the title (or the last heading of
 *   the section) of the passage that best matches the question.
 * - statesConditions: the side answers the question, a best passage exists, and every condition sentence of that
 *   passage (prose with unless / except / only if / if / at least / up to / more than / under /
 *   over / within / maximum…, sharing ≥ min(2, |Q|) stems with the question) is reflected in the
 *   answer: all its numbers present, and ≥ half its content stems.
 * - noFabrication: from the claims (see `noFabrication`).
 *
 * The winner is the weighted comparison, or, with a reference answer, the side that states it when
 * the comparison chose one that does not answer correctly (`winnerFromVerdicts`); a tie is broken
 * by the claim verdicts.
 *
 * @example
 * const judge = createHeuristicPairwiseJudge();
 * const judgment = await judge.judge({ question, evidence, answerA, answerB, claimsA, claimsB });
 */
export function createHeuristicPairwiseJudge(options: HeuristicPairwiseJudgeOptions = {}): PairwiseJudge {
  const weights = normalizeWeights(options.weights);
  const policy = options.policy ?? DEFAULT_FAITHFULNESS_POLICY;
  if (typeof policy.absentIsHallucination !== 'boolean') {
    throw new InvalidInputError('option policy.absentIsHallucination must be true or false', { code: 'invalid_option' });
  }
  const refusalSentence = options.refusalSentence ?? REFUSAL_SENTENCE;
  const info: JudgeInfo = Object.freeze({ kind: 'heuristic', model: 'heuristic', promptVersion: HEURISTIC_PAIRWISE_VERSION });

  return {
    info,
    async judge(input: PairwiseInput): Promise<PairwiseOk> {
      const started = performance.now();
      const shared = analyzeQuestion(input.question, input.evidence);
      const a = heuristicCriteria(shared, input.answerA, input.judgmentA, policy, refusalSentence);
      const b = heuristicCriteria(shared, input.answerB, input.judgmentB, policy, refusalSentence);
      const decided = winnerFromVerdicts(a, b, input.judgmentA, input.judgmentB, weights);
      const standingA = claimStanding(input.judgmentA);
      const standingB = claimStanding(input.judgmentB);
      const byStanding = decided.winner !== 'tie' ? decided.winner : compareStanding(standingA, standingB);
      const known = byStanding === 'tie' ? knownSpecifics(input.evidence, input.question) : null;
      const byInvented = known ? compareInvented(inventedSpecifics(input.judgmentA, known), inventedSpecifics(input.judgmentB, known)) : 'tie';
      const byPart = byStanding === 'tie' && byInvented === 'tie' ? comparePartialAnswer(input.judgmentA, input.judgmentB) : 'tie';
      const winner = byStanding !== 'tie' ? byStanding : byInvented !== 'tie' ? byInvented : byPart;
      const precedence = precedenceReason(decided);
      const why = precedence
        ? ` ${precedence}`
        : byInvented !== 'tie'
          ? ` Equal criteria and claim verdicts; ${byInvented === 'A' ? 'B' : 'A'} states a figure or a name that neither the evidence nor the question holds in more of its unverified claims.`
          : byPart !== 'tie'
          ? ` Equal criteria and claim verdicts; ${byPart} answers part of the question, ${byPart === 'A' ? 'B' : 'A'} none of it (${sideOutcome(byPart === 'A' ? input.judgmentB : input.judgmentA)}).`
          : decided.winner === 'tie' && winner !== 'tie'
            ? ` Equal criteria; ${winner} is contradicted less, states more of the reference or is supported more by the evidence (A: ${describeStanding(standingA)}; B: ${describeStanding(standingB)}).`
            : '';
      const reason = `A (${criteriaScore(a, weights)}): ${describeCriteria(a)}. B (${criteriaScore(b, weights)}): ${describeCriteria(b)}.${why}`;
      return { status: 'ok', judge: info, a, b, winner, reason, usage: { ...EMPTY_USAGE }, costUsd: 0, durationMs: performance.now() - started };
    },
  };
}

/**
 * How the evidence stands towards one side's claims, for breaking a tie on the criteria: two
 * answers that both fail `noFabrication` are not equally bad when the evidence contradicts one and
 * only fails to confirm the other, or confirms more of one. `null` without claims.
 */
export interface ClaimStanding {
  contradicted: number;
  /** Verified claims / claims. */
  verifiedShare: number;
  /** The judgment's reference-claim recall (offline evals, v13), or null. */
  referenceRecall: number | null;
}

export function claimStanding(judgment: FaithfulnessJudgment | null): ClaimStanding | null {
  const claims = claimsOf(judgment);
  if (claims === null || claims.length === 0) return null;
  return {
    contradicted: claims.filter((claim) => claim.verdict === 'contradicted').length,
    verifiedShare: claims.filter((claim) => claim.verdict === 'verified').length / claims.length,
    referenceRecall: judgment?.status === 'ok' ? judgment.referenceRecall : null,
  };
}

/**
 * The last tie-break (v6): a faithful answer to part of the question (`incomplete`) beats a
 * faithful answer to none of it (`off_topic`) and a refusal where a chunk answers (`over_refusal`).
 * Both fail, but one gives the asker some of what they asked. Symmetric.
 */
export function comparePartialAnswer(a: FaithfulnessJudgment | null, b: FaithfulnessJudgment | null): 'A' | 'B' | 'tie' {
  const partA = sideOutcome(a) === 'incomplete';
  const partB = sideOutcome(b) === 'incomplete';
  if (partA && NONE_OF_IT.has(sideOutcome(b) ?? '')) return 'A';
  if (partB && NONE_OF_IT.has(sideOutcome(a) ?? '')) return 'B';
  return 'tie';
}

const NONE_OF_IT: ReadonlySet<string> = new Set(['off_topic', 'over_refusal']);


/**
 * When both were judged knowing the reference answer and one states at least a quarter more of it
 * (`DECISIVE_RECALL_GAP`), that one wins (v16); otherwise fewer contradicted claims wins; then the
 * one stating more of the reference (v13: between two failing answers, the one closer to the known
 * answer; a correct answer in the user's own words whose claims the word rules could not find
 * still states the reference more often than an invented or partial one does); then a larger
 * verified share; anything else (or a side without claims) ties. Symmetric.
 */
export function compareStanding(a: ClaimStanding | null, b: ClaimStanding | null): 'A' | 'B' | 'tie' {
  if (a === null || b === null) return 'tie';
  const decisive = byDecisiveRecallGap(a.referenceRecall, b.referenceRecall);
  if (decisive !== 'tie') return decisive;
  const recallGap = a.referenceRecall !== null && b.referenceRecall !== null ? a.referenceRecall - b.referenceRecall : 0;
  if (a.contradicted !== b.contradicted) return a.contradicted < b.contradicted ? 'A' : 'B';
  if (Math.abs(recallGap) > 1e-9) return recallGap > 0 ? 'A' : 'B';
  if (Math.abs(a.verifiedShare - b.verifiedShare) > 1e-9) return a.verifiedShare > b.verifiedShare ? 'A' : 'B';
  return 'tie';
}

function describeStanding(standing: ClaimStanding | null): string {
  if (standing === null) return 'no claims';
  const recall = standing.referenceRecall === null ? '' : `, ${Math.round(100 * standing.referenceRecall)}% of the reference stated`;
  return `${standing.contradicted} contradicted${recall}, ${Math.round(100 * standing.verifiedShare)}% verified`;
}

/** What both sides are judged against, computed once per pair. */
export interface QuestionAnalysis {
  questionStems: Set<string>;
  best: BestPassage | null;
}

export interface BestPassage {
  id: string;
  title: string | null;
  /** Last heading of the section path (`Parental Leave > Shared` → `Shared`), or null. */
  section: string | null;
  /** Condition sentences of the passage (prose, not table rows) sharing ≥ min(2, |Q|) stems with the question. */
  conditions: string[];
}

/** Sentences that attach a condition, limit or exception. */
const CONDITION =
  /\b(?:unless|except|excluding|only if|only when|provided that|as long as|if|or more|or less|or longer|at least|at most|up to|more than|less than|fewer than|no more than|no later than|under|over|above|below|within|exceed(?:s|ed|ing)?|maximum|minimum)\b/i;

/**
 * The passage that best matches the question: most of the question's content stems found in its
 * title, section and text (ties: the earlier passage), or null when none shares a stem. Trace
 * chunks are preferred; reference excerpts are used only when no chunk matches.
 */
export function analyzeQuestion(question: string, evidence: readonly EvidencePassage[]): QuestionAnalysis {
  const questionStems = new Set(contentStems(withoutQuantityWord(question)));
  // Trace chunks first: they carry the title and section an answer should cite. A reference
  // excerpt (written to answer the question, without a source line) is used only when no chunk
  // shares a stem with the question.
  const best =
    bestMatch(questionStems, evidence.filter((passage) => passage.kind === 'chunk')) ??
    bestMatch(questionStems, evidence.filter((passage) => passage.kind !== 'chunk'));
  if (best === null) return { questionStems, best: null };
  const parts = passageParts(best.passage);
  // Prose sentences only: table rows are values rather than conditions, and a sentence ending in
  // ':' introduces a list or table. A condition must share two of the question's stems (or all,
  // for a one-word question) to be one this question needs.
  const needed = Math.min(2, questionStems.size);
  const conditions = splitSentences(parts.body).filter(
    (sentence) => !sentence.startsWith('|') && !sentence.endsWith(':') && CONDITION.test(sentence) && countShared(sentence, questionStems) >= needed,
  );
  const lastHeading = parts.section === null ? null : (sectionPath(parts.section).at(-1) ?? null);
  return { questionStems, best: { id: best.passage.id, title: parts.title, section: lastHeading, conditions } };
}

function bestMatch(questionStems: Set<string>, passages: readonly EvidencePassage[]): { passage: EvidencePassage; overlap: number } | null {
  let best: { passage: EvidencePassage; overlap: number } | null = null;
  for (const passage of passages) {
    const stems = new Set(contentStems(passage.text));
    let overlap = 0;
    for (const stemmed of questionStems) if (stems.has(stemmed)) overlap += 1;
    if (overlap > 0 && (best === null || overlap > best.overlap)) best = { passage, overlap };
  }
  return best;
}

/**
 * One side's criteria: a function of the shared analysis, this side's answer and its judgment only.
 * answersCorrectly and noFabrication come from the judgment (see `pairwise-criteria.ts`); citing
 * and conditions are read from the answer, and only for a side that answers the question.
 */
export function heuristicCriteria(
  shared: QuestionAnalysis,
  answer: string,
  judgment: FaithfulnessJudgment | null,
  policy: FaithfulnessPolicy = DEFAULT_FAITHFULNESS_POLICY,
  refusalSentence: string = REFUSAL_SENTENCE,
): PairwiseCriteria {
  const clean = noFabrication(answer, claimsOf(judgment), policy, refusalSentence);
  const correct = answersCorrectly(judgment);
  if (!isAnswer(answer, judgment, refusalSentence)) return { answersCorrectly: correct, citesRightSource: false, statesConditions: false, noFabrication: clean };
  const best = shared.best;
  const citesRightSource = best !== null && [best.title, best.section].some((name) => name !== null && containsPhrase(answer, name));
  const answerStems = new Set(contentStems(answer));
  const answerNumbers = new Set(numbersIn(answer));
  const statesConditions = best !== null && best.conditions.every((sentence) => reflects(sentence, answerStems, answerNumbers));
  return { answersCorrectly: correct, citesRightSource, statesConditions, noFabrication: clean };
}

/** All the sentence's numbers appear in the answer, and at least half its content stems do. */
function reflects(sentence: string, answerStems: Set<string>, answerNumbers: Set<string>): boolean {
  if (!numbersIn(sentence).every((number) => answerNumbers.has(number))) return false;
  const stems = new Set(contentStems(sentence));
  if (stems.size === 0) return true;
  let found = 0;
  for (const stemmed of stems) if (answerStems.has(stemmed)) found += 1;
  return found / stems.size >= 0.5;
}

/** Numbers as tokens, leading zeros dropped (`09:30` → `9`, `30`). */
function numbersIn(text: string): string[] {
  return words(text)
    .filter((word) => /^\d+$/.test(word))
    .map((word) => word.replace(/^0+(?=\d)/, ''));
}

function countShared(text: string, stems: Set<string>): number {
  return new Set(contentStems(text).filter((stemmed) => stems.has(stemmed))).size;
}

/** Whether the words of `phrase` appear consecutively in `text` (case, accents and punctuation ignored). */
function containsPhrase(text: string, phrase: string): boolean {
  const needle = words(phrase).join(' ');
  if (needle === '') return false;
  return ` ${words(text).join(' ')} `.includes(` ${needle} `);
}

/**
 * The tie-break after the claim verdicts (v20): between two answers the claim rules leave level,
 * the one whose unverified claims invent fewer specifics wins. A figure or a name (a capitalised
 * word inside a sentence) that neither the evidence nor the question holds is what a fabricated
 * detail looks like ("it's added to your balance on MyHarbour each January and must be used by 31
 * March"), while a correct answer in the user's own words is unverified for its everyday words,
 * which this does not count. Symmetric; `tie` when either side has no judgment.
 */
export function compareInvented(a: number | null, b: number | null): 'A' | 'B' | 'tie' {
  if (a === null || b === null || a === b) return 'tie';
  return a < b ? 'A' : 'B';
}

/** The words and numbers of the evidence and the question, read once for both sides of a pair. */
export interface KnownSpecifics {
  /** Their words, space-separated and space-padded, for whole-word lookups. */
  text: string;
  numbers: ReadonlySet<string>;
}

export function knownSpecifics(evidence: readonly EvidencePassage[], question: string): KnownSpecifics {
  const text = ` ${words([question, ...evidence.map((passage) => passage.text)].join(' ')).join(' ')} `;
  return { text, numbers: new Set(numbersIn(text)) };
}

/** How many of a side's unverified claims state a figure or a name that neither the evidence nor the question holds; `null` without a judgment. */
export function inventedSpecifics(judgment: FaithfulnessJudgment | null, known: KnownSpecifics): number | null {
  if (judgment === null || judgment.status !== 'ok') return null;
  let invented = 0;
  for (const claim of judgment.claims) {
    if (claim.verdict === 'verified') continue;
    const newNumber = numbersIn(claim.text).some((number) => !known.numbers.has(number));
    // A capitalised word after the sentence's first: a name ("MyHarbour", "Bupa"), not a sentence start.
    const names = [...claim.text.matchAll(/(?<=\S\s+)\p{Lu}[\p{L}-]+/gu)].map((match) => words(match[0]).join(' '));
    if (newNumber || names.some((name) => !known.text.includes(` ${name} `))) invented += 1;
  }
  return invented;
}
