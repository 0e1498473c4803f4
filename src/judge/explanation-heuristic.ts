import { claimsOf } from './pairwise-criteria.js';
import { countWords } from '../text/text.js';
import { EMPTY_USAGE } from '../providers/spec.js';
import { DEFAULT_FAITHFULNESS_POLICY } from './faithfulness-score.js';
import {
  asPairwiseCriteria,
  DEFAULT_EXPLANATION_WEIGHTS,
  explanationWinner,
  statesCodeSpecifics,
  type ExplanationCriteria,
  type ExplanationPairwiseOk,
  type ExplanationReference,
  type ExplanationWeights,
} from './explanation-criteria.js';
import { noFabrication } from './pairwise-criteria.js';
import type { FaithfulnessPolicy, JudgedClaim, JudgeFailure, JudgeInfo, PairwiseInput, PairwiseJudge, PairwiseJudgment } from './types.js';

/** Bumped whenever a rule below changes. */
// v2: refusals are recognised in more words (`isRefusal`).
// v3: refusals in chat wording and more pointers after a refusal (`isRefusal`, `isRefusalAside`; the heuristic judge's v46).
// v4: more refusal wordings ("I don't have access to that information", "None of the documents mention …", "It's not clear from the documents"; `isRefusal`; the heuristic judge's v50).
// v5: more refusal wordings ("There's no policy on dogs in what I've got", "Colleagues' pay isn't something I can share", "Hmm, not sure.", "… aren't available to me") and asides after a refusal ("The handbook talks about …", "I'd rather not guess"; `isRefusal`, `isRefusalAside`; the heuristic judge's v60).
// v6: questions back to the user are no claims ("Is it a particular gym you're thinking of?"); more refusal wordings ("I'm not aware of a gym discount.", "Not that I can find", "Not as far as I can tell from the handbook", "… aren't mentioned anywhere in the leave policy", "There doesn't seem to be a …", "Can't find anything on …") and pointers after a refusal ("You could check MyHarbour", "Have a look at …", "Worth a quick message to …", "I'd assume not"; `splitAnswer`, `isRefusal`, `isRefusalAside`; the heuristic judge's v62).
// v7: more refusal wordings that say whose sources they are ("There isn't a policy on pet insurance that I can see", "The policies I can see don't cover that", "Nothing in the documents I have covers …", "That isn't something the documents address", "The handbook is quiet on that one"; `isRefusal`; the heuristic judge's v91).
// v8: a fourth list of refusal wordings ("I've had a look and can't see anything about that", "Nothing comes up for that", "That doesn't seem to be covered anywhere", "It doesn't say in the handbook", "I don't see a policy for that", "No policy on that that I could find", "That isn't in anything I've got", "There aren't any rules about that in the handbook"), and "There's nothing in the handbook that stops you" is an answer; `isRefusal`; the heuristic judge's v98.
// v9: more pointers after a refusal are asides ("Might be worth dropping HR a line", "Give the Service Desk a shout", "HR are best placed to answer that", "That's one for the People team", "Probably one for your manager"; `isRefusalAside`; the heuristic judge's v99).
// v10: a fifth list of refusal wordings ("I don't have contact details for Payroll", "I've got nothing on that", "Nothing on sabbaticals in what I can see", "I can't pull up another employee's payslip", "Can't help with that one", "I'm not sure the handbook covers …", "… don't come up in the policies I can see") and pointers after a refusal ("The People team can contact him for you", "Your manager should have the dates", "individual pay is confidential", "you'd need to ask Payroll", a contact in parentheses); `isRefusal`, `isRefusalAside`; the heuristic judge's v104.
// v11: an explanation typed in lower case is split into its sentences (`splitAnswer`; the heuristic judge's v105).
// v12: social remarks with an interjection or an adverb ("ugh, sorry!") are no claims (`splitAnswer`; the heuristic judge's v107).
export const HEURISTIC_EXPLANATION_VERSION = 'explanation-heuristic-v12';

const FIX_VERB = /\b(?:fix|change|replace|rename|use|add|await|check|guard|return|bind|pass|call|correct|remove|create|point|update|make sure|should|instead|handle|send|store|keep|move|declare|import|define|end|stop)\b/i;
const EXPLAINS = /\b(?:means?|because|happens when|occurs when|this is why|so that|which is why|in other words|that is,|caused by|results? in)\b/i;

export interface HeuristicExplanationJudgeOptions {
  /** What the judge knows about this error. */
  reference: ExplanationReference;
  /** [policy={ absentIsHallucination: true }] */
  policy?: FaithfulnessPolicy;
  /** [weights=DEFAULT_EXPLANATION_WEIGHTS] */
  weights?: ExplanationWeights;
}

/**
 * The offline explanation judge: answers the explicit questions for each explanation from its
 * words, against the fixture's reference, and takes `noFabrication` from the explanation's claim
 * verdicts. Each side's criteria depend on that side alone, so swapping A and B swaps the verdict:
 * symmetric by construction (position consistency 1.0 says nothing about position bias here).
 *
 * - foundCause: one phrase of every `causeKeywords` group is mentioned;
 * - pointsToFixLocation: the fix file is named (path or file name) and the function (symbol,
 *   an alias, or a line number inside it);
 * - proposesWorkingFix: a sentence that proposes a change mentions one phrase of every
 *   `fixKeywords` group;
 * - explainsForLearner: a sentence says what the error means or why it happened (means, because,
 *   happens when…) and the explanation stays under 300 words.
 *
 * It reads words, not meaning: quoting the line that holds the cause counts as naming it.
 */
export function createHeuristicExplanationJudge(options: HeuristicExplanationJudgeOptions): PairwiseJudge {
  const { reference } = options;
  const policy = options.policy ?? DEFAULT_FAITHFULNESS_POLICY;
  const weights = options.weights ?? DEFAULT_EXPLANATION_WEIGHTS;
  const info: JudgeInfo = Object.freeze({ kind: 'heuristic', model: 'heuristic', promptVersion: HEURISTIC_EXPLANATION_VERSION });
  return {
    info,
    async judge(input: PairwiseInput): Promise<PairwiseJudgment> {
      const started = performance.now();
      const unchecked = [claimsOf(input.judgmentA) === null && statesCodeSpecifics(input.answerA) ? 'A' : null, claimsOf(input.judgmentB) === null && statesCodeSpecifics(input.answerB) ? 'B' : null].filter(Boolean);
      if (unchecked.length > 0) return uncheckedFailure(info, unchecked.join(' and '), performance.now() - started);
      const a = explanationCriteria(input.answerA, claimsOf(input.judgmentA), reference, policy);
      const b = explanationCriteria(input.answerB, claimsOf(input.judgmentB), reference, policy);
      const winner = explanationWinner(a, b, weights);
      const judgment: ExplanationPairwiseOk = {
        status: 'ok',
        judge: info,
        a: asPairwiseCriteria(a),
        b: asPairwiseCriteria(b),
        explanation: { a, b },
        winner,
        reason: `A: ${describe(a)}; B: ${describe(b)}`,
        usage: { ...EMPTY_USAGE },
        costUsd: 0,
        durationMs: performance.now() - started,
      };
      return judgment;
    },
  };
}

/** A side with code specifics and no claim verdicts was never checked: a judge failure, not a pass. */
export function uncheckedFailure(info: JudgeInfo, sides: string, durationMs: number): JudgeFailure {
  return {
    status: 'error',
    judge: info,
    error: `explanation ${sides} states code specifics but has no claim verdicts: it was not checked`,
    rawReply: null,
    attempts: 1,
    authError: false,
    usage: { ...EMPTY_USAGE },
    costUsd: 0,
    durationMs,
  };
}

/** The criteria of one explanation (see {@link createHeuristicExplanationJudge}). */
export function explanationCriteria(answer: string, claims: JudgedClaim[] | null, reference: ExplanationReference, policy: FaithfulnessPolicy = DEFAULT_FAITHFULNESS_POLICY): ExplanationCriteria {
  const sentences = answer.split(/\n+|(?<=[.!?])\s+(?=[A-Z*_`])/).map((sentence) => sentence.trim()).filter(Boolean);
  const location = reference.fixLocation;
  const namesFile = location.file === null || mentions(answer, location.file) || mentions(answer, location.file.split('/').pop()!);
  const namesSymbol = [location.symbol, ...location.aliases].some((symbol) => mentions(answer, symbol)) || (location.file !== null && location.lines !== null && citesLineIn(answer, location.file, location.lines));
  return {
    foundCause: reference.causeKeywords.every((group) => group.some((phrase) => mentions(answer, phrase))),
    pointsToFixLocation: namesFile && namesSymbol,
    proposesWorkingFix: sentences.some((sentence) => FIX_VERB.test(sentence) && reference.fixKeywords.every((group) => group.some((phrase) => mentions(sentence, phrase)))),
    explainsForLearner: countWords(answer) <= 300 && sentences.some((sentence) => EXPLAINS.test(sentence.replace(/`[^`]*`/g, ''))),
    noFabrication: noFabrication(answer, claims, policy),
  };
}

/** Whether `text` mentions `phrase`: as a whole name for code-like phrases, else as words (case and spacing ignored). */
export function mentions(text: string, phrase: string): boolean {
  const wanted = phrase.trim();
  if (wanted === '') return false;
  if (/^[\w$.]+$/.test(wanted)) return new RegExp(`(?<![\\w$])${wanted.replace(/[.$]/g, '\\$&')}(?![\\w$])`, 'i').test(text);
  return text.replace(/\s+/g, ' ').toLowerCase().includes(wanted.replace(/\s+/g, ' ').toLowerCase());
}

/** A `file:line` or "line N of file" inside the range, for the fix's file. */
function citesLineIn(text: string, file: string, [from, to]: [number, number]): boolean {
  const name = file.split('/').pop()!.replace(/[.$]/g, '\\$&');
  const pattern = new RegExp(`(?:${name}:(\\d+))|(?:line (\\d+) of [\\w./-]*${name})`, 'gi');
  for (const match of text.matchAll(pattern)) {
    const line = Number(match[1] ?? match[2]);
    if (line >= from && line <= to) return true;
  }
  return false;
}

function describe(criteria: ExplanationCriteria): string {
  return [
    criteria.foundCause ? 'finds the cause' : 'misses the cause',
    criteria.pointsToFixLocation ? 'points to the fix location' : 'does not point to the fix location',
    criteria.proposesWorkingFix ? 'proposes a working fix' : 'no working fix',
    criteria.explainsForLearner ? 'explains it' : 'does not explain it',
    criteria.noFabrication ? 'no fabrication' : 'fabricates',
  ].join(', ');
}
