import { describe, expect, it } from 'vitest';
import { chunkPassage, okJudgment } from '../test-support/judgments.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';

// heuristic-v86: a month written short by a user or a model ("Feb and Sept") is that month.
const evidence = [
  chunkPassage(
    'training-and-development#mentoring',
    { title: 'Training and Development', section: 'Mentoring', updated: '2025-01-06' },
    'Harbourline runs a mentoring programme with two intakes a year, in February and September.',
  ),
];
const question = 'When can I join the mentoring programme?';

describe('heuristic-v86', () => {
  it('reads capitalized month abbreviations as the months the passage names', async () => {
    // v85: "Feb" and "Sept" were words no passage holds, so the right answer was `absent`.
    const judgment = okJudgment(await createHeuristicFaithfulnessJudge().judge({ question, evidence, answer: 'The mentoring programme has two intakes a year, in Feb and Sept.' }));
    expect(judgment.claims.map((claim) => claim.verdict)).toEqual(['verified']);
    expect(judgment.hallucinated).toBe(false);
  });

  it('a wrong abbreviated month is contradicted', async () => {
    const wrong = okJudgment(await createHeuristicFaithfulnessJudge().judge({ question, evidence, answer: 'The mentoring programme has two intakes a year, in Feb and Oct.' }));
    expect(wrong.claims.map((claim) => claim.verdict)).toEqual(['contradicted']);
  });
});
