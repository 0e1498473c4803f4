import { describe, expect, it } from 'vitest';
import { median, signVerdict } from '../bench/lib/stats.js';

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
});
