import { beforeAll, describe, expect, it } from 'vitest';
import { flagsOf, outcomeOf } from '../contract/outcome.js';
import { REFUSAL_SENTENCE } from '../contract/refusal.js';
import type { GroundcheckIndex } from '../rag/store.js';
import { handbookIndex } from '../test-support/fixtures.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';
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
  const index: GroundcheckIndex = await handbookIndex();
  const texts = new Map([...index.chunkHashes().keys()].map((id) => [id, index.getChunk(id)!.modelText]));
  handbook = (id: string): EvidencePassage => ({ id, text: texts.get(id)!, kind: 'chunk' });
});

const judge = createHeuristicFaithfulnessJudge();
async function judged(input: Omit<FaithfulnessInput, 'evidence'> & { evidence: string[] }): Promise<FaithfulnessOk> {
  const judgment = await judge.judge({ ...input, evidence: input.evidence.map((id) => handbook(id)) });
  if (judgment.status !== 'ok') throw new Error(`judge error: ${judgment.error}`);
  return judgment;
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
    // The car row has every word but "motorcycle": a table row's missing word is its label.
    ['The motorcycle rate is 45p per business mile.', ['absent']],
  ])('a table row needs the usual 80%% of the words even when a figure agrees: %s', async (answer, expected) => {
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
