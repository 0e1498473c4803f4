import { describe, expect, it } from 'vitest';
import { flagsOf, outcomeOf } from '../contract/outcome.js';
import { chunkPassage, okJudgment } from '../test-support/judgments.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';
import { splitAnswer } from './claims.js';

// heuristic-v90: a pointer after a refusal is no claim, but a figure slipped into it is one.
const leave = chunkPassage(
  'leave-policy#annual-leave-entitlement',
  { title: 'Leave Policy', section: 'Annual Leave Entitlement', updated: '2026-01-12' },
  'Full-time employees receive 25 days of annual leave each year, plus the 8 bank holidays in England and Wales.',
);
const judge = createHeuristicFaithfulnessJudge();

describe('heuristic-v90', () => {
  it('an invented figure in a pointer after a refusal is checked: hallucinated', async () => {
    const answer = "The handbook doesn't cover giving annual leave to a colleague. Ask the People team, they usually allow up to 5 days.";
    // The splitter takes the whole sentence as a pointer (an aside), so no claim held the figure before.
    expect(splitAnswer(answer).asides).toEqual(['Ask the People team, they usually allow up to 5 days.']);
    const judgment = okJudgment(await judge.judge({ question: 'can i give a colleague some of my annual leave?', evidence: [leave], answer }));
    expect(judgment.refused).toBe(true);
    expect(judgment.claims.map((claim) => claim.verdict)).toEqual(['absent']);
    expect(outcomeOf(flagsOf(judgment))).toBe('hallucinated');
  });

  it("the asker's own figure in a pointer is no claim", async () => {
    const judgment = okJudgment(
      await judge.judge({
        question: 'my pay rise was 3% and a colleague got more. what did they get?',
        evidence: [leave],
        answer: "I can't tell you what a colleague got in the pay review. If you want to understand your own 3%, your manager or the People team can go through it with you.",
      }),
    );
    expect(judgment.claims).toEqual([]);
    expect(outcomeOf(flagsOf(judgment))).not.toBe('hallucinated');
  });
});
