import { describe, expect, it } from 'vitest';
import { answerMeetsAskedFigure, askedFigure } from './heuristic-asked.js';

// heuristic-v14: the figure a quantity question asks for (METHODOLOGY.md, "Changes in v14").
describe('askedFigure', () => {
  it.each([
    ["What's the mileage rate if I use my own car?", { measure: 'rate', period: null }],
    ['What is the overtime rate for grades 1 to 3?', { measure: 'rate', period: null }],
    ['What percentage of my salary goes into my pension?', { measure: 'percent', period: null }],
    ['How many weeks of full pay do I get?', { measure: 'duration', period: null, timeCount: true }],
    ['How long is probation?', { measure: 'duration', period: null }],
    ['How far can I travel before I must take the train?', { measure: 'distance', period: null }],
    ['How much is the monthly home working allowance?', { measure: null, period: 'month' }],
    ['What do I get per year for eye tests?', { measure: null, period: 'year' }],
    // Nothing more than "a number": left as before.
    ['How many counselling sessions can I get?', { measure: null, period: null }],
    ["What's the per-head limit for client dinners?", { measure: null, period: null }],
    // Two periods: which one the amount is for is unclear.
    ['Is the allowance paid monthly or yearly?', { measure: null, period: null }],
  ])('%s', (question, expected) => {
    expect(askedFigure(question)).toEqual(expected);
  });
});

describe('answerMeetsAskedFigure', () => {
  it.each([
    // A rate is an amount or a share per something, never a bare distance or length of time.
    ['a distance for a rate', { measure: 'rate', period: null }, 'For a round trip of more than 200 miles, book rail travel or a hire car.', false],
    ['a length of time for a rate', { measure: 'rate', period: null }, 'Overtime must be agreed within 2 weeks.', false],
    ['an amount per mile for a rate', { measure: 'rate', period: null }, "It's 45p a mile for the first 10,000 business miles.", true],
    ['a multiplier for a rate', { measure: 'rate', period: null }, "You're paid 1.5 times your hourly rate.", true],
    ['a share for a rate', { measure: 'rate', period: null }, 'The rate is 6% of your salary.', true],
    ['an amount for a percentage', { measure: 'percent', period: null }, 'The company pays up to £300.', false],
    ['a percentage for a percentage', { measure: 'percent', period: null }, 'The company pays 6% of your basic salary.', true],
    ['an amount for a length of time', { measure: 'duration', period: null }, 'You can claim up to £25 for an eye test.', false],
    ['weeks for a length of time', { measure: 'duration', period: null }, 'You get twenty weeks on full pay.', true],
    ['a distance for a distance', { measure: 'distance', period: null }, 'Anything over 200 miles needs a train.', true],
    ['a length of time for a distance', { measure: 'distance', period: null }, 'Book at least 2 weeks ahead.', false],
    // A recurring amount is not a one-off one, nor one for another period.
    ['a one-off amount for a monthly one', { measure: null, period: 'month' }, 'Hybrid employees may claim a one-off allowance of up to £300 for home office furniture.', false],
    ['a yearly amount for a monthly one', { measure: null, period: 'month' }, 'You get £360 a year.', false],
    ['a monthly amount', { measure: null, period: 'month' }, "It's currently £30 a month, paid through payroll.", true],
    ['an amount with no period of its own', { measure: null, period: 'month' }, "It's £30, paid through payroll.", true],
    ['one amount of the asked period is enough', { measure: null, period: 'month' }, "It's £30, which comes to £360 a year.", true],
    ['"within a month" is a length of time, not a period', { measure: null, period: 'year' }, 'You can claim £25 within a month of the test.', true],
    ['no figure: left to the other checks', { measure: 'rate', period: null }, 'It depends on your vehicle.', true],
    ['nothing asked beyond a number', { measure: null, period: null }, 'Book at least 2 weeks ahead.', true],
  ] as const)('%s', (_case, asked, answer, expected) => {
    expect(answerMeetsAskedFigure(asked, answer)).toBe(expected);
  });
});
