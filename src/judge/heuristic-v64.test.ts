import { describe, expect, it } from 'vitest';
import { chunkPassage, claimVerdicts } from '../test-support/judgments.js';
import { expandCasual } from '../text/casual.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';
import type { EvidencePassage } from './types.js';

// heuristic-v64: answers read with chat spellings written out, "and a half", "per person" (METHODOLOGY.md, "Changes in v64").
const judge = createHeuristicFaithfulnessJudge();
const hours: EvidencePassage[] = [
  chunkPassage('working-hours#standard-working-hours', { title: 'Working Hours and Overtime', section: 'Standard Working Hours', updated: '2025-06-02' }, 'Full-time employees work 37.5 hours a week, Monday to Friday, not counting an unpaid lunch break.'),
];
const entertainment: EvidencePassage[] = [
  chunkPassage('travel-and-expenses#client-entertainment', { title: 'Travel and Expenses', section: 'Client Entertainment', updated: '2025-09-01' }, 'The limit is £75 per head, including drinks.'),
];
const question = 'How many hours a week is full time?';

describe('chat spellings and spoken figures in answers (heuristic-v64)', () => {
  it('"Mon to Fri" is Monday to Friday; "Thurs" is not Friday', async () => {
    expect(await claimVerdicts(judge, question, hours, '37.5 hours, Mon to Fri.')).toEqual(['verified']);
    expect(await claimVerdicts(judge, question, hours, '37.5 hours, Mon to Thurs.')).toEqual(['absent']);
    // "Wed", "Sat" and "Sun" are words too, and stay as written.
    expect(expandCasual('I sat in the sun on Wed')).toBe('I sat in the sun on Wed');
  });

  it('"thirty-seven and a half hours" is 37.5 hours', async () => {
    expect(await claimVerdicts(judge, question, hours, 'Thirty-seven and a half hours a week.')).toEqual(['verified']);
    expect(await claimVerdicts(judge, question, hours, '37 and a half hours a week, Monday to Friday.')).toEqual(['verified']);
    expect(await claimVerdicts(judge, question, hours, 'Thirty-five and a half hours a week.')).not.toEqual(['verified']);
  });

  it('"per person" is "per head" for an amount', async () => {
    expect(await claimVerdicts(judge, 'How much can I spend on a client dinner?', entertainment, 'Up to seventy-five pounds per person including drinks.')).toEqual(['verified']);
    expect(await claimVerdicts(judge, 'How much can I spend on a client dinner?', entertainment, 'Up to ninety pounds per person including drinks.')).toEqual(['contradicted']);
  });
});
