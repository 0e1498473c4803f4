import { describe, expect, it } from 'vitest';
import { claimVerdicts } from '../test-support/judgments.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';
import type { EvidencePassage } from './types.js';

// heuristic-v34: a pronoun-subject claim's own words pick its figure; the question's weigh half (METHODOLOGY.md, "Changes in v34").
const judge = createHeuristicFaithfulnessJudge();

const pips: EvidencePassage[] = [
  {
    id: 'performance-reviews#performance-improvement-plans',
    kind: 'chunk',
    text: '[Source: Performance Reviews | Section: Performance Improvement Plans | Last updated: 2025-01-01]\nA PIP usually lasts 8 weeks, with weekly check-ins, and can be extended once by up to 4 weeks.',
  },
];

describe("a claim about 'it' with words of its own for its figure (heuristic-v34)", () => {
  it.each([
    // v33 compared the 4 weeks with the 8 weeks the question is about and called a verbatim quote contradicted.
    ['It can be extended once by up to 4 weeks.', ['verified']],
    ['It can be extended once by up to 6 weeks.', ['contradicted']],
    // With no words of its own, the figure is still about what was asked.
    ["It's 8 weeks.", ['verified']],
    ["It's 6 weeks.", ['contradicted']],
  ])('%s', async (answer, verdicts) => {
    expect(await claimVerdicts(judge, 'How long does a PIP normally last?', pips, answer)).toEqual(verdicts);
  });
});
