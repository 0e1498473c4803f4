import { describe, expect, it } from 'vitest';
import { judgeUnanswerable } from '../test-support/judgments.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';

// heuristic-v91: refusals that say whose sources they are ("the policies I can see") are refusals.
const judge = createHeuristicFaithfulnessJudge();

describe('heuristic-v91', () => {
  for (const answer of ["There isn't a policy on pet insurance that I can see.", "The policies I can see don't cover that.", 'Nothing in the documents I have covers pet insurance.', 'The handbook is quiet on that one.']) {
    it(`"${answer}" where nothing answers is a correct refusal, not an unsupported claim`, async () => {
      expect(await judgeUnanswerable(judge, answer)).toEqual({ refused: true, claims: [], outcome: 'correct_refusal' });
    });
  }
});
