import { describe, expect, it } from 'vitest';
import { flagsOf, outcomeOf } from '../contract/outcome.js';
import { REFUSAL_SENTENCE } from '../contract/refusal.js';
import { chunkPassage, okJudgment } from '../test-support/judgments.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';

// heuristic-v113: a sentence holding one word of a two-word phrase that is the question's whole topic does not answer it (the context verdicts read it as answer relevance has since v67).
const judge = createHeuristicFaithfulnessJudge();
const training = chunkPassage(
  'health-and-safety#fire-safety',
  { title: 'Health and Safety', section: 'Fire Safety', updated: '2025-06-01' },
  'All staff must complete fire safety training within their first month.',
);
const supplier = chunkPassage(
  'gifts-and-hospitality#suppliers',
  { title: 'Gifts and Hospitality', section: 'Suppliers', updated: '2025-06-01' },
  'Never accept a personal discount offered by a supplier.',
);
const discount = chunkPassage(
  'pension-and-benefits#staff-shop',
  { title: 'Pension and Benefits', section: 'Company Shop', updated: '2025-06-01' },
  'Staff receive a 20% discount in the company shop.',
);

const refusal = async (question: string, evidence: ReturnType<typeof chunkPassage>[]) => okJudgment(await judge.judge({ question, evidence, answer: REFUSAL_SENTENCE }));

describe('heuristic-v113: half of a two-word phrase in a chunk', () => {
  it('chunks holding "staff" or "discount" but not both do not answer "staff discount?": the refusal is right (v112: over_refusal)', async () => {
    const judgment = await refusal('staff discount?', [training, supplier]);
    expect(judgment.contexts.map((context) => context.verdict)).toEqual(['related', 'related']);
    expect(outcomeOf(flagsOf(judgment))).toBe('correct_refusal');
  });

  it('a chunk holding both words still answers, and refusing it is an over-refusal', async () => {
    const judgment = await refusal('staff discount?', [training, supplier, discount]);
    expect(judgment.contexts.map((context) => context.verdict)).toEqual(['related', 'related', 'answers']);
    expect(outcomeOf(flagsOf(judgment))).toBe('over_refusal');
  });

  it('leaves a longer topic alone: one missing word of three is as often a paraphrase', async () => {
    const judgment = await refusal('do staff get training on fire safety?', [training]);
    expect(judgment.contexts[0]!.verdict).toBe('answers');
  });
});
