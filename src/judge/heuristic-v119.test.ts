import { describe, expect, it } from 'vitest';
import { flagsOf, outcomeOf } from '../contract/outcome.js';
import { REFUSAL_SENTENCE } from '../contract/refusal.js';
import { chunkPassage, okJudgment } from '../test-support/judgments.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';
import { NAMED_TOPIC_MIN_WORDS } from './heuristic-refusal-topic.js';

// heuristic-v119: a refusal that names what it could not find, which a retrieved chunk holds, is an
// over-refusal even where the asker's scene hid that chunk from the question's words (live: no
// reference answer).
const judge = createHeuristicFaithfulnessJudge();
const volunteering = chunkPassage(
  'leave-policy#volunteering-leave',
  { title: 'Leave Policy', section: 'Volunteering Leave', updated: '2025-05-01' },
  'You may take up to 2 paid days a year to volunteer for a registered charity. Ask your manager at least two weeks before.',
);
const annualLeave = chunkPassage(
  'leave-policy#annual-leave',
  { title: 'Leave Policy', section: 'Annual Leave', updated: '2025-05-01' },
  'Full-time staff get 25 days of annual leave a year, plus bank holidays.',
);
const expenses = chunkPassage(
  'expenses#deadlines',
  { title: 'Expenses', section: 'Deadlines', updated: '2025-05-01' },
  'Expense claims must be submitted within 3 months of the purchase.',
);
const evidence = [annualLeave, expenses, volunteering];
const question = "The head of my daughter's school asked parents to help paint the classrooms on a Friday next month. Would I have to book that as holiday?";
const judged = async (answer: string) => okJudgment(await judge.judge({ question, evidence, answer }));

describe('heuristic-v119: what a refusal names', () => {
  it('reads no chunk as answering from the question alone (the scene dilutes its words)', async () => {
    const judgment = await judged(REFUSAL_SENTENCE);
    expect(judgment.contexts.map((context) => context.verdict)).not.toContain('answers');
    expect(outcomeOf(flagsOf(judgment))).toBe('correct_refusal');
  });

  it('a refusal naming what the volunteering chunk holds is an over-refusal, and only that chunk answers', async () => {
    const judgment = await judged("Sorry, I couldn't find anything about paid time off to volunteer for a charity or a school.");
    expect(outcomeOf(flagsOf(judgment))).toBe('over_refusal');
    const verdicts = Object.fromEntries(judgment.contexts.map((context) => [context.chunkId, context.verdict]));
    expect(verdicts['leave-policy#volunteering-leave']).toBe('answers');
    expect(verdicts['leave-policy#annual-leave']).not.toBe('answers');
    expect(verdicts['expenses#deadlines']).not.toBe('answers');
    expect(judgment.contexts.find((context) => context.chunkId === 'leave-policy#volunteering-leave')!.note).toMatch(/the refusal names what a sentence of it holds/);
  });

  it(`a topic of fewer than ${NAMED_TOPIC_MIN_WORDS} words is not read (two words match sentences about anything)`, async () => {
    expect(outcomeOf(flagsOf(await judged("Sorry, I couldn't find anything on holidays for volunteering.")))).toBe('correct_refusal');
  });

  it('a refusal giving its reason names why, not what is missing', async () => {
    expect(outcomeOf(flagsOf(await judged("Sorry, I can't share who took paid charity days to volunteer at the school.")))).toBe('correct_refusal');
  });

  it('a named topic sharing no word with the question says nothing about what was asked', async () => {
    const judgment = await judged("I couldn't find the annual leave allowance for full-time staff.");
    expect(judgment.contexts.find((context) => context.chunkId === 'leave-policy#annual-leave')!.verdict).not.toBe('answers');
    expect(outcomeOf(flagsOf(judgment))).toBe('correct_refusal');
  });
});
