import { describe, expect, it } from 'vitest';
import { claimVerdicts } from '../test-support/judgments.js';
import { analyze } from './heuristic-analysis.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';
import type { EvidencePassage } from './types.js';

// heuristic-v28: contrasts ("…, HMRC does", "…, not by Harbourline"; METHODOLOGY.md, "Changes in v28").
const judge = createHeuristicFaithfulnessJudge();

const taxCodes: EvidencePassage[] = [
  {
    id: 'pay-and-payroll#tax-codes',
    kind: 'chunk',
    text: '[Source: Pay and Payroll | Section: Tax Codes | Last updated: 2025-01-01]\nYour tax code is set by HMRC, not by Harbourline. If you think your tax code is wrong, contact HMRC directly.',
  },
];

const sickPay: EvidencePassage[] = [
  {
    id: 'sickness-absence#company-sick-pay',
    kind: 'chunk',
    text: '[Source: Sickness Absence | Section: Company Sick Pay | Last updated: 2025-02-17]\n| Length of service | Full pay | Then half pay |\n| --- | --- | --- |\n| During probation | Statutory Sick Pay only | None |\n| From passing probation to 2 years | 4 weeks | 4 weeks |',
  },
];

describe('a negation followed by an elliptical contrast negates its subject (heuristic-v28)', () => {
  it.each([
    ["Harbourline doesn't set your tax code, HMRC does.", ['harbourlin']],
    ["Payroll won't change it, HMRC will, and quickly.", ['payrol']],
    // No contrast: the negation reaches forward as before.
    ["Harbourline doesn't set your tax code.", ['set', 'tax', 'code']],
    // A negated second clause is no contrast.
    ["Payroll doesn't set it, and HMRC doesn't either.", ['set', 'either']],
  ])('%s', (text, negated) => {
    expect([...analyze(text).negatedStems].sort()).toEqual([...negated].sort());
  });

  it.each([
    // v27 read "doesn't set your tax code" as the opposite of the evidence.
    ["Harbourline doesn't set your tax code, HMRC does.", ['verified']],
    ["HMRC doesn't set your tax code, Harbourline does.", ['contradicted']],
  ])('%s', async (answer, verdicts) => {
    expect(await claimVerdicts(judge, 'Who sets my tax code?', taxCodes, answer)).toEqual(verdicts);
  });
});

describe("the evidence's elliptical negation rules its words out (heuristic-v28)", () => {
  it.each([
    // v27 verified this: it aligned the claim with "Your tax code is set by HMRC" alone.
    ['Your tax code is set by Harbourline.', ['contradicted']],
    ['Your tax code is set by HMRC.', ['verified']],
  ])('%s', async (answer, verdicts) => {
    expect(await claimVerdicts(judge, 'Who sets my tax code?', taxCodes, answer)).toEqual(verdicts);
  });

  it('not a table cell that says "None": a verbatim row stays verified', async () => {
    expect(await claimVerdicts(judge, 'What sick pay do I get during probation?', sickPay, 'Length of service: During probation; Full pay: Statutory Sick Pay only; Then half pay: None.')).toEqual(['verified']);
  });
});
