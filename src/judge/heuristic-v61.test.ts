import { describe, expect, it } from 'vitest';
import { claimVerdicts, sectionEvidence } from '../test-support/judgments.js';
import { analyze } from './heuristic-analysis.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';

// heuristic-v61: figures as people write them in chat, a negated bound, the asker's rank picks the
// table row, paying a share (METHODOLOGY.md, "Changes in v61").
const judge = createHeuristicFaithfulnessJudge();
const passage = sectionEvidence;
const figure = (text: string) => analyze(text).quantities[0]!.quantity;

const toil = passage(
  'working-hours#time-off-in-lieu-for-grades-4-and-above',
  'Time Off in Lieu for Grades 4 and Above',
  'Employees in grade 4 and above do not receive paid overtime. You may hold no more than 3 days (22.5 hours) of TOIL at any time. TOIL must be taken within 3 months of the extra hours being worked, or it is lost.',
  'Working Hours and Overtime',
);
const passwords = passage('it-and-security#passwords-and-passphrases', 'Passwords and Passphrases', 'Passwords for standard user accounts must be at least 14 characters long.', 'IT and Security');
const updates = passage('it-and-security#software-and-updates', 'Software and Updates', 'Install operating system and security updates within 7 days of being prompted.', 'IT and Security');
const firstDay = passage('onboarding#your-first-day', 'Your First Day', 'Unless told otherwise, arrive at the reception of your base office at 09:30.', 'Onboarding');
const onCall = passage(
  'working-hours#on-call-allowance',
  'On-Call Allowance',
  'Employees on an on-call rota receive an allowance for each period they are on call:\n\n| On-call period | Allowance |\n| --- | --- |\n| Weekday night (17:00 to 09:00) | £40 |\n| Weekend day or bank holiday (24 hours) | £80 |',
  'Working Hours and Overtime',
);
const overtime = passage(
  'working-hours#paid-overtime-for-grades-1-to-3',
  'Paid Overtime for Grades 1 to 3',
  '| When the overtime is worked | Rate |\n| --- | --- |\n| Monday to Saturday | 1.5 times your hourly rate |\n| Sundays and bank holidays | 2 times your hourly rate |',
  'Working Hours and Overtime',
);
const notice = passage(
  'leaving-harbourline#notice-periods',
  'Notice Periods',
  '| Situation | Notice you must give | Notice we must give |\n| --- | --- | --- |\n| During probation | 1 week | 1 week |\n| After probation, grades 1 to 4 | 1 month | 1 month |\n| After probation, grade 5 and above | 3 months | 3 months |',
  'Leaving Harbourline',
);
const pension = passage(
  'pension-and-benefits#pension-contributions',
  'Pension Contributions',
  'From 1 April 2025, the company contributes 6% of your basic salary when you contribute at least 4%. Before 1 April 2025, the company contribution was 5%.',
  'Pension and Benefits',
);

describe('a negated bound (heuristic-v61)', () => {
  it('"you can\'t hold more than 3 days" is "no more than 3 days", not its opposite', async () => {
    // v60: `contradicted`, "the claim negates "hold days", the evidence does not".
    expect(await claimVerdicts(judge, 'How much TOIL can I hold?', toil, "You can't hold more than 3 days of TOIL.")).toEqual(['verified']);
    expect(await claimVerdicts(judge, 'How much TOIL can I hold?', toil, "You can't hold more than 5 days of TOIL.")).toEqual(['contradicted']);
    expect(await claimVerdicts(judge, 'How much TOIL can I hold?', toil, 'You can hold more than 3 days of TOIL.')).toEqual(['contradicted']);
  });

  it('a figure after a preposition is a condition and keeps the negation', () => {
    const claim = analyze("You don't need approval for less than £1,000");
    expect([...claim.negatedStems]).toContain('need');
    expect(figure("You don't need approval for less than £1,000")).toMatchObject({ low: -Infinity, high: 1000 });
  });
});

describe('figures in chat wording (heuristic-v61)', () => {
  it('"14 characters minimum", "no shorter than 14 characters"', async () => {
    for (const answer of ['14 characters minimum.', 'No shorter than 14 characters.']) {
      expect(await claimVerdicts(judge, 'How long does my password need to be?', passwords, answer)).toEqual(['verified']);
    }
    expect(await claimVerdicts(judge, 'How long does my password need to be?', passwords, '12 characters minimum.')).not.toEqual(['verified']);
  });

  it('"within a week", "a week, max" are 7 days; "within a fortnight" is not', async () => {
    for (const answer of ['Within a week of being prompted.', 'A week, max.']) {
      expect(await claimVerdicts(judge, 'How long can I put off updates?', updates, answer)).toEqual(['verified']);
    }
    expect(await claimVerdicts(judge, 'How long can I put off updates?', updates, 'Within a fortnight of being prompted.')).not.toEqual(['verified']);
    // A rate or a noun after the unit counts nothing.
    expect(analyze('25 days a year').quantities).toHaveLength(1);
    expect(analyze('for a day trip of more than five hours').quantities.map(({ quantity }) => quantity.text)).toEqual(['more than five hours']);
  });

  it('"half nine" is 09:30', async () => {
    expect(await claimVerdicts(judge, 'What time do I start on day one?', firstDay, 'Half nine, at your base office reception.')).toEqual(['verified']);
    expect(await claimVerdicts(judge, 'What time do I start on day one?', firstDay, 'Half ten, at reception.')).not.toEqual(['verified']);
    expect(analyze('half nine-hour days').quantities.map(({ quantity }) => quantity.text)).toEqual(['nine-hour']);
  });

  it('"eighty quid" is £80', async () => {
    expect(await claimVerdicts(judge, 'How much for a weekend on call?', onCall, 'You get eighty quid per weekend day on call.')).toEqual(['verified']);
    expect(await claimVerdicts(judge, 'How much for a weekend on call?', onCall, 'You get forty quid per weekend day on call.')).toEqual(['contradicted']);
  });

  it('"2x your hourly rate" is 2 times it', async () => {
    expect(await claimVerdicts(judge, 'What do I get for a Sunday?', overtime, 'Sundays are paid at 2x your hourly rate.')).toEqual(['verified']);
    expect(await claimVerdicts(judge, 'What do I get for a Sunday?', overtime, 'Sundays are paid at 1.5x your hourly rate.')).toEqual(['contradicted']);
  });
});

describe("the asker's rank picks the table row (heuristic-v61)", () => {
  const question = "I'm grade 3 and passed probation. How much notice do I need to give?";
  it('a figure from the row the rank excludes is not verified', async () => {
    // v60: `verified` by the "grade 5 and above" row.
    expect(await claimVerdicts(judge, question, notice, 'You need to give 3 months.')).toEqual(['absent']);
    expect(await claimVerdicts(judge, question, notice, 'You need to give 1 month.')).toEqual(['verified']);
  });

  it('a claim that names its own rank is judged as before', async () => {
    expect(await claimVerdicts(judge, question, notice, 'Grade 5 and above give 3 months.')).toEqual(['verified']);
  });
});

describe('paying a share (heuristic-v61)', () => {
  it('"puts in 6%" is what "contributes 6%" states', async () => {
    // v60: `absent`, the closest sentence lacked "put".
    // v115: the condition behind the comma is a claim of its own.
    expect(await claimVerdicts(judge, 'How much does Harbourline put in my pension?', pension, '6% of your basic salary, as long as you put in at least 4%.')).toEqual(['verified', 'verified']);
    expect((await claimVerdicts(judge, 'How much does Harbourline put in my pension?', pension, '7% of your basic salary, as long as you put in at least 4%.'))[0]).not.toBe('verified');
  });
});
