import { describe, expect, it } from 'vitest';
import { flagsOf, outcomeOf } from '../contract/outcome.js';
import { chunkPassage, okJudgment } from '../test-support/judgments.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';

// heuristic-v93: a reference claim of under three content words does not, alone, make a chunk answer.
const personalData = chunkPassage(
  'data-protection#handling-personal-data',
  { title: 'Data Protection and Privacy', section: 'Handling Personal Data', updated: '2025-08-11' },
  'Whenever you handle personal data, collect only what is needed for a clear purpose, keep it accurate, store it securely in approved company systems, and delete it when it is no longer needed.',
);
const gifts = chunkPassage(
  'gifts-and-hospitality#receiving-gifts',
  { title: 'Gifts and Hospitality', section: 'Receiving Gifts', updated: '2025-05-01' },
  'You may keep a gift worth up to £150. Gifts worth more than £50 must be recorded in the Gifts and Hospitality Register within 5 working days.',
);
const judge = createHeuristicFaithfulnessJudge();
const question = 'a customer sent me a bottle of champagne after go live, its about £80. can i keep it? do i need to tell anyone';
const reference = 'Yes, you can keep it, but because it is worth more than £50 you must record it in the Gifts and Hospitality Register within 5 working days.';
const refusal = "I can't find the rules on accepting gifts from customers, so I can't say whether you can keep it.";

describe('heuristic-v93', () => {
  it('"Yes, you can keep it" found in a data-protection sentence does not make that chunk answer a question about a gift: the refusal is right', async () => {
    const judgment = okJudgment(await judge.judge({ question, evidence: [personalData], answer: refusal, reference }));
    expect(judgment.contexts.map((context) => context.verdict)).toEqual(['unrelated']);
    expect(outcomeOf(flagsOf(judgment))).toBe('correct_refusal');
  });

  it('the chunk that states the gift rule still answers, so the same refusal there is an over-refusal', async () => {
    const judgment = okJudgment(await judge.judge({ question, evidence: [personalData, gifts], answer: refusal, reference }));
    expect(judgment.contexts.find((context) => context.chunkId === gifts.id)?.verdict).toBe('answers');
    expect(outcomeOf(flagsOf(judgment))).toBe('over_refusal');
  });
});
