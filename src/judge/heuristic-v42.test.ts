import { describe, expect, it } from 'vitest';
import { claimVerdicts } from '../test-support/judgments.js';
import { analyze } from './heuristic-analysis.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';
import type { EvidencePassage } from './types.js';

// heuristic-v42: an hour after a day and "at" is a time (METHODOLOGY.md, "Changes in v42").
const judge = createHeuristicFaithfulnessJudge();

const fire: EvidencePassage[] = [
  {
    id: 'health-and-safety#fire-safety',
    kind: 'chunk',
    text: '[Source: Health and Safety | Section: Fire Safety | Last updated: 2025-01-01]\nFire alarms are tested weekly: Bristol on Wednesdays at 11:00, Manchester on Thursdays at 10:00.',
  },
];

const times = (text: string) => analyze(text).quantities.filter(({ quantity }) => quantity.kind === 'number' && quantity.dimension === 'time').map(({ quantity }) => quantity.text);

describe('an hour after a day and "at" (heuristic-v42)', () => {
  it.each([
    ['The Bristol test is on Wednesdays at 11.', ['11']],
    ['on Monday at 9, or Friday at 17', ['9', '17']],
    // No day before "at", a unit after the number, or an hour that could be morning or afternoon: no time.
    ['Meet at 11 in room 4.', []],
    ['On Mondays at 3 people attend.', []],
    ['On Fridays at 10 minutes past.', []],
  ])('%s', (text, expected) => {
    expect(times(text)).toEqual(expected);
  });

  it('"Wednesdays at 11" agrees with "Wednesdays at 11:00", and "Thursdays at 11" does not', async () => {
    // v41 read "11" as a count, which no sentence states: absent.
    expect(await claimVerdicts(judge, 'When is the Bristol fire alarm tested?', fire, 'The Bristol test is on Wednesdays at 11.')).toEqual(['verified']);
    expect(await claimVerdicts(judge, 'When is the Manchester fire alarm tested?', fire, 'The Manchester test is on Thursdays at 11.')).toEqual(['contradicted']);
  });
});
