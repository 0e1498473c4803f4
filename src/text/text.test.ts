import { describe, expect, it } from 'vitest';
import { adjacentPairs, adjacentPairsInClauses } from './text.js';

describe('adjacentPairs', () => {
  it('pairs content words side by side, or with up to the allowed stopwords between', () => {
    expect(adjacentPairs('annual leave allowance')).toEqual([['annual', 'leav'], ['leav', 'allow']]);
    expect(adjacentPairs('an advance on my salary', 2)).toEqual([['advanc', 'salari']]);
  });

  it('a form of "to be", or a determiner with no preposition before it, parts two noun phrases (2026-12-05)', () => {
    expect(adjacentPairs('my laptop was stolen', 2)).toEqual([]);
    // "is my bill an estimate": the bill, and an estimate.
    expect(adjacentPairs('why is my bill an estimate', 2)).toEqual([]);
    expect(adjacentPairs('the cost of the course', 2)).toEqual([['cost', 'cours']]);
  });
});

describe('adjacentPairsInClauses (2026-12-07)', () => {
  it("pairs no words across a clause's end, and keeps a figure's comma and point", () => {
    expect(adjacentPairs('my nan died, how much time off', 2)).toContainEqual(['di', 'time']);
    expect(adjacentPairsInClauses('my nan died, how much time off', 2)).toEqual([['nan', 'di']]);
    expect(adjacentPairsInClauses('is a £1,000 course. free lunch?')).toEqual([['free', 'lunch']]);
    expect(adjacentPairsInClauses('an advance on my salary', 2)).toEqual(adjacentPairs('an advance on my salary', 2));
  });
});
