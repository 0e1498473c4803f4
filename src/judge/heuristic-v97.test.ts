import { describe, expect, it } from 'vitest';
import { chunkPassage, claimVerdicts } from '../test-support/judgments.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';

// heuristic-v97: "staff", "workers", "people" are found where a sentence names employees.
const allowance = chunkPassage(
  'remote-and-hybrid-working#home-working-allowance',
  { title: 'Remote and Hybrid Working', section: 'Home Working Allowance', updated: '2025-10-01' },
  'Employees on an office-based contract do not receive the home working allowance, even if they sometimes work from home.',
);
const judge = createHeuristicFaithfulnessJudge();

describe('heuristic-v97', () => {
  it('"office-based staff" is what "employees on an office-based contract" says', async () => {
    expect(await claimVerdicts(judge, 'can i get the home working allowance?', [allowance], "Office-based staff don't receive it.")).toEqual(['verified']);
  });

  it('negation is still compared: the opposite is contradicted', async () => {
    expect(await claimVerdicts(judge, 'can i get the home working allowance?', [allowance], 'Staff on an office-based contract receive the home working allowance.')).toEqual(['contradicted']);
  });
});
