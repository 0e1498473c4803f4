import { describe, expect, it } from 'vitest';
import { bootstrapMeanCi, quantile } from './bootstrap.js';
import { seededRng } from './random.js';

describe('seededRng', () => {
  it('same seed, same sequence; other seed, other sequence; values in [0, 1)', () => {
    const draw = (seed: number) => {
      const rng = seededRng(seed);
      return Array.from({ length: 50 }, () => rng());
    };
    expect(draw(42)).toEqual(draw(42));
    expect(draw(42)).not.toEqual(draw(43));
    for (const value of draw(7)) {
      expect(value).toBeGreaterThanOrEqual(0);
      expect(value).toBeLessThan(1);
    }
  });

  it('is roughly uniform (mean of 10 000 draws near 0.5)', () => {
    const rng = seededRng(1);
    let sum = 0;
    for (let index = 0; index < 10_000; index++) sum += rng();
    expect(sum / 10_000).toBeGreaterThan(0.48);
    expect(sum / 10_000).toBeLessThan(0.52);
  });

  it('rejects a non-finite seed', () => {
    expect(() => seededRng(Number.NaN)).toThrow(/seed NaN is invalid/);
  });
});

describe('bootstrapMeanCi', () => {
  const scores = [1, 1, 0.5, 0, 1, 0.5, 1, 0, 1, 1]; // mean 0.7

  it('contains the point estimate and is deterministic for a seed', () => {
    const first = bootstrapMeanCi(scores, { seed: 5 });
    expect(first).toEqual(bootstrapMeanCi(scores, { seed: 5 }));
    expect(first!.lower).toBeLessThanOrEqual(0.7);
    expect(first!.upper).toBeGreaterThanOrEqual(0.7);
    expect(first!.lower).toBeLessThan(first!.upper);
    expect(first).toMatchObject({ level: 0.95, resamples: 2000, seed: 5, method: 'percentile-bootstrap' });
    // A different seed moves the interval's ends a little (proof the seed is used).
    expect(bootstrapMeanCi(scores, { seed: 6 })).not.toEqual(first);
  });

  it('constant values give a zero-width interval; no values give null', () => {
    expect(bootstrapMeanCi([1, 1, 1])).toMatchObject({ lower: 1, upper: 1 });
    expect(bootstrapMeanCi([])).toBeNull();
  });

  it('a wider level gives a wider interval', () => {
    const narrow = bootstrapMeanCi(scores, { seed: 3, level: 0.5 })!;
    const wide = bootstrapMeanCi(scores, { seed: 3, level: 0.99 })!;
    expect(wide.lower).toBeLessThanOrEqual(narrow.lower);
    expect(wide.upper).toBeGreaterThanOrEqual(narrow.upper);
  });

  it('validates options', () => {
    expect(() => bootstrapMeanCi(scores, { resamples: 0 })).toThrow(/option resamples 0 is invalid/);
    expect(() => bootstrapMeanCi(scores, { level: 1 })).toThrow(/option level 1 is invalid/);
  });

  it('quantile interpolates linearly (type 7)', () => {
    // sorted [0, 10, 20, 30]: p = 0.5 → position 1.5 → 15; p = 0.25 → position 0.75 → 7.5
    expect(quantile([0, 10, 20, 30], 0.5)).toBe(15);
    expect(quantile([0, 10, 20, 30], 0.25)).toBe(7.5);
    expect(quantile([0, 10, 20, 30], 1)).toBe(30);
  });
});
