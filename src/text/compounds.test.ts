import { describe, expect, it } from 'vitest';
import { compoundSplits, joinPhrasalVerbs, writtenApart, writtenApartAs } from './compounds.js';

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

  it('the prefix "e", the one of a single letter, with its hyphen only (heuristic-v82)', () => {
    expect(writtenApartAs('ebooks', 'up to 5 e-books at a time')).toEqual(['e', 'books']);
    expect(writtenApartAs('Email', 'by E-mail or post')).toEqual(['e', 'mail']);
    expect(writtenApartAs('ebooks', 'the books')).toBeNull();
    expect(writtenApartAs('easy', 'an e asy one')).toBeNull();
  });

  it('reads as the regular expression it replaced (2026-12-06): one whitespace or hyphen between, no letter or digit of any script on either side, ASCII letters in either case', () => {
    // The rule as it was written before: one pattern per cut, compiled on every new word.
    const asPattern = (word: string, text: string) => {
      for (const [first, second] of compoundSplits(word)) {
        const between = first.length === 1 ? '-' : '[\\s-]';
        if (new RegExp(`(?<![\\p{L}\\p{N}])${first}${between}${second}(?![\\p{L}\\p{N}])`, 'iu').test(text)) return [first, second];
      }
      return null;
    };
    const words = ['wifi', 'payday', 'ebooks', 'email', 'checkout', 'daycare', 'WIFI', 'suitcase'];
    const written = ['Wi-Fi', 'WI\u00a0FI', 'wi  fi', 'pay day', 'pay\tday', 'pay—day', 'e-books', 'e books', 'E-Mail', 'check-out', 'day-care', 'suit case'];
    const around = ['', ' ', '. ', 'x', '1', '-', 'é', '😀', 'İ'];
    let cases = 0;
    for (const word of words) {
      for (const middle of written) {
        for (const before of around) {
          for (const after of around) {
            const text = `${before}${middle}${after}`;
            expect(writtenApartAs(word, text), `${word} in ${JSON.stringify(text)}`).toEqual(asPattern(word, text));
            cases += 1;
          }
        }
      }
    }
    expect(cases).toBe(7776);
    // Both ways the answer is sometimes yes: the cases are not all misses.
    expect(writtenApartAs('payday', '😀pay day.')).toEqual(['pay', 'day']);
    expect(writtenApartAs('payday', 'épay day')).toBeNull();
  });
});

describe('phrasal verbs written as one word', () => {
  const corpus = (...stems: string[]) => (wordStem: string) => stems.includes(wordStem);

  it('joins a verb and its particle when the corpus holds the joined word and not the verb', () => {
    expect(joinPhrasalVerbs('the car broke down what do i do', corpus('breakdown'))).toBe('the car breakdown what do i do');
    expect(joinPhrasalVerbs('can you pick me up', corpus('pickup'))).toBe('can you pick me up');
    expect(joinPhrasalVerbs('i logged in twice', corpus('login'))).toBe('i login twice');
  });

  it('leaves it when the corpus holds the verb, or not the joined word', () => {
    expect(joinPhrasalVerbs('the car broke down', corpus('breakdown', 'broke'))).toBe('the car broke down');
    expect(joinPhrasalVerbs('the car broke down', corpus('car'))).toBe('the car broke down');
  });
});
