import { describe, expect, it } from 'vitest';
import { splitAnswer } from './claims.js';
import { chunkPassage, claimVerdicts, okJudgment } from '../test-support/judgments.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';

// heuristic-v107: readings that were wrong in English. A claim stating several rows of a table; a
// concession ("…, even on a business journey") and "neither do X" compared for polarity as if they
// negated or stated something; a condition written without its comma negating the main clause;
// "won't … until" over more than eight words; "only when" against "whether or not"; social remarks
// with an interjection or an adverb; indefinite words ("whatever").
const judge = createHeuristicFaithfulnessJudge();
const mileage = chunkPassage(
  'travel#mileage-rates',
  { title: 'Travel and Expenses', section: 'Mileage Rates', updated: '2025-01-01' },
  [
    'If you use your own vehicle for business journeys, claim mileage at these rates:',
    '',
    '| Vehicle | Rate per business mile |',
    '| --- | --- |',
    '| Car or van, first 10,000 business miles in the tax year | 45p |',
    '| Car or van, each business mile over 10,000 in the tax year | 25p |',
    '| Motorcycle | 24p |',
    '| Bicycle | 20p |',
  ].join('\n'),
);
const onCall = chunkPassage(
  'hours#on-call',
  { title: 'Working Hours', section: 'On-Call Allowance', updated: '2025-01-01' },
  [
    'Employees on an on-call rota receive an allowance for each period they are on call, whether or not they are called out:',
    '',
    '| On-call period | Allowance |',
    '| --- | --- |',
    '| Weekday night (17:00 to 09:00) | £40 |',
    '| Weekend day or bank holiday (24 hours) | £80 |',
  ].join('\n'),
);
const cannotClaim = chunkPassage(
  'travel#cannot-claim',
  { title: 'Travel and Expenses', section: 'What You Cannot Claim', updated: '2025-01-01' },
  'The following are not reimbursed: speeding and traffic fines, personal travel insurance, and costs for anyone travelling with you who is not on company business.',
);
const learning = chunkPassage(
  'training#internal-learning',
  { title: 'Training and Development', section: 'Mentoring and Internal Learning', updated: '2025-01-01' },
  'Teams also run lunch-and-learn sessions, and all employees have free access to the internal online course library. Neither uses your training budget.',
);
const mandatory = chunkPassage(
  'onboarding#mandatory-training',
  { title: 'Onboarding', section: 'Mandatory Training for New Starters', updated: '2025-01-01' },
  'Access to customer systems and customer data is not granted until Information Security Essentials and Data Protection Basics are complete.',
);
const phones = chunkPassage(
  'it#mfa',
  { title: 'IT and Security', section: 'Multi-Factor Authentication', updated: '2025-01-01' },
  'Use the authenticator app on your personal phone when you have no company phone. Text message codes are a backup only.',
);

describe('heuristic-v107: a claim stating several rows of one table', () => {
  const question = 'What mileage rate do I get for my car?';

  it('is verified when each figure agrees with the row its words name', async () => {
    expect(await claimVerdicts(judge, question, [mileage], 'Mileage is 45p a mile for the first 10,000 business miles and 25p a mile over 10,000.')).toEqual(['verified']);
    expect(await claimVerdicts(judge, question, [mileage], "It's 45p a mile for a car and 24p for a motorcycle.")).toEqual(['verified']);
    expect(await claimVerdicts(judge, 'What is the on-call allowance?', [onCall], 'On-call pays £40 for each weekday night (17:00 to 09:00) and £80 for a weekend day or bank holiday.')).toEqual(['verified']);
  });

  it('is not verified with the rows swapped or a figure from another row', async () => {
    expect(await claimVerdicts(judge, question, [mileage], 'Mileage is 25p a mile for the first 10,000 business miles and 45p a mile over 10,000.')).not.toEqual(['verified']);
    expect(await claimVerdicts(judge, question, [mileage], 'Mileage is 45p a mile for the first 10,000 business miles and 24p a mile over 10,000.')).not.toEqual(['verified']);
    expect(await claimVerdicts(judge, question, [mileage], "It's 24p a mile for a car and 45p for a motorcycle.")).not.toEqual(['verified']);
  });
});

describe('heuristic-v107: polarity', () => {
  it('a concession after a comma states nothing to compare: the fine is still not reimbursed', async () => {
    const question = 'Can I claim back a speeding fine from a customer visit?';
    expect(await claimVerdicts(judge, question, [cannotClaim], 'No, speeding and traffic fines aren\'t reimbursed, even on a business journey.')).toEqual(['verified']);
    expect(await claimVerdicts(judge, question, [cannotClaim], 'Speeding fines are reimbursed, even on a business journey.')).toEqual(['contradicted']);
  });

  it('"neither does X" negates the verb said before, not X', async () => {
    const judgment = okJudgment(
      await judge.judge({
        question: 'Does the course library use my training budget?',
        evidence: [learning],
        answer: 'Lunch-and-learns are free, and neither does the internal online course library.',
      }),
    );
    expect(judgment.claims.some((claim) => claim.verdict === 'contradicted')).toBe(false);
  });

  it('"won\'t … until" is a condition however long its object', async () => {
    const question = 'When do I get access to customer systems?';
    expect(
      await claimVerdicts(judge, question, [mandatory], "You won't get access to customer systems or customer data until Information Security Essentials and Data Protection Basics are complete."),
    ).toEqual(['verified']);
  });

  it('a condition written without its comma negates only itself', async () => {
    const judgment = okJudgment(
      await judge.judge({ question: 'Do I need the authenticator app?', evidence: [phones], answer: 'If you have no company phone you use the authenticator app on your personal phone.' }),
    );
    expect(judgment.claims.map((claim) => claim.verdict)).toEqual(['verified']);
  });

  it('one shared word does not align a longer segment with a negated one', async () => {
    const forms = chunkPassage('expenses#forms', { title: 'Expenses', section: 'Claims', updated: '2025-01-01' }, 'You need to complete the expense form within 5 days. Overtime is paid at time and a half.');
    const question = 'Do I need to chase anyone?';
    expect(await claimVerdicts(judge, question, [forms], "You shouldn't need to chase anyone.")).toEqual(['absent']);
    // Two shared words, or a short claim, are still compared.
    expect(await claimVerdicts(judge, question, [forms], "You don't need to complete the expense form.")).toEqual(['contradicted']);
    expect(await claimVerdicts(judge, question, [forms], "Overtime isn't paid.")).toEqual(['contradicted']);
  });

  it('"only when" against "whether or not" is contradicted', async () => {
    const judgment = okJudgment(
      await judge.judge({ question: 'Do I get the on-call allowance?', evidence: [onCall], answer: "You get it only for the periods when you're actually called out." }),
    );
    expect(judgment.claims.map((claim) => claim.verdict)).toEqual(['contradicted']);
    expect(judgment.claims[0]!.note).toContain('whether or not');
  });
});

describe('heuristic-v107: words that state nothing', () => {
  it('a social remark with an interjection or an adverb is no claim', () => {
    expect(splitAnswer("ugh, sorry! Tell the IT Service Desk within an hour.").claims).toEqual(['Tell the IT Service Desk within an hour.']);
    expect(splitAnswer("I'm so sorry about your nan. You can take up to 5 days.").claims).toEqual(['You can take up to 5 days.']);
    expect(splitAnswer('That sounds really frustrating, sorry! Ratings can change at calibration.').claims).toEqual(['Ratings can change at calibration.']);
    // The remark with a claim in it keeps the claim.
    expect(splitAnswer("Sorry, you can't claim it.").claims).toEqual(["Sorry, you can't claim it."]);
  });

  it('"whatever" is an indefinite word like "anything"', async () => {
    const finalPay = chunkPassage(
      'leaving#final-pay',
      { title: 'Leaving', section: 'Final Pay', updated: '2025-01-01' },
      'Any outstanding balance on the cycle to work scheme is deducted from your final pay.',
    );
    // One word of the claim's own ("owe") may be missing; "whatever" is not a second one.
    expect(await claimVerdicts(judge, 'What happens to my bike scheme when I leave?', [finalPay], 'Whatever you owe is deducted from your final pay.')).toEqual(['verified']);
  });
});
