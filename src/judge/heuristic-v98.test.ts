import { describe, expect, it } from 'vitest';
import { judgeUnanswerable } from '../test-support/judgments.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';

// heuristic-v98: a fourth list of chat refusals (answers worded alike: refusal.test.ts).
const judge = createHeuristicFaithfulnessJudge();

describe('heuristic-v98', () => {
  for (const answer of ["I've had a look and can't see anything about that.", 'Nothing comes up for that in the handbook.', "It doesn't say in the handbook.", "That isn't in anything I've got."]) {
    it(`"${answer}" where nothing answers is a correct refusal, not an unsupported claim`, async () => {
      expect(await judgeUnanswerable(judge, answer)).toEqual({ refused: true, claims: [], outcome: 'correct_refusal' });
    });
  }
});
