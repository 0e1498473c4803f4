import { describe, expect, it } from 'vitest';
import { flagsOf, outcomeOf } from '../contract/outcome.js';
import { chunkPassage, okJudgment } from '../test-support/judgments.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';

// heuristic-v106: a sentence "states most of" a reference claim only with half of its words, figures
// or not (it took a quarter when the figures agreed, and "at least two working days" agreed with
// "15 working days, within the limit of 20 working days").
const judge = createHeuristicFaithfulnessJudge();
const offices = chunkPassage(
  'overview#offices',
  { title: 'About This Handbook', section: 'Our Offices', updated: '2025-01-01' },
  'Harbourline has three UK offices. If you need to be in an office at the weekend, raise a Facilities request at least two working days beforehand.',
);
const abroad = chunkPassage(
  'remote#working-abroad',
  { title: 'Remote Working', section: 'Working Abroad', updated: '2025-01-01' },
  'Working from another country is limited to 20 working days in a calendar year.',
);
const question = "Can I work from my cousin's house in Italy for three weeks in May?";
const reference = 'Three weeks is 15 working days, within the limit of 20 working days abroad per calendar year.';
// Stated in other words with the very figure: a quarter of its words is enough.
const sameFigureReference = 'You can work abroad for up to 20 working days each calendar year, approved in advance by your line manager and the People team.';
const refusal = "I don't know: the provided documents do not cover this.";

describe('heuristic-v106', () => {
  it('a chunk that shares a figure and two words with the reference does not state it: refusing was right', async () => {
    const judgment = okJudgment(await judge.judge({ question, evidence: [offices], answer: refusal, reference }));
    expect(judgment.contexts).toEqual([expect.objectContaining({ chunkId: 'overview#offices', verdict: 'unrelated' })]);
    expect(outcomeOf(flagsOf(judgment))).toBe('correct_refusal');
  });

  it('a sentence holding the reference claim\'s very figure still states it with a quarter of its words: the refusal is an over-refusal', async () => {
    const judgment = okJudgment(await judge.judge({ question, evidence: [offices, abroad], answer: refusal, reference: sameFigureReference }));
    expect(judgment.contexts.find((context) => context.chunkId === 'remote#working-abroad')?.verdict).toBe('answers');
    expect(outcomeOf(flagsOf(judgment))).toBe('over_refusal');
  });
});
