import { describe, expect, it } from 'vitest';
import { writtenApart, writtenApartAs } from './compounds.js';

describe('closed compounds written apart', () => {
  it('finds the two words side by side, with a hyphen or a space', () => {
    expect(writtenApartAs('wifi', 'Facilities. Wi-Fi')).toEqual(['wi', 'fi']);
    expect(writtenApartAs('checkout', 'Late check-out until 2pm costs £30.')).toEqual(['check', 'out']);
    expect(writtenApartAs('Payday', 'on the normal pay day after your last day')).toEqual(['pay', 'day']);
  });

  it('not when the parts stand apart, inside other words, or the word is short', () => {
    expect(writtenApartAs('suitcase', 'a suit and a case')).toBeNull();
    expect(writtenApartAs('checkout', 'recheck outlets')).toBeNull();
    expect(writtenApart('abc', 'a bc')).toBe(false);
    expect(writtenApart(undefined, 'wi-fi')).toBe(false);
  });
});
