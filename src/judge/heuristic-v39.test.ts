import { describe, expect, it } from 'vitest';
import { claimVerdicts } from '../test-support/judgments.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';
import type { EvidencePassage } from './types.js';

// heuristic-v39: a claim's relation noun must be found (METHODOLOGY.md, "Changes in v39").
const judge = createHeuristicFaithfulnessJudge();

const knowledge: EvidencePassage[] = [
  {
    id: 'knowledge',
    kind: 'chunk',
    text: 'Miss USA 1968 was hosted by Bob Barker, who also hosted The Price Is Right. Teri W. Odom is an editor of a scientific journal first published in 2007.',
  },
];

const probation: EvidencePassage[] = [
  {
    id: 'leaving#notice-periods',
    kind: 'chunk',
    text: "[Source: Leaving | Section: Notice Periods | Last updated: 2025-01-01]\nAfter probation, employees in grades 1 to 4 must give one month's notice in writing to their manager.",
  },
];

describe('relation nouns (heuristic-v39)', () => {
  it.each([
    ["Bob Barker's wife was Miss USA 1968."],
    ['Teri W. Odom is the founder of the scientific journal published in 2007.'],
  ])('an invented relation between named things is not verified: %s', async (answer) => {
    // v38 verified every claim of both: all their other words are in the sentence.
    expect(await claimVerdicts(judge, 'Who hosted Miss USA 1968, and who publishes the journal?', knowledge, answer)).toContain('absent');
  });

  it('the relation the sentence states is verified', async () => {
    expect(await claimVerdicts(judge, 'Who hosted Miss USA 1968?', knowledge, 'Miss USA 1968 was hosted by Bob Barker.')).toEqual(['verified']);
  });

  it("an ordinary possessive (\"one month's notice\") is no relation noun", async () => {
    expect(await claimVerdicts(judge, 'How much notice do I give?', probation, "After probation you give one month's notice in writing.")).toEqual(['verified']);
  });
});
