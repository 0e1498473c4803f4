import { describe, expect, it } from 'vitest';
import { chunkPassage, claimVerdicts } from '../test-support/judgments.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';

// heuristic-v110: a figure stated in the past tense may rest on one the evidence gives as no longer in force.
const judge = createHeuristicFaithfulnessJudge();
const allowance = chunkPassage(
  'remote#home-working-allowance',
  { title: 'Remote and Hybrid Working', section: 'Home Working Allowance', updated: '2025-10-01' },
  'From 1 October 2025, employees on a hybrid or home-based contract receive a home working allowance of £30 per month, paid through payroll. This replaces the previous allowance of £20 per month, which applied until 30 September 2025.',
);
const question = 'How much is the home working allowance?';

const verdict = (answer: string) => claimVerdicts(judge, question, [allowance], answer);

describe('heuristic-v110: a figure stated in the past tense', () => {
  it('is supported by the figure no longer in force', async () => {
    expect(await verdict('It was £20 until 30 September 2025.')).toEqual(['verified']);
    expect(await verdict('It used to be £20 a month.')).toEqual(['verified']);
  });

  it('still needs the right figure and date, and a present claim still needs the current figure', async () => {
    expect(await verdict('It was £25 until 30 September 2025.')).not.toEqual(['verified']);
    expect(await verdict('It was £20 until 30 September 2024.')).not.toEqual(['verified']);
    expect(await verdict("It's £20 a month.")).not.toEqual(['verified']);
    expect(await verdict("It's £30 a month.")).toEqual(['verified']);
  });
});
