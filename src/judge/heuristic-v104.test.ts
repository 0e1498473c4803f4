import { describe, expect, it } from 'vitest';
import { judgeUnanswerable } from '../test-support/judgments.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';

// heuristic-v104: a fifth list of refusals and pointers (answers worded alike: refusal.test.ts).
const judge = createHeuristicFaithfulnessJudge();

describe('heuristic-v104', () => {
  for (const answer of [
    "I've got nothing on pet insurance here, sorry. Worth asking HR directly.",
    "I don't have the benefits rules for that to hand, so best to ask the People team.",
    "Can't help with that one, sorry. The People team is the right contact.",
    "Nothing on pet insurance in what I can see. Your manager should have the details.",
  ]) {
    it(`"${answer}" where nothing answers is a correct refusal, not an unsupported claim`, async () => {
      expect(await judgeUnanswerable(judge, answer)).toEqual({ refused: true, claims: [], outcome: 'correct_refusal' });
    });
  }
});
