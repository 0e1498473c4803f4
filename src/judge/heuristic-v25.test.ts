import { describe, expect, it } from 'vitest';
import { claimVerdicts } from '../test-support/judgments.js';
import { analyze } from './heuristic-analysis.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';
import type { EvidencePassage } from './types.js';

// heuristic-v25: times of day as people say them; heuristic-v26: "the first N" is a bound
// (METHODOLOGY.md, "Changes in v25", "Changes in v26").
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

describe('"the first N" is a bound (heuristic-v26)', () => {
  const sickness: EvidencePassage[] = [
    {
      id: 'sickness#self-certification',
      kind: 'chunk',
      text: '[Source: Sickness Absence | Section: Self-Certification | Last updated: 2025-02-17]\nFor sickness absence of up to 7 calendar days, you self-certify on MyHarbour on your return. From the 8th calendar day of absence, you need a fit note.',
    },
  ];
  it.each([
    ['the first 7 calendar days', -Infinity, 7],
    ['your first 10,000 business miles', -Infinity, 10_000],
  ])('%s', (text, low, high) => {
    expect(analyze(`It covers ${text}.`).quantities[0]!.quantity).toEqual(expect.objectContaining({ low, high }));
  });

  it.each([
    // v25 read "first 7" as exactly 7 days against "up to 7": not stated for this.
    ['Self-certifying only covers the first 7 calendar days.', ['verified']],
    ['Self-certifying only covers the first 10 calendar days.', ['contradicted']],
  ])('%s', async (answer, verdicts) => {
    expect(await claimVerdicts(judge, "I'm off sick for nine days. Can I just self-certify?", sickness, answer)).toEqual(verdicts);
  });
});
