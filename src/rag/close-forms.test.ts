import { describe, expect, it } from 'vitest';
import { handbookIndex } from '../test-support/fixtures.js';
import { sameWordOrCompound, withCloseForms } from './term-coverage.js';

// A close form searched in place of a word the corpus lacks must be that word in another form
// (2026-12-07): "maternity" was searched as "material", and "How much maternity pay do I get?" was
// answered with the acceptable-use rule on offensive material.
describe('close forms for searching', () => {
  it('one word in two forms, or the second halves of a compound, are close; words parting at their last letters are not', () => {
    expect(sameWordOrCompound('month', 'monthli')).toBe(true);
    expect(sameWordOrCompound('complain', 'complaint')).toBe(true);
    expect(sameWordOrCompound('prepai', 'prepay')).toBe(true);
    expect(sameWordOrCompound('motorbik', 'motorcycl')).toBe(true);
    expect(sameWordOrCompound('matern', 'materi')).toBe(false);
    expect(sameWordOrCompound('carriag', 'carrier')).toBe(false);
  });

  it('"maternity" is not searched as "material" on the handbook', async () => {
    const index = await handbookIndex();
    expect(withCloseForms(index, 'How much maternity pay do I get?')).toBe('How much maternity pay do I get?');
  });
});
