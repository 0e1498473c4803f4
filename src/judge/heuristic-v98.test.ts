import { describe, expect, it } from 'vitest';
import { flagsOf, outcomeOf } from '../contract/outcome.js';
import { chunkPassage, okJudgment } from '../test-support/judgments.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';

// heuristic-v98: a fourth list of chat refusals; "nothing in the handbook stops you" stays an answer.
const leave = chunkPassage(
  'leave-policy#annual-leave-entitlement',
  { title: 'Leave Policy', section: 'Annual Leave Entitlement', updated: '2026-01-12' },
  'Full-time employees receive 25 days of annual leave each year, plus the 8 bank holidays in England and Wales.',
);
const judge = createHeuristicFaithfulnessJudge();
const question = 'Do we get pet insurance through work?';

describe('heuristic-v98', () => {
  for (const answer of ["I've had a look and can't see anything about that.", 'Nothing comes up for that in the handbook.', "It doesn't say in the handbook.", "That isn't in anything I've got."]) {
    it(`"${answer}" where nothing answers is a correct refusal, not an unsupported claim`, async () => {
      const judgment = okJudgment(await judge.judge({ question, evidence: [leave], answer }));
      expect(judgment.refused).toBe(true);
      expect(judgment.claims).toEqual([]);
      expect(outcomeOf(flagsOf(judgment))).toBe('correct_refusal');
    });
  }
});
