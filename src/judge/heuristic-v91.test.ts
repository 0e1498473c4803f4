import { describe, expect, it } from 'vitest';
import { flagsOf, outcomeOf } from '../contract/outcome.js';
import { chunkPassage, okJudgment } from '../test-support/judgments.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';

// heuristic-v91: refusals that say whose sources they are ("the policies I can see") are refusals.
const leave = chunkPassage(
  'leave-policy#annual-leave-entitlement',
  { title: 'Leave Policy', section: 'Annual Leave Entitlement', updated: '2026-01-12' },
  'Full-time employees receive 25 days of annual leave each year, plus the 8 bank holidays in England and Wales.',
);
const judge = createHeuristicFaithfulnessJudge();
const question = 'Do we get pet insurance through work?';

describe('heuristic-v91', () => {
  for (const answer of ["There isn't a policy on pet insurance that I can see.", "The policies I can see don't cover that.", 'Nothing in the documents I have covers pet insurance.', 'The handbook is quiet on that one.']) {
    it(`"${answer}" where nothing answers is a correct refusal, not an unsupported claim`, async () => {
      const judgment = okJudgment(await judge.judge({ question, evidence: [leave], answer }));
      expect(judgment.refused).toBe(true);
      expect(judgment.claims).toEqual([]);
      expect(outcomeOf(flagsOf(judgment))).toBe('correct_refusal');
    });
  }
});
