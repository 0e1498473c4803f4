import { describe, expect, it } from 'vitest';
import { numberRuns } from './number-runs.js';

describe('numberRuns', () => {
  it.each([
    ['no digits here', { digits: 0, mostGroupedDigits: 0, mostSpacedAsciiDigits: 0 }],
    ['Last updated: 2026-01-12', { digits: 8, mostGroupedDigits: 8, mostSpacedAsciiDigits: 4 }],
    ['from 2025-09-01 to 2026-01-12', { digits: 16, mostGroupedDigits: 8, mostSpacedAsciiDigits: 4 }],
    ['call 020 7946 0400 now', { digits: 11, mostGroupedDigits: 11, mostSpacedAsciiDigits: 11 }],
    ['+44 (0)20 7946 0958', { digits: 13, mostGroupedDigits: 13, mostSpacedAsciiDigits: 10 }],
    ['4111\u200b1111\u200b1111\u200b1111', { digits: 16, mostGroupedDigits: 16, mostSpacedAsciiDigits: 4 }],
    ['QQ 12 34 56 A', { digits: 6, mostGroupedDigits: 6, mostSpacedAsciiDigits: 6 }],
    ['AB12\u00a034\u00a056C', { digits: 6, mostGroupedDigits: 6, mostSpacedAsciiDigits: 6 }],
    // Full-width digits count as digits, but not towards a National Insurance number (ASCII only).
    ['\uff14\uff11\uff11\uff11 12', { digits: 6, mostGroupedDigits: 6, mostSpacedAsciiDigits: 2 }],
    // A letter ends a run; a tab is no separator.
    ['12 May 2024, 10:30', { digits: 10, mostGroupedDigits: 6, mostSpacedAsciiDigits: 4 }],
    ['123\t456 789', { digits: 9, mostGroupedDigits: 6, mostSpacedAsciiDigits: 6 }],
  ])('%j', (text, expected) => {
    expect(numberRuns(text)).toEqual(expected);
  });
});
