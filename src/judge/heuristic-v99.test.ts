import { describe, expect, it } from 'vitest';
import { judgeUnanswerable } from '../test-support/judgments.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';

// heuristic-v99: a pointer after a refusal in more chat wordings is no claim.
const judge = createHeuristicFaithfulnessJudge();

describe('heuristic-v99', () => {
  for (const answer of ['Might be worth dropping HR a line.', 'Give the Service Desk a shout.', 'HR are best placed to answer that.', "That's one for the People team."].map((pointer) => `I can't find anything about pet insurance in the handbook. ${pointer}`)) {
    it(`"${answer}" where nothing answers is a correct refusal: its pointer is no claim`, async () => {
      expect(await judgeUnanswerable(judge, answer)).toEqual({ refused: true, claims: [], outcome: 'correct_refusal' });
    });
  }
});
