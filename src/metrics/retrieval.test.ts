import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../errors.js';
import { aggregateRetrieval, hitAtK, ndcgAtK, precisionAtK, recallAtK, reciprocalRank, retrievalScores, topK, type Relevance } from './retrieval.js';

const LOG2_3 = Math.log2(3); // ≈ 1.5849625

describe('retrieval metrics on hand-computed cases', () => {
  it.each([
    // [relevant, retrieved, k, expected recall, precision, hit]
    // 1 of 2 relevant in the top 1 → recall 1/2; 1 of 1 slot relevant → precision 1; hit 1
    [['a', 'b'], ['a', 'x', 'b'], 1, 0.5, 1, 1],
    // both relevant in the top 3 → recall 1; 2 of 3 slots → precision 2/3
    [['a', 'b'], ['a', 'x', 'b'], 3, 1, 2 / 3, 1],
    // k beyond the list: precision divides by k, 1 relevant / 8 slots
    [['a'], ['x', 'a'], 8, 1, 1 / 8, 1],
    // nothing relevant retrieved
    [['a'], ['x', 'y'], 2, 0, 0, 0],
    // duplicates count once: [a, a, b] → [a, b]; top 2 holds b → recall 1, precision 1/2
    [['b'], ['a', 'a', 'b'], 2, 1, 0.5, 1],
    // duplicates of a relevant id do not count twice: [a, a] → [a]; precision@2 = 1/2
    [['a'], ['a', 'a'], 2, 1, 0.5, 1],
    // graded map: grade 0 is not relevant, so only b counts
    [{ a: 0, b: 2 }, ['a', 'b'], 1, 0, 0, 0],
  ] as const)('relevant %j, retrieved %j, k=%i → recall %d, precision %d, hit %d', (relevant, retrieved, k, recall, precision, hit) => {
    expect(recallAtK(relevant, retrieved, k)).toBeCloseTo(recall, 12);
    expect(precisionAtK(relevant, retrieved, k)).toBeCloseTo(precision, 12);
    expect(hitAtK(relevant, retrieved, k)).toBe(hit);
  });

  it.each([
    [['a'], ['a', 'b'], 1], // first relevant at rank 1 → 1
    [['b'], ['a', 'b'], 0.5], // rank 2 → 1/2
    [['b'], ['a', 'a', 'b'], 0.5], // the repeated a counts once: b is rank 2 → 1/2
    [['c', 'b'], ['a', 'x', 'b', 'c'], 1 / 3], // first relevant (b) at rank 3 → 1/3
    [['z'], ['a', 'b'], 0], // never retrieved → 0
  ] as const)('reciprocal rank of %j in %j is %d', (relevant, retrieved, expected) => {
    expect(reciprocalRank(relevant, retrieved)).toBeCloseTo(expected, 12);
  });

  it('reciprocal rank honours k', () => {
    // b is rank 2; with k = 1 it is not reached → 0
    expect(reciprocalRank(['b'], ['a', 'b'], 1)).toBe(0);
  });

  it('nDCG with graded relevance', () => {
    // grades a=3, b=2, c=1; retrieved [b, x, a, c], k=3
    // DCG@3  = 2/log2(2) + 0/log2(3) + 3/log2(4) = 2 + 0 + 1.5 = 3.5
    // IDCG@3 = 3/log2(2) + 2/log2(3) + 1/log2(4) = 3 + 1.2618595 + 0.5 = 4.7618595
    // nDCG@3 = 3.5 / 4.7618595 ≈ 0.7350070
    expect(ndcgAtK({ a: 3, b: 2, c: 1 }, ['b', 'x', 'a', 'c'], 3)).toBeCloseTo(0.735006985, 8);
    // grades a=2, b=1; retrieved [b, a], k=2
    // DCG = 1/1 + 2/log2(3) = 2.2618595; IDCG = 2/1 + 1/log2(3) = 2.6309298; nDCG ≈ 0.8597187
    expect(ndcgAtK({ a: 2, b: 1 }, ['b', 'a'], 2)).toBeCloseTo(0.8597187, 7);
    // the same list in ideal order → exactly 1
    expect(ndcgAtK({ a: 2, b: 1 }, ['a', 'b'], 2)).toBe(1);
  });

  it('nDCG with binary relevance, ties and cut-offs', () => {
    // binary [a, b], retrieved [c, a], k=3: DCG = 1/log2(3) = 0.6309298; IDCG = 1 + 1/log2(3) = 1.6309298
    // nDCG = 0.6309298 / 1.6309298 ≈ 0.3868528
    expect(ndcgAtK(['a', 'b'], ['c', 'a'], 3)).toBeCloseTo(1 / LOG2_3 / (1 + 1 / LOG2_3), 12);
    expect(ndcgAtK(['a', 'b'], ['c', 'a'], 3)).toBeCloseTo(0.3868528, 7);
    // tied grades: either order of two grade-1 ids is ideal → 1
    expect(ndcgAtK({ a: 1, b: 1 }, ['b', 'a'], 2)).toBe(1);
    expect(ndcgAtK({ a: 1, b: 1 }, ['a', 'b'], 2)).toBe(1);
    // ideal DCG is cut at k: 3 relevant, k=1, first retrieved relevant → 1/1 over 1/1 = 1
    expect(ndcgAtK(['a', 'b', 'c'], ['a'], 1)).toBe(1);
    // a duplicate is not a second gain: [a, a], k=2 → DCG 1, IDCG 1 + 1/log2(3) → 0.6131472
    expect(ndcgAtK(['a', 'b'], ['a', 'a'], 2)).toBeCloseTo(1 / (1 + 1 / LOG2_3), 12);
    // nothing relevant retrieved → 0
    expect(ndcgAtK(['a'], ['x'], 3)).toBe(0);
  });

  it('an empty relevant set gives null for every metric (excluded, never 0 or 1)', () => {
    for (const relevant of [[], {}, { a: 0 }] as Relevance[]) {
      expect(recallAtK(relevant, ['a'], 3)).toBeNull();
      expect(precisionAtK(relevant, ['a'], 3)).toBeNull();
      expect(hitAtK(relevant, ['a'], 3)).toBeNull();
      expect(reciprocalRank(relevant, ['a'])).toBeNull();
      expect(ndcgAtK(relevant, ['a'], 3)).toBeNull();
      expect(retrievalScores(relevant, ['a'])).toBeNull();
    }
  });

  it('topK drops repeats before cutting', () => {
    expect(topK(['a', 'a', 'b', 'c'], 2)).toEqual(['a', 'b']);
    expect(topK(['a', 'b', 'a'])).toEqual(['a', 'b']);
  });

  it('retrievalScores gives every metric at every k', () => {
    // relevant [a], retrieved [x, a]: rank 2
    expect(retrievalScores(['a'], ['x', 'a'], [1, 3])).toEqual({
      recall: { 1: 0, 3: 1 },
      precision: { 1: 0, 3: 1 / 3 },
      hit: { 1: 0, 3: 1 },
      ndcg: { 1: 0, 3: 1 / LOG2_3 }, // DCG 1/log2(3), IDCG 1
      reciprocalRank: 0.5,
    });
  });

  it('rejects bad k and bad grades with clear errors', () => {
    expect(() => recallAtK(['a'], ['a'], 0)).toThrow(InvalidInputError);
    expect(() => ndcgAtK(['a'], ['a'], 1.5)).toThrow(/k 1.5 is invalid/);
    expect(() => ndcgAtK({ a: -1 }, ['a'], 1)).toThrow(/grade of "a" is -1/);
    expect(() => aggregateRetrieval([], [])).toThrow(/option ks is empty/);
  });
});

describe('aggregateRetrieval', () => {
  it('averages overall and per category, excluding must-refuse and empty relevant sets', () => {
    const report = aggregateRetrieval(
      [
        // X1: rank 1 → recall@1 1, precision@1 1, hit@1 1, nDCG@1 1, RR 1; @3: recall 1, precision 1/3, hit 1, nDCG 1
        { category: 'X', relevant: ['a'], retrieved: ['a', 'b'] },
        // X2: relevant [a, b], retrieved [c, a] → @1 all 0, RR 1/2; @3: recall 1/2, precision 1/3, hit 1, nDCG 0.3868528
        { category: 'X', relevant: ['a', 'b'], retrieved: ['c', 'a'] },
        // Y1: unanswerable → excluded
        { category: 'Y', relevant: [], retrieved: ['a'], mustRefuse: true },
        // Y2: miss → everything 0
        { category: 'Y', relevant: ['d'], retrieved: ['e'] },
        // Z1: guardrail question with relevant ids but mustRefuse → excluded
        { category: 'Z', relevant: ['q'], retrieved: ['q'], mustRefuse: true },
      ],
      [1, 3],
    );
    const ndcgX2 = 1 / LOG2_3 / (1 + 1 / LOG2_3);
    expect(report.ks).toEqual([1, 3]);
    expect(report.overall).toEqual({
      n: 3,
      excluded: 2,
      recall: { 1: 1 / 3, 3: (1 + 0.5 + 0) / 3 }, // 0.5
      precision: { 1: 1 / 3, 3: (1 / 3 + 1 / 3 + 0) / 3 }, // 2/9
      hit: { 1: 1 / 3, 3: 2 / 3 },
      ndcg: { 1: 1 / 3, 3: (1 + ndcgX2 + 0) / 3 },
      mrr: (1 + 0.5 + 0) / 3, // 0.5
    });
    expect(report.byCategory.X).toMatchObject({ n: 2, excluded: 0, recall: { 1: 0.5, 3: 0.75 }, mrr: 0.75 });
    expect(report.byCategory.Y).toMatchObject({ n: 1, excluded: 1, recall: { 1: 0, 3: 0 }, mrr: 0 });
    expect(report.byCategory.Z).toEqual({ n: 0, excluded: 1, recall: { 1: null, 3: null }, precision: { 1: null, 3: null }, hit: { 1: null, 3: null }, ndcg: { 1: null, 3: null }, mrr: null });
  });

  it('uses k = 1, 3, 5, 8 by default and handles no items', () => {
    const report = aggregateRetrieval([]);
    expect(report.ks).toEqual([1, 3, 5, 8]);
    expect(report.overall).toMatchObject({ n: 0, excluded: 0, mrr: null, recall: { 1: null, 3: null, 5: null, 8: null } });
    expect(report.byCategory).toEqual({});
  });
});
