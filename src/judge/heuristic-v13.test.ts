import { describe, expect, it } from 'vitest';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';
import type { EvidencePassage, FaithfulnessJudgment, FaithfulnessOk } from './types.js';

// heuristic-v13: answers that restate the user's details, and simple arithmetic (METHODOLOGY.md, "Changes in v13").
const judge = createHeuristicFaithfulnessJudge();

function ok(judgment: FaithfulnessJudgment): FaithfulnessOk {
  if (judgment.status !== 'ok') throw new Error(`judge error: ${judgment.error}`);
  return judgment;
}

async function verdicts(question: string, evidence: EvidencePassage[], answer: string) {
  return ok(await judge.judge({ question, evidence, answer })).claims.map((claim) => claim.verdict);
}

const notice: EvidencePassage[] = [
  {
    id: 'leaving#notice-periods',
    kind: 'chunk',
    text: [
      '[Source: Leaving | Section: Notice Periods | Last updated: 2025-12-08]',
      '| Situation | Notice you must give |',
      '| --- | --- |',
      '| During probation | 1 week |',
      '| After probation, grades 1 to 4 | 1 month |',
      '| After probation, grade 5 and above | 3 months |',
    ].join('\n'),
  },
];
const leaveWhenLeaving: EvidencePassage[] = [
  { id: 'leaving#annual-leave', kind: 'chunk', text: 'When you leave, any annual leave you have earned but not taken, including carried-over days, is paid in your final salary.' },
];

describe('heuristic judge: grade ranges and "but not" (heuristic-v13)', () => {
  it.each([
    // v12: absent ("grade 3" disagreed with the "1" of "grades 1 to 4", read as two counts).
    ['a grade inside "grades 1 to 4"', notice, 'As a grade 3 after probation you must give 1 month of notice.', ['verified']],
    ['a grade outside it is not that row', notice, 'As a grade 7 after probation you must give 1 month of notice.', ['contradicted']],
    ['the notice figure is still compared', notice, 'As a grade 3 after probation you must give 3 months of notice.', ['contradicted']],
    // v12: "Any annual leave you have earned" was a claim of its own (split at "but").
    ['"earned but not taken," is one clause', leaveWhenLeaving, "Any annual leave you've earned but not taken, including carried-over days, is paid in your final salary.", ['verified']],
    ['and its negation is still compared', leaveWhenLeaving, "Annual leave you've earned but not taken, including carried-over days, is not paid in your final salary.", ['contradicted']],
  ])('%s', async (_case, passages, answer, expected) => {
    expect(await verdicts('What does the handbook say?', passages, answer)).toEqual(expected);
  });
});
