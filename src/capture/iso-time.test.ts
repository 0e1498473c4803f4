import { describe, expect, it } from 'vitest';
import { isoTimeFormatter } from './iso-time.js';

describe('isoTimeFormatter', () => {
  it('gives toISOString for each of a run of times, within a second, across seconds, and for any year', () => {
    const isoOf = isoTimeFormatter();
    const times = [
      0, 1, 9, 10, 99, 100, 999, 1000, 1001, 1_700_000_000_000, 1_700_000_000_007, 1_700_000_000_070, 1_700_000_000_700, 1_700_000_000_999, 1_700_000_001_000,
      1_700_000_000_500, -1, -999, -1000, -1001, -62_198_755_200_001, 253_402_300_799_999, 253_402_300_800_000, 253_402_300_800_042, 8.64e15,
    ];
    expect(times.map((time) => isoOf(time))).toEqual(times.map((time) => new Date(time).toISOString()));
  });

  it('throws for an invalid time, as toISOString does, and goes on afterwards', () => {
    const isoOf = isoTimeFormatter();
    isoOf(1_700_000_000_000);
    expect(() => isoOf(Number.NaN)).toThrow(RangeError);
    expect(isoOf(1_700_000_000_005)).toBe('2023-11-14T22:13:20.005Z');
  });
});
