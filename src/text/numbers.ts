import { stem, STOPWORDS, words } from './text.js';

/**
 * Numbers written in words, read as digits, so "three weeks" and "3 weeks" are the same words to
 * the offline answerer and the question analysis. Covers zero to ninety-nine ("twenty-five",
 * "twenty five"), the tens and "hundred"/"thousand" multiples ("two hundred", "five thousand"),
 * "a dozen", "half" is left alone (it is not a count), and ordinals up to "thirty-first" as their
 * number ("first" → 1) only when asked for, because "first" is more often an order than a count.
 */

const UNITS: Readonly<Record<string, number>> = {
  zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19,
};

const TENS: Readonly<Record<string, number>> = {
  twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90,
};

const SCALES: Readonly<Record<string, number>> = { hundred: 100, thousand: 1000 };

const ORDINALS: Readonly<Record<string, number>> = {
  first: 1, second: 2, third: 3, fourth: 4, fifth: 5, sixth: 6, seventh: 7, eighth: 8, ninth: 9, tenth: 10,
  eleventh: 11, twelfth: 12, thirteenth: 13, fourteenth: 14, fifteenth: 15, sixteenth: 16, seventeenth: 17,
  eighteenth: 18, nineteenth: 19, twentieth: 20, thirtieth: 30,
};

/** Whether a lowercased word is a number word (`three`, `twenty`, `hundred`, `dozen`). */
export function isNumberWord(word: string): boolean {
  return word in UNITS || word in TENS || word in SCALES || word === 'dozen';
}

/** The number an ordinal word names (`third` → 3); `null` for other words. */
export function ordinalValue(word: string): number | null {
  return ORDINALS[word] ?? null;
}

/**
 * The lowercased word list with each run of number words replaced by its value in digits:
 * `['three', 'weeks']` → `['3', 'weeks']`, `['twenty', 'five']` → `['25']`, `['two', 'hundred']` → `['200']`.
 * A run that does not read as one number ("one two") becomes one value per word.
 *
 * @example
 * numberWordsToDigits(['about', 'eleven', 'hours']) // ['about', '11', 'hours']
 */
export function numberWordsToDigits(tokens: readonly string[]): string[] {
  const out: string[] = [];
  let index = 0;
  while (index < tokens.length) {
    const read = readNumber(tokens, index);
    if (read === null) {
      out.push(tokens[index]!);
      index += 1;
      continue;
    }
    out.push(String(read.value));
    index = read.end;
  }
  return out;
}

/** Read one number starting at `start`: [units | tens [units]] [scale] ; `a dozen` = 12. */
function readNumber(tokens: readonly string[], start: number): { value: number; end: number } | null {
  let index = start;
  const word = tokens[index]!;
  if (word === 'dozen') return { value: 12, end: index + 1 };
  let value: number;
  if (word in TENS) {
    value = TENS[word]!;
    index += 1;
    const next = tokens[index];
    if (next !== undefined && next in UNITS && UNITS[next]! > 0 && UNITS[next]! < 10) {
      value += UNITS[next]!;
      index += 1;
    }
  } else if (word in UNITS) {
    value = UNITS[word]!;
    index += 1;
  } else {
    return null;
  }
  const scale = tokens[index];
  if (scale !== undefined && scale in SCALES) {
    value *= SCALES[scale]!;
    index += 1;
  }
  return { value, end: index };
}

/**
 * Stems of the content words of `text` with number words read as digits, so "three weeks" and
 * "3 weeks" give the same stems (`['3', 'week']`). Repeats kept, in order.
 */
export function contentStemsWithDigits(text: string): string[] {
  return numberWordsToDigits(words(text.replace(/(\d),(?=\d{3}\b)/g, '$1')))
    .filter((word) => !STOPWORDS.has(word))
    .map(stem);
}

/**
 * `text` with each run of number words written in digits ("three years" → "3 years",
 * "twenty-five days" → "25 days"); everything else is kept as it is.
 */
export function replaceNumberWords(text: string): string {
  return text.replace(/\b[A-Za-z]+(?:[\s-]+[A-Za-z]+)*\b/g, (run) => {
    const parts = run.split(/([\s-]+)/);
    const words = parts.filter((_, index) => index % 2 === 0);
    if (!words.some((word) => isNumberWord(word.toLowerCase()))) return run;
    const out: string[] = [];
    let index = 0;
    while (index < words.length) {
      const lower = words.slice(index).map((word) => word.toLowerCase());
      const digits = numberWordsToDigits(lower);
      // numberWordsToDigits reads the longest number at the start; find how many words it used.
      if (/^\d+$/.test(digits[0]!) && isNumberWord(lower[0]!)) {
        let used = 1;
        while (used < lower.length && numberWordsToDigits(lower.slice(0, used + 1)).length === 1) used += 1;
        out.push(digits[0]!);
        index += used;
      } else {
        out.push(words[index]!);
        index += 1;
      }
    }
    return out.join(' ');
  });
}
