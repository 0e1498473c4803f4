import { describe, expect, it } from 'vitest';
import { isRefusal, isRefusalAside } from '../contract/refusal.js';
import { claimVerdicts, okJudgment, sectionEvidence } from '../test-support/judgments.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';
import { relate, findQuantities } from './heuristic-quantities.js';
import { tokenize } from './heuristic-tokens.js';

// heuristic-v60: bare answers read part by part, linking verbs, figures across units and asides,
// more refusal wordings (METHODOLOGY.md, "Changes in v60").
const judge = createHeuristicFaithfulnessJudge();
const passage = sectionEvidence;

const incomeProtection = passage(
  'pension-and-benefits#income-protection',
  'Income Protection',
  'If you have passed probation and are unable to work because of illness or injury for more than 26 weeks in a row, income protection may pay 75% of your basic salary, less any state benefits, until you return to work, reach State Pension age or leave the company. Claims are assessed by the insurer, and the People team will start a claim with you at around week 20 of your absence.',
  'Pension and Benefits',
);
const annualLeave = passage(
  'leave-policy#annual-leave-entitlement',
  'Annual Leave Entitlement',
  'The leave year runs from 1 January to 31 December. Full-time employees receive 25 days of annual leave each year, plus the 8 bank holidays in England and Wales.',
  'Leave Policy',
);
const payslips = passage(
  'pay-and-payroll#payslips-and-tax-documents',
  'Payslips and Tax Documents',
  'Your payslip is available on MyHarbour 3 working days before each pay day. Your P60, showing your pay and tax for the tax year, is published on MyHarbour by 31 May.',
  'Pay and Payroll',
);
const booking = passage(
  'travel-and-expenses#booking-business-travel',
  'Booking Business Travel',
  'Book all trains, flights and hotels through the travel desk or the online booking tool, at least 14 days in advance where possible.',
  'Travel and Expenses',
);
const mileage = passage(
  'travel-and-expenses#mileage-rates',
  'Mileage Rates',
  'If you use your own vehicle for business journeys, claim mileage at these rates:\n\n| Vehicle | Rate per business mile |\n| --- | --- |\n| Car or van | 45p |\n| Motorcycle | 24p |\n| Bicycle | 20p |',
  'Travel and Expenses',
);
const closeFamily = passage('leave-policy#compassionate-leave', 'Compassionate Leave', 'Close family means a partner, child, parent, brother or sister, grandparent, grandchild or parent-in-law.', 'Leave Policy');
const figure = (text: string) => findQuantities(tokenize(text)).quantities[0]!;

describe('bare answers read part by part (heuristic-v60)', () => {
  it('a hedge is no part of the name: "Possibly, through income protection."', async () => {
    const question = "I've been off with a back injury for about five months and my company sick pay has run out. Is there anything else that pays out?";
    // v59: `absent`, "the answer does not appear in a passage about the question" ("possibly" is in no sentence).
    expect(await claimVerdicts(judge, question, incomeProtection, 'Possibly, through income protection.')).toEqual(['verified']);
  });

  it('each part between commas is a phrase of its own: "Your People team, around week 20."', async () => {
    expect(await claimVerdicts(judge, 'Who starts an income protection claim?', incomeProtection, 'Your People team, around week 20.')).toEqual(['verified']);
  });

  it('a unit is no part of the name: "25 days a year"', async () => {
    // v59: "days" and "year" had to stand together in the sentence ("25 days of annual leave each year").
    expect(await claimVerdicts(judge, 'How much holiday do I get as a full timer?', annualLeave, '25 days a year, plus the 8 bank holidays.')).toEqual(['verified', 'verified']);
  });

  it('a name scattered over a sentence is still not found', async () => {
    expect(await claimVerdicts(judge, 'Who assesses an income protection claim?', incomeProtection, 'The State insurer.')).not.toEqual(['verified']);
  });

  it('a linking verb makes a clause, not a bare answer: "A grandparent counts as close family"', async () => {
    // v59: read as a bare answer whose three words had to stand together.
    expect(await claimVerdicts(judge, 'Does my grandmother count as close family?', closeFamily, 'Yes. A grandparent counts as close family.')).toEqual(['verified']);
  });
});

describe('figures (heuristic-v60)', () => {
  it('a subject set off by an aside describes the figure: "By 31 May." to "When do I get my P60?"', async () => {
    // v59: `absent`; "P60" was the seventh content word before "31 May".
    expect(await claimVerdicts(judge, 'When do I get my P60?', payslips, 'By 31 May.')).toEqual(['verified']);
  });

  it('calendar days and weeks convert as the same figure or its limit, working days never', async () => {
    expect(await claimVerdicts(judge, 'How early should I book my train?', booking, 'You should book at least two weeks in advance through the travel desk.')).toEqual(['verified']);
    expect(await claimVerdicts(judge, 'How early should I book my train?', booking, 'Two weeks ahead if you can, through the travel desk.')).toEqual(['verified']);
    expect(await claimVerdicts(judge, 'How early should I book my train?', booking, 'At least 3 weeks before, through the travel desk.')).not.toEqual(['verified']);
    expect(relate(figure('2 weeks'), figure('14 days'))).toBe('agree');
    expect(relate(figure('1 week'), figure('5 working days'))).toBe('incomparable');
    // Five weeks lies inside "at least 2 days" but is not that figure.
    expect(relate(figure('five weeks'), figure('at least 2 days'))).toBe('incomparable');
  });

  it('"24 pence" is 24p', async () => {
    expect(await claimVerdicts(judge, 'What is the motorcycle mileage rate?', mileage, 'You can claim 24 pence per mile on a motorcycle.')).toEqual(['verified']);
    expect(await claimVerdicts(judge, 'What is the motorcycle mileage rate?', mileage, 'You can claim 25 pence per mile on a motorcycle.')).toEqual(['contradicted']);
  });

  it('"The handbook only says …" is what it says, without the attribution', async () => {
    const shutdown = passage('leave-policy#christmas-shutdown', 'Christmas Shutdown', "All offices close between Christmas Day and New Year's Day.", 'Leave Policy');
    expect(await claimVerdicts(judge, 'Do the offices close at Christmas?', shutdown, "The handbook says all offices close between Christmas Day and New Year's Day.")).toEqual(['verified']);
  });
});

describe('refusals in chat wording (heuristic-v60)', () => {
  it.each([
    "There's no policy on dogs in what I've got.",
    "Colleagues' pay isn't something I can share.",
    'Sorry, individual salaries are private.',
    "I'm afraid salary details for named employees aren't available to me.",
    'Hmm, not sure.',
    "Honestly I'm not sure - nothing I have covers that.",
    "The shutdown section doesn't mention any exceptions for hot-desking.",
  ])('"%s" is a refusal', (answer) => {
    expect(isRefusal(answer)).toBe(true);
  });

  it.each(["I'm not sure you need a fit note for 3 days", 'Medical records are private and kept by the People team.', 'There is no policy limit on that, so any amount is fine.'])('"%s" is not', (answer) => {
    expect(isRefusal(answer)).toBe(false);
  });

  it.each(['The handbook talks about phones and equipment, not pets.', "it doesn't mention hot-desking exceptions", "I'd rather not guess", 'Your office manager is your best bet.'])(
    'after a refusal, "%s" is no claim',
    (aside) => {
      expect(isRefusalAside(aside)).toBe(true);
    },
  );

  it.each(['The handbook says you get 25 days.', 'Your manager will respond within 5 working days.', 'It covers dental treatment.'])('"%s" stays a claim', (claim) => {
    expect(isRefusalAside(claim)).toBe(false);
  });

  it('a refusal with a pointer and a note on what the sources cover has no claim to check', async () => {
    const phones = passage('equipment#mobile-phones', 'Mobile Phones', 'Company mobile phones are provided to field engineers. Reasonable personal use is allowed.', 'Equipment');
    const judgment = okJudgment(await judge.judge({ question: 'Can I bring my dog into the Leeds office?', evidence: phones, answer: "I'm not able to find a rule about dogs. The handbook talks about phones and equipment, not pets. Best to ask Facilities." }));
    expect(judgment.refused).toBe(true);
    expect(judgment.claims).toEqual([]);
  });
});
