import { describe, expect, it } from 'vitest';
import { claimVerdicts } from '../test-support/judgments.js';
import { analyze } from './heuristic-analysis.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';
import type { EvidencePassage } from './types.js';

// heuristic-v24: the first figure of a change is a previous figure (METHODOLOGY.md, "Changes in v24").
const judge = createHeuristicFaithfulnessJudge();

const caps: EvidencePassage[] = [
  {
    id: 'travel#hotel-caps',
    kind: 'chunk',
    text: '[Source: Travel and Expenses | Section: Hotel Nightly Caps | Last updated: 2025-09-01]\nHotels must not exceed these caps:\n\n| Location | Maximum per night |\n| --- | --- |\n| London | £190 |\n| Elsewhere in the UK | £120 |\n\nThe London cap rose from £160 to £190 on 1 September 2025; all other caps are unchanged.',
  },
];
const question = 'I remember the London hotel cap being £160 a night. Is that still the limit?';

describe('the first figure of a change is a previous one (heuristic-v24)', () => {
  it.each([
    // v23 verified it against "rose from £160": the old figure stated as the current one.
    ['the old figure as current', 'Yes, the London hotel cap is still £160 a night.', ['contradicted']],
    ['the new figure', 'No, the London hotel cap went up to £190 a night on 1 September 2025.', ['verified']],
    ['the old figure called old', 'The previous London hotel cap was £160 a night.', ['verified']],
  ])('%s', async (_case, answer, verdicts) => {
    expect(await claimVerdicts(judge, question, caps, answer)).toEqual(verdicts);
  });

  it.each([
    ['The London cap rose from £160 to £190 on 1 September 2025.', [true, false, false]],
    ['The allowance was reduced from £30 to £25.', [true, false]],
    // A period, not a change.
    ['The leave year runs from 1 January to 31 December.', [false, false]],
    ['Caps range from £120 to £190.', [false, false]],
  ])('marks the old figure in: %s', (text, marked) => {
    expect(analyze(text).quantities.map((entry) => entry.context.has('previou'))).toEqual(marked);
  });
});
