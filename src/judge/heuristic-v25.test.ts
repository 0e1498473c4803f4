import { describe, expect, it } from 'vitest';
import { claimVerdicts } from '../test-support/judgments.js';
import { analyze } from './heuristic-analysis.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';
import type { EvidencePassage } from './types.js';

// heuristic-v25: times of day as people say them (METHODOLOGY.md, "Changes in v25").
const judge = createHeuristicFaithfulnessJudge();

const firstDay: EvidencePassage[] = [
  {
    id: 'onboarding#first-day',
    kind: 'chunk',
    text: '[Source: Onboarding | Section: Your First Day | Last updated: 2025-03-10]\nUnless told otherwise, arrive at the reception of your base office at 09:30. Core hours are 10:00 to 16:00.',
  },
];

describe('spoken times of day (heuristic-v25)', () => {
  it.each([
    ['half past nine', 570],
    ['quarter to ten', 585],
    ['quarter past 10', 615],
    ['10am', 600],
    ['4pm', 960],
    ['4 pm', 960],
    ['10.30am', 630],
    ['12pm', 720],
    ['noon', 720],
    ["9 o'clock", 540],
  ])('%s is %i minutes after midnight', (said, minutes) => {
    const quantities = analyze(`Be there at ${said} please.`).quantities.map(({ quantity }) => quantity);
    expect(quantities).toEqual([expect.objectContaining({ kind: 'number', dimension: 'time', low: minutes, high: minutes })]);
  });

  it('leaves other numbers alone', () => {
    expect(analyze('It costs £10 and 4 people came, half of them late.').quantities.map(({ quantity }) => (quantity.kind === 'number' ? quantity.dimension : 'date'))).toEqual(['GBP', 'count']);
  });

  it.each([
    // v24 read no figure in "half past nine", so the claim had nothing to agree or disagree with.
    ['Arrive at the reception of your base office at half past nine.', ['verified']],
    ['Arrive at the reception of your base office at half past ten.', ['contradicted']],
    ['Core hours are 10am to 4pm.', ['verified']],
    ['Core hours are 9am to 5pm.', ['contradicted']],
  ])('%s', async (answer, verdicts) => {
    expect(await claimVerdicts(judge, 'When do I arrive and what are the core hours?', firstDay, answer)).toEqual(verdicts);
  });
});
