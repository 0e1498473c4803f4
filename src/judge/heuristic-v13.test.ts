import { describe, expect, it } from 'vitest';
import { claimVerdicts } from '../test-support/judgments.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';
import type { EvidencePassage } from './types.js';

// heuristic-v13: answers that restate the user's details, and simple arithmetic (METHODOLOGY.md, "Changes in v13").
const judge = createHeuristicFaithfulnessJudge();

const verdicts = (question: string, evidence: EvidencePassage[], answer: string) => claimVerdicts(judge, question, evidence, answer);

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

describe('heuristic judge: details the asker gave (heuristic-v13)', () => {
  const meals: EvidencePassage[] = [
    {
      id: 'travel#meal-allowances',
      kind: 'chunk',
      text: [
        '[Source: Travel and Expenses | Section: Meal Allowances | Last updated: 2025-09-01]',
        'You may claim the actual cost of meals while travelling on business, with receipts, up to these daily limits:',
        '',
        '| Location | Day trip over 5 hours |',
        '| --- | --- |',
        '| London | £10 |',
        '| Elsewhere in the UK | £8 |',
      ].join('\n'),
    },
  ];
  const hotels: EvidencePassage[] = [
    {
      id: 'travel#hotel-caps',
      kind: 'chunk',
      text: ['Hotels must not exceed these caps:', '', '| Location | Maximum per night |', '| --- | --- |', '| London | £190 |', '| Elsewhere in the UK | £120 |'].join('\n'),
    },
  ];
  const benefits: EvidencePassage[] = [
    { id: 'benefits#medical', kind: 'chunk', text: 'Private medical insurance is offered to every employee once they have passed probation.' },
  ];
  const mentoring: EvidencePassage[] = [
    { id: 'training#mentoring', kind: 'chunk', text: 'Teams also run lunch-and-learn sessions, and every office has free access to the online course library.' },
  ];

  it.each([
    // v12: absent ("Leeds" and "counts" in no sentence).
    ['a place the asker named, classed by the row it falls in', 'I\'m doing a day trip to a customer in Leeds. What\'s the meal allowance?', meals, 'Leeds counts as elsewhere in the UK.', ['verified']],
    ['the same with the cap after it', 'What\'s the most I can spend on a hotel per night in Manchester?', hotels, 'Manchester counts as elsewhere in the UK, so the cap is £120 a night.', ['verified', 'verified']],
    // v12: absent ("holiday" is the asker's word; the sentence says "annual leave").
    ['a word of the question the passage never uses', 'What happens to holiday I haven\'t taken when I leave?', leaveWhenLeaving, "Any holiday you've earned but not used, including carried-over days, is paid in your final salary.", ['verified']],
  ])('%s', async (_case, question, passages, answer, expected) => {
    expect(await verdicts(question, passages, answer)).toEqual(expected);
  });

  it.each([
    ['nothing but the question\'s words', 'Can I get paid in bitcoin?', benefits, 'Yes, you can get paid in bitcoin.', ['absent']],
    ['a detail that describes a figure: it pins the figure, so it must be found', 'What\'s the most I can spend per night in Manchester?', hotels, 'The maximum hotel cap in Manchester is £190 a night.', ['absent']],
    ['two of the question\'s words missing', 'Can my husband get dental cover through work?', benefits, 'Private medical insurance, with dental, is offered to your husband once he has passed probation.', ['absent']],
    ['the claim\'s own words are too few', 'Do we get a free lunch on Fridays?', mentoring, 'Yes, there is a free team lunch in every office on Fridays.', ['absent']],
    ['a word the passage uses elsewhere must be found where it is used', 'Who wrote the theme?', [{ id: 'k', kind: 'chunk', text: 'Alf Clausen composed music for the show. The theme was written by Danny Elfman.' }], 'Alf Clausen composed the theme.', ['absent']],
  ])('not excused: %s', async (_case, question, passages, answer, expected) => {
    expect(await verdicts(question, passages as EvidencePassage[], answer)).toEqual(expected);
  });
});

describe('heuristic judge: arithmetic on the asker\'s figures (heuristic-v13)', () => {
  const commuting: EvidencePassage[] = [
    {
      id: 'travel#commuting',
      kind: 'chunk',
      text: [
        '[Source: Travel and Expenses | Section: Commuting and Business Journeys | Last updated: 2025-09-01]',
        'If you travel from home to a customer site, you can claim the miles to the site minus the miles of your normal commute, each way.',
        'For example, if a customer site is 40 miles from home and your office is 15 miles from home, you may claim 25 miles each way.',
      ].join('\n'),
    },
    {
      id: 'travel#mileage-rates',
      kind: 'chunk',
      text: '[Source: Travel and Expenses | Section: Mileage Rates | Last updated: 2025-09-01]\nA car journey for work is paid at 45p a mile each way.',
    },
  ];
  const mileageQuestion = 'The customer site is 60 miles from home and my office is 10 miles from home. How much can I claim each way?';
  const budget: EvidencePassage[] = [{ id: 'training#budget', kind: 'chunk', text: 'Every employee has a personal training budget of £1,500 for each calendar year.' }];
  const budgetQuestion = 'I have used £1,200 of my training budget. How much is left?';

  it.each([
    // v12: contradicted (the example's 25 miles) or absent (50 miles in no sentence).
    ['a difference of the asker\'s figures, with them restated', mileageQuestion, commuting, 'You can claim 50 miles each way: the 60 miles to the site minus the 10 miles of your normal commute.', ['verified']],
    // v12: contradicted ("45p, not £22.50").
    ['the asker\'s distance times the stated rate', 'I drove 50 miles in my car for work. How much can I claim each way?', commuting, 'A car journey of 50 miles for work is paid £22.50 each way.', ['verified']],
    // v12: contradicted ("£1,500, not £300").
    ['the stated budget less what the asker spent', budgetQuestion, budget, 'Your personal training budget of £1,500 for each calendar year has £300 remaining.', ['verified']],
  ])('%s', async (_case, question, passages, answer, expected) => {
    expect(await verdicts(question, passages, answer)).toEqual(expected);
  });

  it.each([
    ['a wrong result', budgetQuestion, budget, 'Your personal training budget of £1,500 for each calendar year has £400 remaining.', ['contradicted']],
    // A sum where the answer says it took away: 35 is 25 + 10, not what "left" means.
    ['the other operation than the one the answer names', budgetQuestion, budget, 'Your personal training budget of £1,500 for each calendar year has £2,700 remaining.', ['contradicted']],
    ['a wrong product', 'I drove 50 miles in my car for work. How much can I claim each way?', commuting, 'A car journey of 50 miles for work is paid £25 each way.', ['contradicted']],
    // The answer's own 30 miles is no operand: only the question's and the evidence's figures are.
    ['a product of the answer\'s own figure', 'How much is a car journey for work paid?', commuting, 'A car journey of 30 miles for work is paid £13.50 each way.', ['contradicted']],
    // The question's figure alone is the asker's premise, not support.
    ['the asker\'s figure restated alone', 'Is a car journey for work still paid at 40p a mile?', [{ id: 'travel#mileage', kind: 'chunk', text: 'Car journeys for work are paid by the mile, each way, at the rate shown on MyHarbour.' }], 'Yes, a car journey for work is paid at 40p a mile each way.', ['absent']],
  ])('not worked out: %s', async (_case, question, passages, answer, expected) => {
    expect(await verdicts(question, passages as EvidencePassage[], answer)).toEqual(expected);
  });

  it.each([
    // v12: contradicted ("says 25 miles, not 50 miles": the example's own case).
    ['an example\'s figures do not contradict the asker\'s case', 'If a customer site is 60 miles from home and your office is 10 miles from home, you may claim 50 miles each way.', ['absent']],
    ['the example restated is still verified', 'If a customer site is 40 miles from home and your office is 15 miles from home, you may claim 25 miles each way.', ['verified']],
  ])('%s', async (_case, answer, expected) => {
    expect(await verdicts(mileageQuestion, commuting, answer)).toEqual(expected);
  });

  it('a worked-out figure is not "stated elsewhere": a contradiction stands', async () => {
    const caps: EvidencePassage[] = [{ id: 'travel#hotels', kind: 'chunk', text: 'The hotel cap is £120 a night. Taxis are claimed with receipts.' }];
    expect(await verdicts('I spent £100 on dinner and £50 on a taxi. What is the hotel cap?', caps, 'The hotel cap is £150 a night in total.')).toEqual(['contradicted']);
  });
});
