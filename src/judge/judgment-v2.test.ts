import { beforeAll, describe, expect, it } from 'vitest';
import { flagsOf, outcomeOf } from '../contract/outcome.js';
import { REFUSAL_SENTENCE } from '../contract/refusal.js';
import { seededRng } from '../metrics/random.js';
import { handbookPassages } from '../test-support/fixtures.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';
import { createHeuristicPairwiseJudge } from './pairwise-heuristic.js';
import { judgePair } from './pairwise-protocol.js';
import type { EvidencePassage, FaithfulnessJudgment } from './types.js';

/**
 * The verdicts the users saw go wrong, on the real handbook text as a prompt holds it: a
 * faithful non-answer, a refusal when the first chunk holds the answer, a refusal against an
 * irrelevant quote, and a correct answer in the user's own words.
 */

let chunk: (id: string) => EvidencePassage;
beforeAll(async () => {
  chunk = await handbookPassages();
});

const judge = createHeuristicFaithfulnessJudge();
const outcome = (judgment: FaithfulnessJudgment) => outcomeOf(flagsOf(judgment));

const BITCOIN = 'Can I get paid in bitcoin?';
const ANTENATAL = 'Pregnant employees may take paid time off for antenatal appointments, including antenatal classes recommended by a doctor or midwife.';
const PARENTAL = 'How many weeks of parental leave does a birth parent get?';

describe('judgment v2 on the handbook', () => {
  it('the bitcoin question answered with the antenatal-appointments rule is off_topic: faithful, but no pass', async () => {
    const evidence = [chunk('leave-policy#antenatal-and-adoption-appointments'), chunk('pay-and-payroll#pay-day')];
    const judgment = await judge.judge({ question: BITCOIN, evidence, answer: ANTENATAL });
    expect(judgment).toMatchObject({ status: 'ok', faithful: true, answerRelevance: 'off_topic', contextSufficient: false });
    expect(outcome(judgment)).toBe('off_topic');
  });

  it('a refusal when chunk 1 holds the answer is an over_refusal, and chunk 1 is listed as ignored', async () => {
    const evidence = [chunk('leave-policy#parental-leave'), chunk('leave-policy#partner-leave'), chunk('pay-and-payroll#pay-day')];
    const judgment = await judge.judge({ question: PARENTAL, evidence, answer: REFUSAL_SENTENCE });
    expect(judgment).toMatchObject({ status: 'ok', refused: true, refusalVerdict: 'over_refusal', refusalCorrect: false });
    if (judgment.status !== 'ok') return;
    expect(judgment.contexts[0]).toMatchObject({ chunkId: 'leave-policy#parental-leave', verdict: 'answers' });
    expect(judgment.ignoredChunks).toContain('leave-policy#parental-leave');
    expect(outcome(judgment)).toBe('over_refusal');
  });

  it('on a must-refuse question, a correct refusal beats an irrelevant quote in both orders', async () => {
    const evidence = [chunk('leave-policy#antenatal-and-adoption-appointments'), chunk('pay-and-payroll#pay-day')];
    const refusal = await judge.judge({ question: BITCOIN, evidence, answer: REFUSAL_SENTENCE });
    const quote = await judge.judge({ question: BITCOIN, evidence, answer: ANTENATAL });
    expect([outcome(refusal), outcome(quote)]).toEqual(['correct_refusal', 'off_topic']);
    for (const seed of [1, 2, 3, 4]) {
      const pair = await judgePair({
        judge: createHeuristicPairwiseJudge(),
        questionId: 'bitcoin',
        question: BITCOIN,
        evidence,
        sides: { rag: REFUSAL_SENTENCE, norag: ANTENATAL, judgmentRag: refusal, judgmentNorag: quote },
        rng: seededRng(seed),
      });
      expect(pair.trials.map((trial) => trial.winnerSide)).toEqual(['rag', 'rag']);
      expect(pair.outcome).toBe('rag');
    }
  });

  it.each([
    ['You get 20 weeks.'],
    ['Birth parents can take up to 20 weeks off on full pay.'],
    ['Twenty weeks at full pay, then up to 19 weeks at the statutory rate.'],
  ])('a correct answer in the user\'s own words is correct: %j', async (answer) => {
    const judgment = await judge.judge({ question: PARENTAL, evidence: [chunk('leave-policy#parental-leave'), chunk('leave-policy#partner-leave')], answer });
    expect(outcome(judgment)).toBe('correct');
  });

  it('a correct grounded answer beats an over-refusal in both orders', async () => {
    const evidence = [chunk('leave-policy#parental-leave')];
    const answer = 'You get 20 weeks.';
    const correct = await judge.judge({ question: PARENTAL, evidence, answer });
    const refusal = await judge.judge({ question: PARENTAL, evidence, answer: REFUSAL_SENTENCE });
    const pair = await judgePair({
      judge: createHeuristicPairwiseJudge(),
      questionId: 'parental',
      question: PARENTAL,
      evidence,
      sides: { rag: answer, norag: REFUSAL_SENTENCE, judgmentRag: correct, judgmentNorag: refusal },
      rng: seededRng(9),
    });
    expect(pair.outcome).toBe('rag');
  });
});
