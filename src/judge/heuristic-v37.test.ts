import { describe, expect, it } from 'vitest';
import { claimVerdicts } from '../test-support/judgments.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';
import type { EvidencePassage } from './types.js';

// heuristic-v37: the question's row of a table, claims of no limit, answers opening with their
// figure, "worth" and payment verbs (METHODOLOGY.md, "Changes in v37").
const judge = createHeuristicFaithfulnessJudge();

const overtime: EvidencePassage[] = [
  {
    id: 'working-hours#paid-overtime',
    kind: 'chunk',
    text: [
      '[Source: Working Hours | Section: Paid Overtime | Last updated: 2025-01-01]',
      'Employees in grades 1 to 3 are paid for approved overtime at these rates:',
      '| When the overtime is worked | Rate |',
      '| --- | --- |',
      '| Monday to Saturday | 1.5 times your hourly rate |',
      '| Sundays and bank holidays | 2 times your hourly rate |',
    ].join('\n'),
  },
];

const onCall: EvidencePassage[] = [
  {
    id: 'working-hours#on-call-allowance',
    kind: 'chunk',
    text: [
      '[Source: Working Hours | Section: On-Call Allowance | Last updated: 2025-01-01]',
      'Employees on an on-call rota receive an allowance for each period they are on call, whether or not they are called out:',
      '| On-call period | Allowance |',
      '| --- | --- |',
      '| Weekday night (17:00 to 09:00) | £40 |',
      '| Weekend day or bank holiday (24 hours) | £80 |',
    ].join('\n'),
  },
];

const address: EvidencePassage[] = [
  {
    id: 'remote#working-from-another-uk-address',
    kind: 'chunk',
    text: "[Source: Remote Working | Section: Working From Another UK Address | Last updated: 2025-01-01]\nYou may occasionally work from another address in the UK, such as a family home, with your manager's agreement. This can be for up to 4 consecutive weeks at a time.",
  },
];

const toil: EvidencePassage[] = [
  {
    id: 'working-hours#toil',
    kind: 'chunk',
    text: '[Source: Working Hours | Section: Time Off in Lieu | Last updated: 2025-01-01]\nYou may hold no more than 3 days (22.5 hours) of TOIL at any time.',
  },
];

describe('the row the question names (heuristic-v37)', () => {
  it('a figure from another row than the asker\'s is not verified', async () => {
    // v36 verified it by the Monday-to-Saturday row: the claim names no row, the question names Sunday.
    const question = 'I worked 4 hours on a Sunday as a grade 2. What rate is overtime paid at?';
    expect(await claimVerdicts(judge, question, overtime, "It's paid at 1.5 times your hourly rate.")).toEqual(['absent']);
    expect(await claimVerdicts(judge, question, overtime, "It's paid at 2 times your hourly rate.")).toEqual(['verified']);
  });

  it('a question naming this row too, or a claim naming its row, is read as before', async () => {
    expect(await claimVerdicts(judge, 'What is the overtime rate on a Saturday or a Sunday?', overtime, "It's paid at 1.5 times your hourly rate.")).toEqual(['verified']);
    expect(await claimVerdicts(judge, 'I work Sundays. What is overtime on other days?', overtime, 'Monday to Saturday it is 1.5 times your hourly rate.')).toEqual(['verified']);
  });
});

describe('a claim of no limit against a stated limit (heuristic-v37)', () => {
  it('is contradicted, also when the limit is in the next sentence', async () => {
    const question = "I want to work from my mum's place in Devon for six weeks. Is that OK?";
    expect(await claimVerdicts(judge, question, address, 'Yes, you can work from any UK address for as long as you like.')).toEqual(['contradicted']);
    expect(await claimVerdicts(judge, question, address, "Yes, you can work from another UK address with your manager's agreement.")).toEqual(['verified']);
  });
});

describe('answers opening with their figure, and "worth" (heuristic-v37)', () => {
  it('"At most 22.5 hours, which is 3 days\' worth" is verified', async () => {
    expect(await claimVerdicts(judge, 'How many hours of TOIL can I build up at most?', toil, "At most 22.5 hours, which is 3 days' worth.")).toEqual(['verified']);
    expect(await claimVerdicts(judge, 'How many hours of TOIL can I build up at most?', toil, "At most 30 hours, which is 4 days' worth.")).not.toContain('verified');
  });
});

describe('payment verbs with an amount (heuristic-v37)', () => {
  it('"pays £80" is what a table row giving £80 states', async () => {
    expect(await claimVerdicts(judge, 'Is the weekend on-call allowance eighty pounds?', onCall, 'Yes, a weekend day on call pays £80.')).toEqual(['verified']);
  });

  it('a payment verb without an amount must still be found as written', async () => {
    const allowance: EvidencePassage[] = [
      {
        id: 'remote#home-working-allowance',
        kind: 'chunk',
        text: '[Source: Remote Working | Section: Home Working Allowance | Last updated: 2025-10-01]\nFrom 1 October 2025, employees on a hybrid or home-based contract receive a home working allowance of £30 per month, paid through payroll, towards heating, electricity and broadband.',
      },
    ];
    const question = 'What does the company give me towards working from home?';
    expect(await claimVerdicts(judge, question, allowance, 'The company will also pay half of your broadband contract.')).toEqual(['absent']);
    expect(await claimVerdicts(judge, question, allowance, 'The company pays you £30 a month towards your broadband.')).toEqual(['verified']);
  });
});
