import { describe, expect, it } from 'vitest';
import { okJudgment } from '../test-support/judgments.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';
import { swappedModifier } from './heuristic-subject.js';
import type { EvidencePassage } from './types.js';

// heuristic-v19: tables answer through their lead-in; another kind of the asked thing is off topic
// (METHODOLOGY.md, "Changes in v19"). Both read without a reference answer, as the live judge does.
const judge = createHeuristicFaithfulnessJudge();

const travel: EvidencePassage[] = [
  {
    id: 'travel#hotel-caps',
    kind: 'chunk',
    text: '[Source: Travel and Expenses | Section: Hotel Nightly Caps | Last updated: 2025-09-01]\nHotels must be booked through the travel desk and must not exceed these caps:\n\n| Location | Per night |\n| --- | --- |\n| London | £190 |\n| Elsewhere in the UK | £120 |\n| USA and Canada | £230 |',
  },
  {
    id: 'travel#meals',
    kind: 'chunk',
    text: '[Source: Travel and Expenses | Section: Meal Allowances | Last updated: 2025-09-01]\nMeals are reimbursed at cost with receipts, up to these limits per night away:\n\n| Location | Meal limit |\n| --- | --- |\n| London | £45 |\n| USA and Canada | £65 |',
  },
];
const question = 'What are the hotel limits for a stay in London?';

describe('a table answers through its lead-in (heuristic-v19)', () => {
  it('marks the caps table as answering, so a refusal is an over-refusal', async () => {
    // The rows name places, not Toronto; the lead-in names hotels and caps but holds no figure (v18: `related`, a correct refusal).
    const judgment = okJudgment(await judge.judge({ question: 'What is the hotel limit for a trip to Toronto?', evidence: travel, answer: "I don't know: the provided documents do not cover this." }));
    expect(judgment.contexts.find((context) => context.chunkId === 'travel#hotel-caps')?.verdict).toBe('answers');
    expect(judgment.refusalVerdict).toBe('over_refusal');
  });
});

describe('another kind of the asked thing (heuristic-v19)', () => {
  it.each([
    ['the meal limit for the hotel limit', 'In London the meal limit is £45 per night.', 'off_topic'],
    ['the hotel limit itself', 'In London the hotel limit is £190 per night.', 'answers'],
  ])('%s', async (_case, answer, relevance) => {
    const judgment = okJudgment(await judge.judge({ question, evidence: travel, answer }));
    expect(judgment.answerRelevance).toBe(relevance);
  });

  const headings = [new Set(['hotel', 'nightli', 'cap']), new Set(['meal', 'allow']), new Set(['fit', 'note'])];
  it.each([
    ['both kinds have sections, the answer rests on the other', 'What is the hotel limit?', 'The meal limit is £45.', [headings[1]!], { asked: 'hotel limit', given: 'meal limit' }],
    // The answer rests on the hotel chunk: "nightly limit" is that section's own word.
    ['a word of the asked section', 'What is the hotel limit?', 'The nightly limit is £190.', [headings[0]!], null],
    // The document's word for the asked thing: no section is about doctors.
    ["the document's word for it", "Do I need a doctor's note?", 'You need a fit note.', [headings[2]!], null],
    ['the answer names the asked kind too', 'What is the hotel limit?', 'The hotel limit is £190; the meal limit is £45.', [headings[1]!], null],
  ])('swappedModifier: %s', (_case, q, answer, resting, expected) => {
    expect(swappedModifier(q, answer, headings, resting)).toEqual(expected);
  });
});
