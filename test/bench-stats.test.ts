import { describe, expect, it } from 'vitest';
import { limitVerdict, meanInterval, median, medianInterval, signVerdict, tQuantile975 } from '../bench/lib/stats.js';

describe('bench statistics', () => {
  it.each([
    [[3, 1, 2], 2],
    [[4, 1, 3, 2], 2.5],
    [[7], 7],
  ])('median(%j) is %d', (values, expected) => {
    expect(median(values)).toBe(expected);
  });

  it('median of nothing is NaN', () => {
    expect(median([])).toBeNaN();
  });

  it.each([
    [5, 5, 'yes'], // one-sided p = 1/32
    [4, 5, 'not resolved'], // p = 6/32
    [0, 5, 'no'],
    [1, 5, 'not resolved'],
    [8, 10, 'not resolved'], // p = 56/1024 ≈ 0.055
    [9, 10, 'yes'], // p = 11/1024
    [3, 3, 'not resolved'], // p = 1/8: three rounds can never decide
  ] as const)('sign test: cheaper in %d of %d rounds is "%s"', (cheaper, rounds, verdict) => {
    expect(signVerdict(cheaper, rounds)).toBe(verdict);
  });

  // Ranks from the binomial (n, 1/2), checked with exact integers: n = 10 gives x(2)..x(9)
  // (P(B ≤ 1) = 11/1024, P(B ≤ 2) = 56/1024 > 0.025), n = 60 gives x(22)..x(39) (P(B ≤ 21) ≈
  // 0.0137, P(B ≤ 22) ≈ 0.0259), n = 6 only x(1)..x(6) (P(B = 0) = 1/64).
  it.each([
    [10, 5.5, 2, 9, 1 - 22 / 1024],
    [60, 30.5, 22, 39, 0.9727],
    [6, 3.5, 1, 6, 1 - 2 / 64],
  ])('the median of 1..%d (shuffled) is %d, bounded at 0.95 by %d and %d', (count, middle, low, high, coverage) => {
    const values = Array.from({ length: count }, (_, index) => ((index * 7) % count) + 1);
    const interval = medianInterval(values);
    expect({ ...interval, coverage: Number(interval.coverage?.toFixed(4)) }).toEqual({ median: middle, low, high, coverage: Number(coverage.toFixed(4)), count });
  });

  it('five values cannot bound the median at 95%', () => {
    expect(medianInterval([1, 2, 3, 4, 5])).toEqual({ median: 3, low: null, high: null, coverage: null, count: 5 });
  });

  it('a long run stays exact (no underflow past 1,074 values)', () => {
    const interval = medianInterval(Array.from({ length: 2001 }, (_, index) => index));
    // x(957)..x(1045) by exact integers (coverage 0.9509); the values are 0..2000.
    expect([interval.low, interval.high, Number(interval.coverage?.toFixed(4))]).toEqual([956, 1044, 0.9509]);
    expect(interval.coverage).toBeGreaterThanOrEqual(0.95);
  });

  it.each([
    [0.5, 2.5, 'met'],
    [1, 3, 'met'], // the upper end at the limit
    [2, 4, 'not resolved'],
    [3, 5, 'not resolved'], // the lower end at the limit: not above it
    [3.1, 5, 'missed'],
    [-4, -1, 'met'],
    [null, null, 'not resolved'],
  ] as const)('"at most 3": an interval %s to %s is "%s"', (low, high, verdict) => {
    expect(limitVerdict({ low, high }, 3)).toBe(verdict);
  });

  it.each([
    [1, 12.706],
    [4, 2.776],
    [30, 2.042],
    [60, 2.0],
    [1000, 1.962],
  ])("Student's t quantile 0.975 with %d degrees of freedom is %d", (df, expected) => {
    // Reference values: R's qt(0.975, df) (60: 2.0003, 1000: 1.9623).
    expect(tQuantile975(df)).toBeCloseTo(expected, 2);
  });

  it('rejects degrees of freedom that are not a whole number of at least 1', () => {
    expect(() => tQuantile975(0)).toThrow(RangeError);
    expect(() => tQuantile975(2.5)).toThrow(RangeError);
  });

  it('gives a mean its t-interval, and none to a single value', () => {
    // [1, 3]: mean 2, s = √2, half-width 12.706 · √2 / √2
    expect(meanInterval([1, 3])).toEqual({ mean: 2, low: 2 - 12.706, high: 2 + 12.706, count: 2 });
    // [0, 2, 4, 6]: mean 3, s = √(20/3) ≈ 2.582, half-width 3.182 · 2.582 / 2 ≈ 4.108
    const interval = meanInterval([0, 2, 4, 6]);
    expect(interval.low).toBeCloseTo(-1.108, 3);
    expect(interval.high).toBeCloseTo(7.108, 3);
    expect(meanInterval([5])).toEqual({ mean: 5, low: null, high: null, count: 1 });
  });
});
