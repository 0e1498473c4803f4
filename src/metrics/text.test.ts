import { describe, expect, it } from 'vitest';
import { contentWordOverlap, keywordHit, keywordHits, normalizeForMatch, unsupportedWords, verbosity } from './text.js';

describe('normalizeForMatch', () => {
  it.each([
    ['E-commerce', 'ecommerce'],
    ['e‑commerce and full–time', 'ecommerce and fulltime'], // non-breaking hyphen, en dash
    ['9 – 5', '9 5'], // a free-standing dash becomes a space
    ['Manager’s “manager”', 'manager\'s "manager"'],
    ['£1,000,000', '£1000000'],
    ['£30.00 a month', '£30 a month'],
    ['30 pounds', '£30'],
    ['GBP 22.50', '£22.50'],
    ['£ 45', '£45'],
    ['45 pence a mile', '45p a mile'],
    ['by 09:30', 'by 9:30'],
    ['  many \n\t spaces ', 'many spaces'],
    ['Café', 'cafe'],
    ['1.5 times', '1.5 times'],
  ])('%j → %j', (input, expected) => {
    expect(normalizeForMatch(input)).toBe(expected);
  });
});

describe('keywordHit', () => {
  it.each([
    ['We sell via ecommerce.', 'e-commerce', true],
    ['We sell via E-Commerce.', 'ecommerce', true],
    ['Full-time staff get 25 days.', '25 days', true],
    ['Full-time staff get 125 days.', '25 days', false], // must start at a word boundary
    ['The cap is £300.', '£30', false], // a number must not run into more digits
    ['The cap is £30 a month.', '£30', true],
    ['The cap is 30 pounds a month.', '£30', true],
    ['It costs £1,000.', '£1000', true],
    ['It costs £2,500.', '£2,500', true],
    ['Phone by 09:30 on day one.', '9:30', true],
    ['Use the self-certification form.', 'self-certif', true], // prefix of a longer word
    ['Ask your manager’s manager.', "manager's manager", true],
    ['Pay is 1.55 times.', '1.5', false],
    ['Pay is 1.5 times.', '1.5', true],
    ['Contributions are 6%.', '6%', true],
    ['Contributions are 16%.', '6%', false],
    ['anything', '', false],
  ])('%j contains %j: %s', (text, keyword, expected) => {
    expect(keywordHit(text, keyword)).toBe(expected);
  });

  it('keywordHits lists hits and misses with a share', () => {
    expect(keywordHits('Phone by 09:30.', ['9:30', 'phone', 'email'])).toEqual({ hits: ['9:30', 'phone'], missing: ['email'], share: 2 / 3 });
    expect(keywordHits('anything', [])).toEqual({ hits: [], missing: [], share: null });
  });
});

describe('contentWordOverlap', () => {
  it.each([
    // answer words ≥5 letters, not stopwords: employees, receive, annual, leave(5) → stems employe, receiv, annual, leav
    // evidence has employe, annual, leav → 3/4
    ['Employees receive annual leave.', 'Full-time employees get annual leave.', 3 / 4],
    // stems match across forms: "approved" vs "approval" (approv) and "managers" vs "manager"
    ['Managers approved it.', 'It needs manager approval.', 1],
    // short words and stopwords ignored: "You get 25 days off" has no word of 5+ letters → null
    ['You get 25 days off.', 'anything', null],
    // "should", "because" are stopwords; "refund" is missing → 0/1
    ['You should refund it because.', 'Claims are paid monthly.', 0],
    // evidence as a list of passages
    ['Mileage rates apply.', ['Mileage is paid.', 'These rates apply to cars.'], 1],
  ] as const)('%j against %j → %s', (answer, evidence, expected) => {
    expect(contentWordOverlap(answer, evidence)).toBe(expected);
  });

  it('unsupportedWords lists what was not found', () => {
    expect(unsupportedWords('Employees receive annual leave.', 'Employees get annual leave.')).toEqual(['receive']);
  });
});

describe('verbosity', () => {
  it.each([
    [0, 0],
    [150, 0],
    [151, 1 / 150],
    [225, 0.5], // (225 − 150) / 150
    [300, 1],
  ])('%i words → %d', (count, expected) => {
    expect(verbosity(Array.from({ length: count }, () => 'word').join(' '))).toBeCloseTo(expected, 12);
  });

  it('takes another cap and rejects a bad one', () => {
    expect(verbosity('a b c d', 2)).toBe(1); // (4 − 2) / 2
    expect(() => verbosity('a', 0)).toThrow(/wordCap 0 is invalid/);
  });
});
