import { describe, expect, it } from 'vitest';
import { readTableRow } from './table-row.js';

describe('readTableRow', () => {
  it('reads `Header: cell; Header: cell`, a cell may hold a colon and the final period is dropped', () => {
    expect(readTableRow('Rating: 2; Meaning: Developing: partly meets expectations.')).toEqual([
      { header: 'Rating', cell: '2' },
      { header: 'Meaning', cell: 'Developing: partly meets expectations' },
    ]);
  });

  it('accepts a first cell without a header (a blank header column)', () => {
    expect(readTableRow('London; Breakfast: £10; Dinner: £35')).toEqual([
      { header: null, cell: 'London' },
      { header: 'Breakfast', cell: '£10' },
      { header: 'Dinner', cell: '£35' },
    ]);
  });

  it.each([
    ['a single label and value', 'Deadline: 28 February'],
    ['prose clauses joined by a semicolon', 'Courses are free; travel is not.'],
    ['a later field without a header', 'Region: London; and more'],
    ['a header of more than ten words', 'This is a rather long sentence that goes on and on before a colon: x; Y: z'],
  ])('is null for %s', (_name, text) => {
    expect(readTableRow(text)).toBeNull();
  });
});
