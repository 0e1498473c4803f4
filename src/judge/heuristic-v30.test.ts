import { describe, expect, it } from 'vitest';
import { claimVerdicts } from '../test-support/judgments.js';
import { analyze } from './heuristic-analysis.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';
import type { EvidencePassage } from './types.js';

// heuristic-v30: the edges of a month and deadlines (METHODOLOGY.md, "Changes in v30").
const judge = createHeuristicFaithfulnessJudge();

const evidence: EvidencePassage[] = [
  {
    id: 'pay-and-payroll#payslips-and-tax-documents',
    kind: 'chunk',
    text: '[Source: Pay and Payroll | Section: Payslips and Tax Documents | Last updated: 2025-01-01]\nYour P60, showing your pay and tax for the tax year, is published on MyHarbour by 31 May.',
  },
  {
    id: 'remote-and-hybrid-working#home-working-allowance',
    kind: 'chunk',
    text: '[Source: Remote and Hybrid Working | Section: Home Working Allowance | Last updated: 2025-10-01]\nFrom 1 October 2025, hybrid employees receive a home working allowance of £30 per month.',
  },
];

const dates = (text: string) =>
  analyze(text).quantities.flatMap(({ quantity }) => (quantity.kind === 'date' ? [{ year: quantity.year, month: quantity.month, day: quantity.day, bound: quantity.bound ?? null }] : []));

describe('the edges of a month and deadlines (heuristic-v30)', () => {
  it.each([
    ['It goes up by the end of May.', [{ year: null, month: 5, day: 31, bound: 'before' }]],
    ['It stopped at the end of September 2025.', [{ year: 2025, month: 9, day: 30, bound: null }]],
    ['until the end of February 2024', [{ year: 2024, month: 2, day: 29, bound: 'before' }]],
    ['from the start of October 2025', [{ year: 2025, month: 10, day: 1, bound: 'after' }]],
    ['at the beginning of March', [{ year: null, month: 3, day: 1, bound: null }]],
    ['31 May at the latest', [{ year: null, month: 5, day: 31, bound: 'before' }]],
    ['published by 31 May', [{ year: null, month: 5, day: 31, bound: 'before' }]],
    // No month after "end of": no date.
    ['at the end of the day', []],
  ])('%s', (text, expected) => {
    expect(dates(text)).toEqual(expected);
  });

  it.each([
    // v29 read no date in "the end of May" and found "end" missing.
    ['Your P60 is published on MyHarbour by the end of May.', ['verified']],
    ['Your P60 is published on MyHarbour by the end of June.', ['contradicted']],
    ['Hybrid employees receive the £30 allowance from the start of October 2025.', ['verified']],
    ['Hybrid employees receive the £30 allowance from the start of November 2025.', ['contradicted']],
  ])('%s', async (answer, verdicts) => {
    expect(await claimVerdicts(judge, 'When is my P60 published, and what is the home working allowance?', evidence, answer)).toEqual(verdicts);
  });
});
