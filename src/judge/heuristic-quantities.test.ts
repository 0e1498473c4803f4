import { describe, expect, it } from 'vitest';
import { findQuantities, relate, type Quantity } from './heuristic-quantities.js';
import { tokenize } from './heuristic-tokens.js';

function quantities(text: string): Quantity[] {
  return findQuantities(tokenize(text)).quantities;
}

function one(text: string): Quantity {
  const found = quantities(text);
  expect(found, text).toHaveLength(1);
  return found[0]!;
}

/** A compact, readable form: `GBP [1000, ∞)`, `week 20`, `date 2026-01-01`. */
function show(quantity: Quantity): string {
  if (quantity.kind === 'date') return `date ${quantity.year ?? '?'}-${quantity.month ?? '?'}-${quantity.day ?? '?'}`;
  if (quantity.low === quantity.high) return `${quantity.dimension} ${quantity.low}`;
  const low = quantity.low === -Infinity ? '(-∞' : `${quantity.lowInclusive ? '[' : '('}${quantity.low}`;
  const high = quantity.high === Infinity ? '∞)' : `${quantity.high}${quantity.highInclusive ? ']' : ')'}`;
  return `${quantity.dimension} ${low}, ${high}`;
}

describe('findQuantities', () => {
  it.each([
    ['£1,000', 'GBP 1000'],
    ['1000 pounds', 'GBP 1000'],
    ['£1k', 'GBP 1000'],
    ['£1.5 million', 'GBP 1500000'],
    ['45p per mile', 'GBP 0.45'],
    ['20 weeks', 'week 20'],
    ['twenty weeks', 'week 20'],
    ['twenty-five days', 'day 25'],
    ['fifteen working days', 'day 15'],
    ['one extra day', 'day 1'],
    ['50%', 'percent 50'],
    ['5 per cent', 'percent 5'],
    ['the 15th week', 'ordinal 15'],
    ['from day 8', 'ordinal 8'],
    ['in week 12', 'ordinal 12'],
    ['grade 3', 'label:grade 3'],
    ['by 09:30', 'time 570'],
    ['0.9 s', 'second 0.9'],
    ['8 bank holidays', 'count 8'],
    ['1 January 2026', 'date 2026-1-1'],
    ['2026-01-01', 'date 2026-1-1'],
    ['January 1, 2026', 'date 2026-1-1'],
    ['March 2026', 'date 2026-3-?'],
    ['by 31 March', 'date ?-3-31'],
    ['in 1987', 'date 1987-?-?'],
    ['less than £1,000', 'GBP (-∞, 1000)'],
    ['under the £1,000 threshold', 'GBP (-∞, 1000)'],
    ['up to 19 weeks', 'week (-∞, 19]'],
    ['within 12 months', 'month (-∞, 12]'],
    ['no more than 5 days', 'day (-∞, 5]'],
    ['£1,000 or more', 'GBP [1000, ∞)'],
    ['more than £5,000', 'GBP (5000, ∞)'],
    ['over £5,000', 'GBP (5000, ∞)'],
    ['at least 26 weeks', 'week [26, ∞)'],
    ['between 12 and 24 months', 'month [12, 24]'],
    ['2 to 5 years', 'year [2, 5]'],
    // A labelled scale's numbers, and their ranges (v13).
    ['grades 1 to 4', 'label:grade [1, 4]'],
    ['levels 2-3', 'label:level [2, 3]'],
    ['grade 5 and above', 'label:grade [5, ∞)'],
  ])('%s → %s', (text, expected) => {
    expect(show(one(text))).toBe(expected);
  });

  it('keeps "one" in "one of the" and a modal "may" out of quantities', () => {
    expect(quantities('one of the largest malls')).toEqual([]);
    expect(quantities('you may take leave')).toEqual([]);
  });

  it.each([
    ['grade 5 to 4', ['label:grade 5', 'count 4']],
    ['1 to 4 people', ['count 1', 'count 4']],
    ['one to four', ['count 4']],
    ['1st to 4th', ['ordinal 1', 'ordinal 4']],
    ['£1 to 4', ['GBP 1', 'count 4']],
  ])('does not read %s as a labelled range', (text, expected) => {
    expect(quantities(text).map(show)).toEqual(expected);
  });

  it('reads "from £160 to £190" as two figures (a change), not a range', () => {
    expect(quantities('The cap rose from £160 to £190').map(show)).toEqual(['GBP 160', 'GBP 190']);
  });

  it('finds every figure of a sentence, in order', () => {
    expect(quantities('20 weeks at full pay, followed by up to 19 weeks at the statutory rate and then 13 weeks unpaid: 52 weeks in total').map(show)).toEqual([
      'week 20',
      'week (-∞, 19]',
      'week 13',
      'week 52',
    ]);
  });
});

describe('relate', () => {
  it.each([
    ['£1,000', '1000 pounds', 'agree'],
    ['£1k', '£1,000', 'agree'],
    ['twenty weeks', '20 weeks', 'agree'],
    ['16 weeks', '20 weeks', 'disagree'],
    ['16 weeks', '16 days', 'incomparable'],
    ['£500', 'less than £1,000', 'agree'],
    ['£2,500', 'less than £1,000', 'disagree'],
    ['£1,000', 'less than £1,000', 'disagree'],
    ['£1,000', '£1,000 or more', 'agree'],
    ['£2,500', '£1,000 or more', 'agree'],
    ['£31', 'up to £300', 'disagree'],
    ['£300', 'up to £300', 'agree'],
    ['over £1,000', '£1,000 or more', 'agree'],
    ['under £1,000', '£1,000 or more', 'disagree'],
    ['at least 15 characters', 'at least 14 characters', 'disagree'],
    ['up to 19 weeks', '19 weeks', 'agree'],
    ['3 years', '2 to 5 years', 'agree'],
    ['grade 3', 'grades 1 to 4', 'agree'],
    ['grade 5', 'grades 1 to 4', 'disagree'],
    ['2 times', 'grades 1 to 3', 'incomparable'],
    ['level 3', 'grades 1 to 4', 'incomparable'],
    ['2026', '1 January 2026', 'agree'],
    ['2018', '2017', 'disagree'],
    ['1 January 2026', '2026-01-01', 'agree'],
    ['March 2, 1991', '2 March 1991', 'agree'],
    ['31 March', '1 April', 'disagree'],
    ['20 weeks', '2026', 'incomparable'],
    // Dates as bounds (heuristic-v7).
    ['November 2025', 'before 1 January 2026', 'agree'],
    ['in 2024', 'prior to 1 January 2026', 'agree'],
    ['March 2026', 'before 1 January 2026', 'disagree'],
    ['March 2026', 'from 1 January 2026', 'agree'],
    ['15 December 2025', 'on or after 1 January 2026', 'disagree'],
    ['1 January 2026', 'from 1 January 2026', 'agree'],
    ['from 1 January 2026', 'before 1 January 2026', 'disagree'],
    ['before 1 January 2026', 'before 1 January 2026', 'agree'],
    // Two bounds the same way agree when they draw the same line (heuristic-v20; v19: 'disagree').
    ['since 2020', 'after 2019', 'agree'],
    ['after 2020', 'after 2019', 'disagree'],
    ['until 31 March 2025', 'before 1 April 2025', 'agree'],
    ['until 30 April 2025', 'before 1 April 2025', 'disagree'],
    ['before 1 April 2025', 'up to and including 31 March 2025', 'agree'],
    // "until" is an end that takes in its own date (heuristic-v20).
    ['August 2025', 'until 30 September 2025', 'agree'],
    ['October 2025', 'until 30 September 2025', 'disagree'],
    // Two dates without a year are read in one year (heuristic-v43; before: field by field, 'disagree').
    ['31 March', 'before 1 April', 'agree'],
    ['2 April', 'before 1 April', 'disagree'],
    ['mid-November', 'after 1 October', 'agree'],
    ['before 31 March', '31 March', 'agree'],
  ])('%s vs evidence %s → %s', (claim, evidence, expected) => {
    expect(relate(one(claim), one(evidence))).toBe(expected);
  });

  it('reads the bound a date is given as, and a "from … to …" date as a period', () => {
    const bounds = (text: string) => quantities(text).map((quantity) => (quantity.kind === 'date' ? (quantity.bound ?? null) : 'not a date'));
    expect(bounds('born before 1 January 2026')).toEqual(['before']);
    expect(bounds('from 1 January 2026, the rate is 6%')).toEqual(['after', 'not a date']);
    expect(bounds('since March 2024')).toEqual(['after']);
    expect(bounds('on 1 January 2026')).toEqual([null]);
    expect(bounds('from 1 April 2025 to 31 March 2026')).toEqual([null, null]);
  });
});
