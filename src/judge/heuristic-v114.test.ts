import { describe, expect, it } from 'vitest';
import { flagsOf, outcomeOf } from '../contract/outcome.js';
import { chunkPassage, okJudgment } from '../test-support/judgments.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';

// heuristic-v114: arithmetic over the whole answer (a result one sentence works out is an operand of
// the next; multiples, quotients, journeys both ways, rates per unit), limits named before their
// figure, and a negation inside a condition written without its comma.
const judge = createHeuristicFaithfulnessJudge();
const commuting = chunkPassage(
  'travel-and-expenses#commuting',
  { title: 'Travel and Expenses', section: 'Commuting and Business Journeys', updated: '2025-09-01' },
  'If you travel directly from home to another location for work, such as a customer site, you can claim the business mileage minus the distance of your normal commute. For example, if a customer site is 40 miles from home and your office is 15 miles from home, you may claim 25 miles each way.',
);
const mileage = chunkPassage(
  'travel-and-expenses#mileage-rates',
  { title: 'Travel and Expenses', section: 'Mileage Rates', updated: '2025-09-01' },
  'Cars are paid at 45p a mile for the first 10,000 business miles in the tax year.',
);
const overtime = chunkPassage(
  'working-hours#paid-overtime',
  { title: 'Working Hours', section: 'Paid Overtime', updated: '2025-06-02' },
  'Overtime on Sundays and bank holidays is paid at 2 times your hourly rate. Your hourly rate is your annual basic salary divided by 1,950.',
);
const annualLeave = chunkPassage(
  'leave-policy#annual-leave',
  { title: 'Leave Policy', section: 'Annual Leave Entitlement', updated: '2026-01-12' },
  'Full-time employees receive 25 days of annual leave each year, plus the 8 bank holidays. You receive one extra day of annual leave for each completed year of service, up to a maximum of 30 days a year (reached after 5 completed years).',
);
const appointments = chunkPassage(
  'sickness-absence#medical-appointments',
  { title: 'Sickness Absence', section: 'Medical Appointments', updated: '2025-06-01' },
  'Please arrange GP, dental and hospital appointments outside core hours where you can. Where that is not possible, you may take reasonable paid time off of up to 2 hours for each appointment.',
);

const judged = async (question: string, evidence: ReturnType<typeof chunkPassage>[], answer: string) => okJudgment(await judge.judge({ question, evidence, answer }));
const verdictOf = (judgment: Awaited<ReturnType<typeof judged>>, text: string) => judgment.claims.find((claim) => claim.text.includes(text))?.verdict;

describe('heuristic-v114: arithmetic over the whole answer', () => {
  const mileageQuestion = "I'm driving from home straight to a customer site 60 miles away. My office is 10 miles from home. How much mileage can I claim each way?";

  it('a result worked out in one sentence is an operand of the next (v113: "£22.50 each way." absent)', async () => {
    const judgment = await judged(mileageQuestion, [commuting, mileage], 'You can claim 50 miles each way: the 60 miles minus your 10-mile commute. At 45p a mile, that is £22.50 each way.');
    expect(verdictOf(judgment, '£22.50')).toBe('verified');
    expect(outcomeOf(flagsOf(judgment))).toBe('correct');
  });

  it('a wrong result of the same chain is not verified', async () => {
    const judgment = await judged(mileageQuestion, [commuting, mileage], 'You can claim 50 miles each way: the 60 miles minus your 10-mile commute. At 45p a mile, that is £25 each way.');
    expect(verdictOf(judgment, '£25')).not.toBe('verified');
    expect(outcomeOf(flagsOf(judgment))).toBe('hallucinated');
  });

  it('works a quotient, a multiple of it and the total, each step written in the answer', async () => {
    const question = "I'm on £29,250 and did 4 hours of overtime last Sunday. How much should I get?";
    const judgment = await judged(question, [overtime], 'Your hourly rate is £29,250 / 1,950 = £15. Sunday overtime is paid at 2 times your hourly rate, £30 an hour. So 4 hours comes to £120.');
    expect(judgment.claims.map((claim) => claim.verdict)).toEqual(['verified', 'verified', 'verified']);
    const wrong = await judged(question, [overtime], 'Your hourly rate is £29,250 / 1,950 = £15. Sunday overtime is paid at 2 times your hourly rate, £45 an hour. So 4 hours comes to £180.');
    expect(verdictOf(wrong, '£45')).not.toBe('verified');
    expect(verdictOf(wrong, '£180')).not.toBe('verified');
  });

  it('works a rate per unit on top of the base ("one extra day for each completed year")', async () => {
    const question = 'I have been here 3 years. How many days holiday do I get now?';
    const judgment = await judged(question, [annualLeave], 'You get 25 days plus one extra day for each completed year of service, so with 3 completed years you have 28 days.');
    expect(verdictOf(judgment, '28 days')).toBe('verified');
    const wrong = await judged(question, [annualLeave], 'You get 25 days plus one extra day for each completed year of service, so with 3 completed years you have 29 days.');
    expect(verdictOf(wrong, '29 days')).not.toBe('verified');
  });
});

describe('heuristic-v114: limits', () => {
  const question = 'Is there a cap on annual leave?';

  it('"the maximum is 30 days" and "capped at 30 days" state the sentence\'s limit (v113: absent, contradicted by "one extra day")', async () => {
    expect(verdictOf(await judged(question, [annualLeave], 'The maximum is 30 days a year.'), 'maximum')).toBe('verified');
    expect(verdictOf(await judged(question, [annualLeave], 'It is capped at 30 days a year.'), 'capped')).toBe('verified');
  });

  it('a different limit is contradicted by the sentence\'s limit', async () => {
    const judgment = await judged(question, [annualLeave], 'It is capped at 35 days a year.');
    expect(judgment.claims[0]!.verdict).toBe('contradicted');
  });
});

describe('heuristic-v114: a negation inside a condition without its comma', () => {
  it('"where that isn\'t possible you may take…" negates the condition, not the taking (v113: contradicted)', async () => {
    const judgment = await judged('Can I go to a doctor appointment in work time?', [appointments], "Where that isn't possible you may take reasonable paid time off of up to 2 hours for each appointment.");
    expect(judgment.claims[0]!.verdict).toBe('verified');
  });

  it('the main clause negated still disagrees with the sentence', async () => {
    const judgment = await judged('Can I go to a doctor appointment in work time?', [appointments], "Where that isn't possible you may not take paid time off for each appointment.");
    expect(judgment.claims[0]!.verdict).toBe('contradicted');
  });
});
