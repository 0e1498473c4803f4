import { describe, expect, it } from 'vitest';
import { isSampled, samplePosition } from './sampling.js';

const ids = Array.from({ length: 4000 }, (_, index) => `trace-${index}`);
const kept = (rate: number) => new Set(ids.filter((id) => isSampled(id, rate)));

describe('sampling by trace id', () => {
  it('is deterministic: the same id gets the same decision every time', () => {
    expect(ids.map((id) => isSampled(id, 0.3))).toEqual(ids.map((id) => isSampled(id, 0.3)));
    expect(samplePosition('abc')).toBe(samplePosition('abc'));
    expect(samplePosition('abc')).not.toBe(samplePosition('abd'));
  });

  it('is nested: a lower rate keeps a subset of what a higher rate keeps', () => {
    const rates = [0, 0.01, 0.1, 0.25, 0.5, 0.9, 1];
    const sets = rates.map(kept);
    for (let index = 1; index < sets.length; index++) {
      for (const id of sets[index - 1]!) expect(sets[index]!.has(id)).toBe(true);
    }
    expect(sets[0]!.size).toBe(0);
    expect(sets.at(-1)!.size).toBe(ids.length);
  });

  it('keeps about the requested share (fixed ids, so this is exact and repeatable)', () => {
    for (const rate of [0.1, 0.5]) {
      const share = kept(rate).size / ids.length;
      expect(Math.abs(share - rate)).toBeLessThan(0.03);
    }
  });

  it('positions lie in [0, 1)', () => {
    for (const id of ids.slice(0, 500)) {
      const position = samplePosition(id);
      expect(position).toBeGreaterThanOrEqual(0);
      expect(position).toBeLessThan(1);
    }
  });
});
