import { describe, expect, it } from 'vitest';
import { chunkPassage, claimVerdicts } from '../test-support/judgments.js';
import { analyze } from './heuristic-analysis.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';

// heuristic-v92: chat wording of dates, money and answers (the eleventh fresh label file).
const payDay = chunkPassage(
  'pay-and-payroll#pay-day',
  { title: 'Pay and Payroll', section: 'Pay Day', updated: '2025-04-01' },
  'Salaries are paid monthly, in arrears, on the 25th of each month. In December, pay day is brought forward to 19 December so that salaries arrive before the Christmas shutdown.',
);
const removable = chunkPassage(
  'it-and-security#removable-media',
  { title: 'IT and Security', section: 'Removable Media', updated: '2025-07-14' },
  'USB storage devices are blocked on all company laptops. If your role genuinely needs removable storage, the Head of IT Security can approve an exception, and you will be issued an encrypted company USB drive. Personal USB drives may never be used.',
);
const training = chunkPassage(
  'training-and-development#training-under-1-000',
  { title: 'Training and Development', section: 'Training Under £1,000', updated: '2026-01-05' },
  'If a course costs less than £1,000 in total, including VAT, you do not need your manager\'s approval. Training costing £1,000 or more needs written approval from your manager.',
);
const judge = createHeuristicFaithfulnessJudge();
const verdicts = (question: string, evidence: ReturnType<typeof chunkPassage>[], answer: string) => claimVerdicts(judge, question, evidence, answer);

describe('heuristic-v92', () => {
  it('reads "the 19th" as a day of the month: it agrees with 19 December, and "the 28th" disagrees with "the 25th of each month"', async () => {
    expect(analyze("You'll get December's pay on the 19th.").quantities.map(({ quantity }) => quantity.kind)).toContain('date');
    expect(await verdicts('whats payday in december?', [payDay], "You'll get December's pay on the 19th.")).toEqual(['verified']);
    expect(await verdicts('when do we get paid?', [payDay], 'You get paid on the 28th.')).toEqual(['contradicted']);
    // Not an ordinal of something else.
    expect(analyze('It is on the 3rd floor.').quantities.some(({ quantity }) => quantity.kind === 'date')).toBe(false);
  });

  it('reads "a grand" and "2 grand" as thousands of pounds, and "a grand total" as no amount', async () => {
    expect(await verdicts('can i book a course without approval?', [training], 'Training costing a grand or more needs written approval from your manager.')).toEqual(['verified']);
    expect(await verdicts('can i book a course without approval?', [training], 'Training costing 2 grand or more needs written approval from your manager.')).toEqual(['contradicted']);
    expect(analyze("That's a grand total of £300.").quantities.map(({ quantity }) => quantity.text)).toEqual(['£300']);
  });

  it('a claim about every case verified by two sentences together is read against both', async () => {
    expect(await verdicts('why wont my laptop read my usb stick?', [removable], 'USB storage devices are blocked on all company laptops, and personal USB drives can never be used.')).toEqual(['verified']);
  });

  it('"Afraid not", "nope" and "on this one" state nothing to look for', async () => {
    expect(await verdicts('can i book a £1,500 course without approval?', [training], "Afraid not. You'll need written approval from your manager on this one.")).not.toContain('absent');
    expect(await verdicts('can i book a £1,500 course without approval?', [training], 'And nope, training costing £1,000 or more needs written approval from your manager.')).toEqual(['verified']);
  });
});
