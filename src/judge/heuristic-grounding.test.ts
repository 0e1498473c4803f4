import { beforeAll, describe, expect, it } from 'vitest';
import { flagsOf, outcomeOf } from '../contract/outcome.js';
import { REFUSAL_SENTENCE } from '../contract/refusal.js';
import { handbookPassages } from '../test-support/fixtures.js';
import { okJudgment } from '../test-support/judgments.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';
import { asksForPersonalData } from './heuristic-relevance.js';
import type { EvidencePassage, FaithfulnessInput, FaithfulnessOk } from './types.js';

// heuristic-v5: context verdicts grounded in the reference answer, relevance checked against where
// the reference is stated, and the claim rules that paraphrased answers tripped over. Real handbook chunks, as the pipeline puts them in a prompt.
const PROBATION = 'onboarding#probation-period';
const BUDDY = 'onboarding#buddy-scheme';
const FIRST_DAY = 'onboarding#before-your-first-day';
/** Worded unlike the handbook ("trial period" for "probation", "join" for "new employees"). */
const TRIAL_QUESTION = 'How long is the trial period when I join?';
const TRIAL_REFERENCE = 'New employees serve a probation period of 6 months.';

let handbook: (id: string) => EvidencePassage;
beforeAll(async () => {
  handbook = await handbookPassages();
});

const judge = createHeuristicFaithfulnessJudge();
async function judged(input: Omit<FaithfulnessInput, 'evidence'> & { evidence: string[] }): Promise<FaithfulnessOk> {
  return okJudgment(await judge.judge({ ...input, evidence: input.evidence.map((id) => handbook(id)) }));
}
const outcome = (judgment: FaithfulnessOk) => outcomeOf(flagsOf(judgment));

describe('heuristic judge: context verdicts from the reference answer', () => {
  it('a refusal is an over-refusal when a retrieved chunk states the reference answer, however the question is worded', async () => {
    const judgment = await judged({ question: TRIAL_QUESTION, evidence: [PROBATION, BUDDY], answer: REFUSAL_SENTENCE, reference: TRIAL_REFERENCE });
    expect([outcome(judgment), judgment.contexts.map((context) => context.verdict)]).toEqual(['over_refusal', ['answers', 'unrelated']]);
    expect(judgment.contexts[0]!.note).toMatch(/reference answer's claim "New employees serve a probation period of 6 months\."/);
  });

  it('the same refusal is right when retrieval missed the chunk that states the reference answer', async () => {
    const judgment = await judged({ question: TRIAL_QUESTION, evidence: [BUDDY, FIRST_DAY], answer: REFUSAL_SENTENCE, reference: TRIAL_REFERENCE });
    expect([outcome(judgment), judgment.contexts.map((context) => context.verdict)]).toEqual(['correct_refusal', ['unrelated', 'unrelated']]);
  });

  it('without a reference (the live judge) only the question\'s words decide: the refusal is credited', async () => {
    const judgment = await judged({ question: TRIAL_QUESTION, evidence: [PROBATION, BUDDY], answer: REFUSAL_SENTENCE });
    expect(outcome(judgment)).toBe('correct_refusal');
  });

  it('a faithful answer from another chunk that states none of the reference is off topic, however many of the question\'s words it shares', async () => {
    const judgment = await judged({
      question: 'How many days of annual leave do full-time employees get?',
      evidence: ['leave-policy#annual-leave-entitlement', 'leave-policy#buying-extra-leave'],
      answer: 'You can buy up to 5 extra days of annual leave each year through salary sacrifice.',
      reference: 'Full-time employees receive 25 days of annual leave each year, plus the 8 bank holidays.',
    });
    expect([judgment.claims.map((claim) => claim.verdict), judgment.answerRelevance, outcome(judgment)]).toEqual([['verified'], 'off_topic', 'off_topic']);
  });

  it('an answer resting on the reference\'s chunk and stating the whole reference answers the question', async () => {
    const judgment = await judged({ question: TRIAL_QUESTION, evidence: [PROBATION, BUDDY], answer: 'All new employees serve a probation period of 6 months.', reference: TRIAL_REFERENCE });
    expect([judgment.answerRelevance, outcome(judgment)]).toEqual(['answers', 'correct']);
  });
});

describe('heuristic judge: claim rules for paraphrased answers', () => {
  it.each([
    ['a claim whose figure agrees may use one word of its own', 'What is the limit for entertaining a client?', ['travel-and-expenses#client-entertainment'], 'You can spend up to £75 a head including drinks.', ['verified']],
    [
      'a list quoted with its lead-in is one statement',
      'Which e-learning do new starters have to finish, and by when?',
      ['onboarding#mandatory-training-for-new-starters'],
      'You must complete the Information Security Essentials, Data Protection Basics, Code of Conduct and Health and Safety Induction modules within your first 30 days.',
      ['verified'],
    ],
    [
      '", plus" starts a claim of its own (two chunks, two facts)',
      'What do hybrid workers get for working from home?',
      ['remote-and-hybrid-working#home-working-allowance', 'equipment#home-office-equipment-allowance'],
      'You get a home working allowance of £30 per month through payroll, plus a one-off home office equipment allowance of up to £300.',
      ['verified', 'verified'],
    ],
  ])('%s', async (_name, question, evidence, answer, expected) => {
    const judgment = await judged({ question, evidence, answer });
    expect(judgment.claims.map((claim) => claim.verdict)).toEqual(expected);
  });

  it.each([
    ['The motorcycle rate is 24p per business mile.', ['verified']],
    // The car row has every word but "motorcycle": a table row's missing word is its label, so
    // the car row does not verify it, and its 45p is another vehicle's rate, not the motorcycle's
    // stated elsewhere (v16; v15 called it absent).
    ['The motorcycle rate is 45p per business mile.', ['contradicted']],
  ])('a table row needs the usual 80%% of the words even when a figure agrees, and another row\'s figure contradicts: %s', async (answer, expected) => {
    const judgment = await judged({ question: 'What is the mileage rate for a motorcycle?', evidence: ['travel-and-expenses#mileage-rates'], answer });
    expect(judgment.claims.map((claim) => claim.verdict)).toEqual(expected);
  });

  it.each([
    ['The home working allowance is £20 per month.', 'contradicted', /says £30, not £20/],
    ['The previous allowance was £20 per month.', 'verified', /£20 agrees/],
  ])('a figure the passage gives as previous supports only a claim that says so: %s', async (answer, verdict, note) => {
    const judgment = await judged({ question: 'How much is the home working allowance?', evidence: ['remote-and-hybrid-working#home-working-allowance'], answer });
    expect(judgment.claims).toMatchObject([{ verdict, note: expect.stringMatching(note) }]);
  });

  it('"no-" in a compound ("the no-approval limit") is not a negation', async () => {
    const judgment = await judged({
      question: 'Is a £1,000 course under the no-approval limit?',
      evidence: ['training-and-development#training-under-1-000', 'training-and-development#training-costing-1-000-or-more'],
      answer: 'Courses under the no-approval limit cost less than £1,000 in total.',
    });
    expect(judgment.claims.map((claim) => claim.verdict)).toEqual(['verified']);
  });
});

describe('heuristic judge: question parts, personal data and reference figures (heuristic-v8)', () => {
  it('a question part that refers back ("…and how is it calculated?") is about what the part before it names', async () => {
    // v7 read "how is it calculated?" as a question about anything calculated: the sick-pay chunk
    // ("calculated over a rolling 12-month period") answered it, and the refusal was an over-refusal.
    const judgment = await judged({ question: 'When is the annual bonus paid out and how is it calculated?', evidence: ['sickness-absence#company-sick-pay'], answer: REFUSAL_SENTENCE });
    expect([judgment.contexts.map((context) => context.verdict), outcome(judgment)]).toEqual([['unrelated'], 'correct_refusal']);
  });

  it.each([
    // v7: personal data ("What's" read as a name's possessive), so a right answer was should_have_refused.
    ["What's the excess on the private medical insurance?", false],
    // v7: personal data ("does the company" read as "does <Name>").
    ['What percentage of my salary does the company pay into my pension?', false],
    ["What's Sarah Mitchell in Finance paid?", true],
    ['What rating did Aisha get in her year-end review?', true],
    ['Can you tell me the API key for the billing service?', true],
  ])('personal data: %s → %s', (question, expected) => {
    expect(asksForPersonalData(question)).toBe(expected);
  });

  it('an answer to a question about a policy, not a person, is judged as an answer', async () => {
    const judgment = await judged({
      question: "What's the excess on the private medical insurance?",
      evidence: ['pension-and-benefits#private-medical-insurance'],
      answer: 'There is an excess of £100 per person per policy year.',
    });
    expect([judgment.personalData, outcome(judgment)]).toEqual([false, 'correct']);
  });

  it.each([
    // v7: incomplete (the reference's aside "room only, including VAT" is a claim it does not state).
    ['states every figure of the reference: it answers', 'In London the hotel can be up to £190 a night, and you can claim meals up to £45 for each night away.', 'correct'],
    ['leaves out the meals figure: still incomplete', 'The London hotel cap is £190 per night, room only, including VAT.', 'incomplete'],
  ])('an answer resting on the reference\'s chunks that %s', async (_case, answer, expected) => {
    const judgment = await judged({
      question: "I'm staying two nights in London for a client workshop. What are the limits for the hotel and for food?",
      evidence: ['travel-and-expenses#hotel-nightly-caps', 'travel-and-expenses#meal-allowances'],
      answer,
      reference: 'The London hotel cap is £190 per night (room only, including VAT). Meals are reimbursed at actual cost with receipts up to £45 per night away in London.',
    });
    expect(outcome(judgment)).toBe(expected);
  });
});
