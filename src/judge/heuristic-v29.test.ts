import { describe, expect, it } from 'vitest';
import { claimVerdicts } from '../test-support/judgments.js';
import { analyze } from './heuristic-analysis.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';
import type { EvidencePassage } from './types.js';

// heuristic-v29: multiples in words; a claim naming another row of a table (METHODOLOGY.md, "Changes in v29").
const judge = createHeuristicFaithfulnessJudge();

const overtime: EvidencePassage[] = [
  {
    id: 'working-hours#paid-overtime',
    kind: 'chunk',
    text: '[Source: Working Hours | Section: Paid Overtime | Last updated: 2025-01-01]\n| When the overtime is worked | Rate |\n| --- | --- |\n| Monday to Saturday | 1.5 times your hourly rate |\n| Sundays and bank holidays | 2 times your hourly rate |',
  },
];

const figures = (text: string) => analyze(text).quantities.map(({ quantity }) => (quantity.kind === 'number' ? quantity.low : null));

describe('multiples said in words (heuristic-v29)', () => {
  it.each([
    ['Paid at double your hourly rate.', [2]],
    ['You get twice your normal rate.', [2]],
    ['Triple the usual amount.', [3]],
    ["It's time and a half on Saturdays.", [1.5]],
    ['Paid at time-and-a-half.', [1.5]],
    // Not a multiple of anything: unread, as before.
    ['Book a double room.', []],
    ['Double-check the form.', []],
    ['The scheme opens twice a year.', []],
  ])('%s', (text, expected) => {
    expect(figures(text)).toEqual(expected);
  });

  it.each([
    ['Sunday overtime is paid at double your hourly rate.', ['verified']],
    ['On a Sunday you get twice your hourly rate.', ['verified']],
    ['Saturday overtime is paid at time and a half.', ['verified']],
    ['Sunday overtime is paid at time and a half.', ['contradicted']],
  ])('%s', async (answer, verdicts) => {
    expect(await claimVerdicts(judge, 'What rate is overtime paid at?', overtime, answer)).toEqual(verdicts);
  });
});

describe("a claim naming another row's label is about that row (heuristic-v29)", () => {
  it.each([
    // v28 verified both through the Sundays row, which holds every other word of the claim.
    ['Saturday overtime is paid at 2 times your hourly rate.', ['contradicted']],
    ['Saturday overtime is paid at double your hourly rate.', ['contradicted']],
    ['Saturday overtime is paid at 1.5 times your hourly rate.', ['verified']],
  ])('%s', async (answer, verdicts) => {
    expect(await claimVerdicts(judge, 'What rate is overtime paid at?', overtime, answer)).toEqual(verdicts);
  });
});
