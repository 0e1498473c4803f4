import { describe, expect, it } from 'vitest';
import { chunkPassage, claimVerdicts } from '../test-support/judgments.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';
import { findQuantities } from './heuristic-quantities.js';
import { tokenize } from './heuristic-tokens.js';
import type { EvidencePassage } from './types.js';

// heuristic-v51: hundreds counted past ten (METHODOLOGY.md, "Changes in v51").
const judge = createHeuristicFaithfulnessJudge();
const budget: EvidencePassage[] = [
  chunkPassage('training-and-development#annual-training-budget', { title: 'Training and Development', section: 'Annual Training Budget', updated: '2025-09-01' }, 'Every employee has a personal training budget of £1,500 for each calendar year.'),
];

describe('hundreds counted past ten (heuristic-v51)', () => {
  it('reads "fifteen hundred" and "twenty-five hundred" as numbers', () => {
    const values = (text: string) => findQuantities(tokenize(text)).quantities.map((quantity) => (quantity.kind === 'number' ? quantity.high : null));
    expect(values('fifteen hundred pounds')).toEqual([1500]);
    expect(values('twenty-five hundred pounds')).toEqual([2500]);
    expect(values('five hundred pounds')).toEqual([500]);
    expect(values('two thousand pounds')).toEqual([2000]);
    expect(values('five days')).toEqual([5]);
  });

  it('a budget said in words is verified', async () => {
    // v50: absent ("Fifteen is not stated").
    expect(await claimVerdicts(judge, "What's my yearly training budget?", budget, 'Fifteen hundred pounds a year.')).toEqual(['verified']);
  });
});
