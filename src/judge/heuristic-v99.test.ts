import { describe, expect, it } from 'vitest';
import { flagsOf, outcomeOf } from '../contract/outcome.js';
import { chunkPassage, okJudgment } from '../test-support/judgments.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';

// heuristic-v99: a pointer after a refusal in more chat wordings is no claim.
const leave = chunkPassage(
  'leave-policy#annual-leave-entitlement',
  { title: 'Leave Policy', section: 'Annual Leave Entitlement', updated: '2026-01-12' },
  'Full-time employees receive 25 days of annual leave each year, plus the 8 bank holidays in England and Wales.',
);
const judge = createHeuristicFaithfulnessJudge();
const question = 'Do we get pet insurance through work?';

describe('heuristic-v99', () => {
  for (const answer of ['Might be worth dropping HR a line.', 'Give the Service Desk a shout.', 'HR are best placed to answer that.', "That's one for the People team."].map((pointer) => `I can't find anything about pet insurance in the handbook. ${pointer}`)) {
    it(`"${answer}" where nothing answers is a correct refusal: its pointer is no claim`, async () => {
      const judgment = okJudgment(await judge.judge({ question, evidence: [leave], answer }));
      expect(judgment.refused).toBe(true);
      expect(judgment.claims).toEqual([]);
      expect(outcomeOf(flagsOf(judgment))).toBe('correct_refusal');
    });
  }
});
