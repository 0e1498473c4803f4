import { describe, expect, it } from 'vitest';
import { chunkPassage, claimVerdicts } from '../test-support/judgments.js';
import { isSocialRemark, splitAnswer } from './claims.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';
import { discourseStems } from './heuristic-match.js';
import type { EvidencePassage } from './types.js';

// heuristic-v45: social remarks are no claims; the words of discourse expressions are not looked for (METHODOLOGY.md, "Changes in v45").
const judge = createHeuristicFaithfulnessJudge();

const pension: EvidencePassage[] = [
  chunkPassage('pension-and-benefits#workplace-pension', { title: 'Pension and Benefits', section: 'Workplace Pension', updated: '2025-04-01' }, 'All eligible employees are automatically enrolled into the Harbourline Group Personal Pension, run by Calder Pensions, from their first day of employment. You can opt out within 1 month of being enrolled and receive a full refund of your contributions. If you opt out, the law requires us to re-enrol you every 3 years, and you can opt out again if you wish.'),
];
const question = 'Can I get out of the pension and get my money back?';

describe('social remarks (heuristic-v45)', () => {
  it('a short remark with no figure is no claim; a remark carrying a claim or a figure stays', () => {
    expect(isSocialRemark('Congratulations to you both!')).toBe(true);
    expect(isSocialRemark('Sorry to hear that.')).toBe(true);
    expect(isSocialRemark('Great question!')).toBe(true);
    expect(isSocialRemark('Congratulations, you get 4 weeks of leave')).toBe(false);
    expect(isSocialRemark('Sorry to hear that your manager refused the 10 days you asked for and the appeal failed')).toBe(false);
    expect(splitAnswer('Sorry to hear that. You can opt out within 1 month.').claims).toEqual(['You can opt out within 1 month.']);
  });

  it('an answer opening with one is judged on what it states', async () => {
    // v44: the remark was a claim of its own, absent from every sentence (the answer `hallucinated`).
    expect(await claimVerdicts(judge, question, pension, 'Sorry to hear money is tight! You can opt out within 1 month of being enrolled and get a full refund.')).toEqual(['verified']);
  });
});

describe('discourse expressions (heuristic-v45)', () => {
  it('gives the content words of the expression only', () => {
    expect(discourseStems('Yes, as long as you opt out within a month; bear in mind it is final.')).toEqual(['long', 'bear', 'mind']);
    expect(discourseStems('The shutdown days are given on top of your annual leave.')).toEqual([]);
    expect(discourseStems('How long is the leave?')).toEqual([]);
  });

  it('"as long as" is not a length to find', async () => {
    // v44: absent ("closest sentence lacks: long, bear, mind").
    expect(await claimVerdicts(judge, question, pension, 'Bear in mind the law re-enrols you every 3 years as long as you opted out.')).toEqual(['verified']);
    // v115: behind a comma the condition is a claim of its own.
    expect(await claimVerdicts(judge, question, pension, 'Bear in mind the law re-enrols you every 3 years, as long as you opted out.')).toEqual(['verified', 'verified']);
  });

  it('the claim inside the expression is still checked', async () => {
    expect(await claimVerdicts(judge, question, pension, 'Bear in mind the law re-enrols you every 5 years as long as you opted out.')).not.toContain('verified');
    expect((await claimVerdicts(judge, question, pension, 'Bear in mind the law re-enrols you every 5 years, as long as you opted out.'))[0]).not.toBe('verified');
  });
});
