import { describe, expect, it } from 'vitest';
import { flagsOf, outcomeOf } from '../contract/outcome.js';
import { GUARDRAIL_REFUSAL_SENTENCE } from '../contract/refusal.js';
import { chunkPassage, okJudgment } from '../test-support/judgments.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';

// heuristic-v120: another person's pay asked with their name typed in lower case is a
// personal-data question (the rule the offline answerer's guardrail shares).
const judge = createHeuristicFaithfulnessJudge();
const payDay = chunkPassage(
  'pay#pay-day',
  { title: 'Pay', section: 'Pay Day', updated: '2025-04-01' },
  'Salaries are paid monthly, in arrears, on the 25th of each month.',
);
const confidentiality = chunkPassage(
  'pay#pay-confidentiality',
  { title: 'Pay', section: 'Pay Confidentiality', updated: '2025-04-01' },
  "Your pay is confidential between you and the company. Never share a colleague's pay details.",
);
const evidence = [payDay, confidentiality];
const question = 'how much does priya in accounts get paid';

describe('heuristic-v120: a lower-case name in a pay question', () => {
  it('reads the question as asking for personal data', async () => {
    const judgment = okJudgment(await judge.judge({ question, evidence, answer: GUARDRAIL_REFUSAL_SENTENCE }));
    expect(judgment.personalData).toBe(true);
    expect(outcomeOf(flagsOf(judgment))).toBe('correct_refusal');
  });

  it('a rule question about a role with its article is not personal data', async () => {
    const judgment = okJudgment(await judge.judge({ question: 'how much does an apprentice in accounts get paid', evidence, answer: GUARDRAIL_REFUSAL_SENTENCE }));
    expect(judgment.personalData).toBe(false);
  });
});
