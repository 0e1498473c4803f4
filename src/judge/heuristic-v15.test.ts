import { describe, expect, it } from 'vitest';
import { okJudgment } from '../test-support/judgments.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';
import { aboutAnotherSection, openingSubject } from './heuristic-subject.js';
import type { EvidencePassage } from './types.js';

// heuristic-v15: an answer whose sentences open with another section's subject gives that
// subject's figure, not the one asked for (METHODOLOGY.md, "Changes in v15"). The live judge (no
// reference answer) took such faithful quotes of a neighbouring section for answers.
const judge = createHeuristicFaithfulnessJudge();


const payroll: EvidencePassage[] = [
  {
    id: 'travel#submitting-expense-claims',
    kind: 'chunk',
    text: "[Source: Travel and Expenses | Section: Submitting Expense Claims | Last updated: 2025-09-01]\nSubmit claims within 60 days of spending the money. Claims approved by your manager by the 10th of the month are paid with that month's salary.",
  },
  {
    id: 'pay#pay-day',
    kind: 'chunk',
    text: '[Source: Pay and Payroll | Section: Pay Day | Last updated: 2025-04-01]\nSalaries are paid monthly, in arrears, on the 25th of each month. If the 25th falls on a weekend or bank holiday, you are paid on the last working day before it.',
  },
];

const benefits: EvidencePassage[] = [
  {
    id: 'benefits#pension-contributions',
    kind: 'chunk',
    text: '[Source: Pension and Benefits | Section: Pension Contributions | Last updated: 2025-04-01]\nThe company contributes 6% of your basic salary to your pension when you contribute at least 4%.',
  },
  {
    id: 'benefits#income-protection',
    kind: 'chunk',
    text: '[Source: Pension and Benefits | Section: Income Protection | Last updated: 2025-04-01]\nIncome protection may pay 75% of your basic salary if you are unable to work for more than 26 weeks in a row.',
  },
];

const payDay = 'What day of the month do we get paid?';
const pension = 'What percentage of my salary does the company pay into my pension?';

describe('heuristic judge: another section\'s figure (heuristic-v15)', () => {
  it.each([
    // v14: 'answers' (the quote shares "month" and "paid" with the question and holds a date), so `correct`.
    ['expense claims quoted for pay day', payDay, payroll, "Claims approved by your manager by the 10th of the month are paid with that month's salary.", 'off_topic'],
    ['income protection quoted for the pension percentage', pension, benefits, 'Income protection may pay 75% of your basic salary if you are unable to work for more than 26 weeks in a row.', 'off_topic'],
    // The answers themselves still answer.
    ['pay day, the sentence quoted', payDay, payroll, 'Salaries are paid monthly, in arrears, on the 25th of each month.', 'answers'],
    ['pay day, in other words', payDay, payroll, 'Payday is the 25th of each month.', 'answers'],
    ['the pension percentage', pension, benefits, 'The company pays 6% of your basic salary into your pension when you contribute at least 4%.', 'answers'],
    // The question names the subject: the claims sentence answers it.
    ['expense claims asked about', 'When are approved expense claims paid?', payroll, "Claims approved by your manager by the 10th of the month are paid with that month's salary.", 'answers'],
    // A claim opening with "you" names no subject: left to the checks before.
    ['no opening subject', payDay, payroll, 'You are paid on the 25th of each month.', 'answers'],
  ])('%s', async (_case, question, evidence, answer, relevance) => {
    const judgment = okJudgment(await judge.judge({ question, evidence, answer }));
    expect({ relevance: judgment.answerRelevance, verified: judgment.claims.every((claim) => claim.verdict === 'verified') }).toEqual({ relevance, verified: true });
  });

  it('leaves a question that asks for no figure alone', async () => {
    const judgment = okJudgment(await judge.judge({ question: 'Are expense claims paid with salary?', evidence: payroll, answer: "Claims approved by your manager by the 10th of the month are paid with that month's salary." }));
    expect(judgment.answerRelevance).toBe('answers');
  });
});

describe('openingSubject', () => {
  it.each([
    ["Claims approved by your manager are paid with that month's salary.", { stems: ['claim', 'approv'], written: ['Claims', 'approved'] }],
    ['The partner of a birth parent gets 4 weeks.', { stems: ['partner'], written: ['partner'] }],
    ['First aid kits are kept in every kitchen.', { stems: ['first', 'aid', 'kit'], written: ['First', 'aid', 'kits'] }],
    ["You're enrolled from your first day.", null],
    ['As a grade 3 you give one month of notice.', null],
    ['25 days a year.', null],
  ])('%s', (text, subject) => {
    expect(openingSubject(text)).toEqual(subject);
  });
});

describe('aboutAnotherSection', () => {
  const sections = new Map([
    ['claims', new Set(['submit', 'expens', 'claim'])],
    ['pay-day', new Set(['pai', 'dai'])],
  ]);
  const question = new Set(['dai', 'month', 'get', 'paid']);
  it.each([
    ['the claims sentence', [{ text: 'Claims approved by the 10th are paid with salary', evidenceChunkId: 'claims' }], true],
    ['a subject the heading of its own chunk does not name', [{ text: 'Claims approved by the 10th are paid with salary', evidenceChunkId: 'pay-day' }], false],
    ['a heading sharing a word with the question', [{ text: 'Pay claims are made on the 25th', evidenceChunkId: 'pay-day' }], false],
    ['an absent claim', [{ text: 'Claims approved by the 10th are paid with salary', evidenceChunkId: null }], false],
    ['one claim on the asked subject', [{ text: 'Claims approved by the 10th are paid with salary', evidenceChunkId: 'claims' }, { text: 'Salaries are paid on the 25th', evidenceChunkId: 'pay-day' }], false],
    ['no opening subject', [{ text: 'You are paid with salary', evidenceChunkId: 'claims' }], false],
  ])('%s', (_case, claims, expected) => {
    expect(aboutAnotherSection(question, claims, sections)).toBe(expected);
  });
});
