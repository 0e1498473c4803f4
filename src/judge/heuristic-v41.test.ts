import { describe, expect, it } from 'vitest';
import { flagsOf, outcomeOf } from '../contract/outcome.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';
import type { EvidencePassage } from './types.js';

// heuristic-v41: the question is read with chat-box spellings written out (METHODOLOGY.md, "The relevance gate" and "v41").
const judge = createHeuristicFaithfulnessJudge();

const leave: EvidencePassage[] = [
  {
    id: 'leave-policy#annual-leave-entitlement',
    kind: 'chunk',
    text: '[Source: Leave Policy | Section: Annual Leave Entitlement | Last updated: 2025-01-01]\nThe leave year runs from 1 January to 31 December. Full-time employees receive 25 days of annual leave each year, plus the 8 bank holidays in England and Wales.',
  },
];

describe('questions typed the way people chat (heuristic-v41)', () => {
  it('a correct answer to "how many hols do i get a yr?" is correct, not off topic', async () => {
    // v40 weighed "hols" and "yr", in no passage, twice: the answer covered too little of the topic.
    const judgment = await judge.judge({ question: 'how many hols do i get a yr?', evidence: leave, answer: 'You get 25 days of annual leave a year, plus the 8 bank holidays.' });
    expect(outcomeOf(flagsOf(judgment))).toBe('correct');
  });

  it('refusing it, when the chunk holds the answer, is an over-refusal', async () => {
    // v40 read the chunk as unrelated and credited the refusal.
    const judgment = await judge.judge({ question: 'how many hols do i get a yr?', evidence: leave, answer: "I don't know: the provided documents do not cover this." });
    expect(outcomeOf(flagsOf(judgment))).toBe('over_refusal');
  });
});
