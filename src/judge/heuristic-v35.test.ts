import { describe, expect, it } from 'vitest';
import { claimVerdicts } from '../test-support/judgments.js';
import { splitAnswer } from './claims.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';
import type { EvidencePassage } from './types.js';

// heuristic-v35: ", and the <noun> <verb> …" starts a claim of its own in an answer (METHODOLOGY.md, "Changes in v35").
const judge = createHeuristicFaithfulnessJudge();

const jury: EvidencePassage[] = [
  {
    id: 'leave-policy#jury-service-and-public-duties',
    kind: 'chunk',
    text: '[Source: Leave Policy | Section: Jury Service and Public Duties | Last updated: 2026-01-12]\nIf you are called for jury service, tell your manager as soon as you receive the summons. We pay your normal salary for up to 10 working days of jury service.',
  },
];

describe('a clause with its own subject after ", and" (heuristic-v35)', () => {
  it.each([
    ['Yes, you get your normal salary for 10 working days, and the company also pays your travel to court.', ['Yes, you get your normal salary for 10 working days', 'the company also pays your travel to court.']],
    ['Up to 5 days a year plus exam days, and the company pays for unlimited resits.', ['Up to 5 days a year plus exam days', 'the company pays for unlimited resits.']],
    ['You get £80, and the hours are paid as overtime.', ['You get £80', 'the hours are paid as overtime.']],
    // A list of things is not a clause.
    ['You can claim train, taxi, and the hotel costs.', ['You can claim train, taxi, and the hotel costs.']],
  ])('%s', (answer, claims) => {
    expect(splitAnswer(answer).claims).toEqual(claims);
  });

  it('a reference answer is split as before (reference recall counts its claims)', () => {
    expect(splitAnswer('You get £80, and the hours are paid as overtime.', { subjectClauses: false }).claims).toEqual(['You get £80, and the hours are paid as overtime.']);
  });

  it('an invented payment after a true rule is its own claim, and absent', async () => {
    expect(await claimVerdicts(judge, "I've been called up for jury service for three weeks. Will I still get paid?", jury, 'Yes, you get your normal salary for 10 working days, and the company also pays your travel to court.')).toEqual(['verified', 'absent']);
  });
});
