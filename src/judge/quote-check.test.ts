import { describe, expect, it } from 'vitest';
import { quoteInPassage } from './quote-check.js';

const passage = '[Source: Library | Last updated: 2026-01-01]\nMembers may borrow up to 12 books at a time. Loans last 3 weeks and can be renewed **twice** online.';

describe('quoteInPassage', () => {
  it.each([
    ['Members may borrow up to 12 books at a time', true],
    ['members may borrow up to 12 books at a time.', true],
    ['“Loans last 3 weeks”', true],
    ['Loans last 3 weeks … renewed twice online', true],
    ['can be renewed twice online', true],
    ['Loans last 4 weeks', false],
    ['renewed twice … Loans last 3 weeks', false],
    ['Members may borrow books', false],
    ['', false],
    ['…', false],
  ])('%j → %s', (quote, expected) => {
    expect(quoteInPassage(quote, passage)).toBe(expected);
  });
});
