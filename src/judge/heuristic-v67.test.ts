import { describe, expect, it } from 'vitest';
import { chunkPassage, okJudgment } from '../test-support/judgments.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';
import type { EvidencePassage } from './types.js';

// heuristic-v67: a two-word topic answered with one of its words used for another thing (METHODOLOGY.md, "Changes in v67").
const judge = createHeuristicFaithfulnessJudge();
const evidence: EvidencePassage[] = [
  chunkPassage('data-protection#retention-of-records', { title: 'Data Protection and Privacy', section: 'Retention of Records', updated: '2025-08-11' }, 'We keep personal data only for as long as we need it: Record: Unsuccessful job applications; Retention period: 6 months after the recruitment decision.'),
  chunkPassage('training-and-development#internal-learning', { title: 'Training and Development', section: 'Mentoring and Internal Learning', updated: '2025-11-03' }, 'Teams also run lunch-and-learn sessions, and all employees have free access to the internal online course library.'),
  chunkPassage('code-of-conduct#other-employment', { title: 'Code of Conduct', section: 'Other Employment', updated: '2024-06-03' }, 'You must get written approval from your manager before taking a second job or any other paid work.'),
  chunkPassage('pension-and-benefits#cycle-to-work-scheme', { title: 'Pension and Benefits', section: 'Cycle to Work Scheme', updated: '2025-06-01' }, 'You can buy a bicycle and safety equipment up to £2,000 through salary sacrifice, paid back over 12 months.'),
];

describe('half of a two-word topic (heuristic-v67)', () => {
  it('an answer holding one word of the phrase, for another thing, is off topic', async () => {
    // Before, each covered half of the question's topic and passed as an answer: outcome `correct`.
    const job = okJudgment(await judge.judge({ question: 'can i have a second job', evidence, answer: 'Record: Unsuccessful job applications; Retention period: 6 months after the recruitment decision.' }));
    expect(job.answerRelevance).toBe('off_topic');
    const breakfast = okJudgment(await judge.judge({ question: 'do we get free breakfast', evidence, answer: 'All employees have free access to the internal online course library.' }));
    expect(breakfast.answerRelevance).toBe('off_topic');
  });

  it('an answer holding both words, or a synonym of the other, still answers', async () => {
    const both = okJudgment(await judge.judge({ question: 'can i have a second job', evidence, answer: 'You must get written approval from your manager before taking a second job.' }));
    expect(both.answerRelevance).toBe('answers');
    // "bike" is held by "bicycle" (WordNet): not half of the phrase.
    const synonym = okJudgment(await judge.judge({ question: 'is there a bike scheme', evidence, answer: 'Yes: you can buy a bicycle and safety equipment up to £2,000 through salary sacrifice.' }));
    expect(synonym.answerRelevance).toBe('answers');
  });

  it('a phrase ends in a word that can name a thing (heuristic-v69)', async () => {
    // "glasses paid": "paid" is no noun (WordNet), so "can I get glasses paid for?" is no two-word
    // name; v67 judged this right answer off topic, for the "paid" it does not write.
    const eyes = [chunkPassage('pension-and-benefits#eye-tests-and-glasses', { title: 'Pension and Benefits', section: 'Eye Tests and Glasses', updated: '2025-06-01' }, 'If you regularly use a screen for work, Harbourline will reimburse the cost of an eye test up to £25. If the optician confirms you need glasses specifically for screen use, we will contribute up to £60 towards them. Staff are paid monthly.')];
    const judgment = okJudgment(await judge.judge({ question: 'can i get glasses paid for', evidence: eyes, answer: 'If the optician confirms you need glasses specifically for screen use, we will contribute up to £60 towards them.' }));
    expect(judgment.answerRelevance).toBe('answers');
  });

  it('a verb and its object are no such phrase', async () => {
    // "take" (after "you") is the question's verb: "accept cash" answers "do you take cash?".
    const payments = [chunkPassage('account#payments', { title: 'Your Account and Payments', section: 'Paying', updated: '2026-07-20' }, 'We accept Visa, Mastercard and PayPal. We do not accept cash on delivery or cheques. Refunds take up to 5 working days.')];
    const judgment = okJudgment(await judge.judge({ question: 'do you take cash', evidence: payments, answer: 'We do not accept cash on delivery or cheques.' }));
    expect(judgment.answerRelevance).toBe('answers');
  });

  it('a longer topic with one word missing is left to coverage', async () => {
    // Three topic words, two held: a paraphrase as often as another thing, so not this rule's to judge.
    const judgment = okJudgment(await judge.judge({ question: 'can i take a second paid job', evidence, answer: 'You must get written approval from your manager before taking on any other paid work.' }));
    expect(judgment.answerRelevance).not.toBe('off_topic');
  });
});
