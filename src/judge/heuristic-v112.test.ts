import { describe, expect, it } from 'vitest';
import { flagsOf, outcomeOf } from '../contract/outcome.js';
import { expandCasual } from '../text/casual.js';
import { chunkPassage, okJudgment } from '../test-support/judgments.js';
import { answerMeetsAskedFigure, askedFigure } from './heuristic-asked.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';

// heuristic-v112: short everyday questions (the seventeenth label file, found on the README walk).
const judge = createHeuristicFaithfulnessJudge();
const leave = { title: 'Leave Policy', section: '', updated: '2026-01-12' };
const pay = { title: 'Pay and Payroll', section: 'Pay Day', updated: '2025-04-01' };
const bankHolidays = chunkPassage(
  'leave-policy#bank-holidays',
  { ...leave, section: 'Bank Holidays' },
  'If you are asked to work on a bank holiday, you may take another day off instead, within 3 months. Part-time employees receive a pro rata bank holiday entitlement.',
);
const entitlement = chunkPassage(
  'leave-policy#annual-leave-entitlement',
  { ...leave, section: 'Annual Leave Entitlement' },
  'Full-time employees receive 25 days of annual leave each year, plus the 8 bank holidays in England and Wales.',
);
const payDay = chunkPassage(
  'pay-and-payroll#pay-day',
  pay,
  'Salaries are paid monthly, in arrears, on the 25th of each month. If the 25th falls on a weekend or bank holiday, you are paid on the last working day before it. In December, pay day is brought forward to 19 December so that salaries arrive before the Christmas shutdown.',
);

const live = async (question: string, evidence: ReturnType<typeof chunkPassage>[], answer: string) => okJudgment(await judge.judge({ question, evidence, answer }));

describe('heuristic-v112: short everyday questions', () => {
  it('a heading word inside a two-word term ("Bank Holidays") no longer holds the question\'s word in answer relevance', async () => {
    // Judged `correct` with v111 (the heading gave "holiday" half credit, enough beside "day").
    const judgment = await live('How many days holiday do I get?', [bankHolidays, entitlement], 'If you are asked to work on a bank holiday, you may take another day off instead, within 3 months.');
    expect(judgment.answerRelevance).toBe('off_topic');
    expect(outcomeOf(flagsOf(judgment))).toBe('off_topic');
    // The heading still counts where the question names the term.
    const named = await live('What happens if I work on a bank holiday?', [bankHolidays, entitlement], 'You may take another day off instead, within 3 months.');
    expect(named.answerRelevance).toBe('answers');
  });

  it('"how many days" asks for a number of days, which a date or a day of the month cannot be', async () => {
    expect(askedFigure('how many days off do i get at christmas')).toMatchObject({ measure: 'duration', timeCount: true });
    expect(askedFigure('How long do I have to claim?').timeCount).toBeUndefined();
    expect(answerMeetsAskedFigure(askedFigure('how many days off do i get at christmas'), 'In December, pay day is brought forward to 19 December.')).toBe(false);
    expect(answerMeetsAskedFigure(askedFigure('how many days off do i get at christmas'), 'The offices close for 3 days.')).toBe(true);
    // A deadline still answers "how long".
    expect(answerMeetsAskedFigure(askedFigure('How long do I have to claim?'), 'Claim by 31 March.')).toBe(true);
    // Judged `correct` with v111: the pay-day rule answered "how many days off at Christmas".
    const judgment = await live('how many days off do i get at christmas', [payDay], 'In December, pay day is brought forward to 19 December so that salaries arrive before the Christmas shutdown.');
    expect(outcomeOf(flagsOf(judgment))).not.toBe('correct');
  });

  it('reads "whens" as "when\'s": "whens payday" asks a time, and the pay-day chunk answers it', async () => {
    expect(expandCasual('whens payday')).toBe("when's payday");
    const judgment = await live('whens payday', [payDay], 'Salaries are paid monthly, in arrears, on the 25th of each month.');
    expect(judgment.contexts[0]!.verdict).toBe('answers');
    expect(outcomeOf(flagsOf(judgment))).toBe('correct');
  });
});
