/**
 * How a text's digits are grouped, read in one pass, so the redaction skips the number patterns
 * that cannot match. A match of each pattern is made of characters of one set only (digits and
 * separators, with `+` and parentheses for phone numbers), so it lies inside one run of them: a
 * pattern that needs more digits than any run holds can mask nothing. Most answers hold only
 * dates, prices and short numbers (`2026-01-12`: four digits a run at most), and running the phone,
 * card and National Insurance patterns over them was most of what redacting a capture cost
 * (bench:middleware).
 */

export interface NumberRuns {
  /** Digits in the whole text (ASCII and full-width). */
  digits: number;
  /**
   * The most digits (ASCII and full-width) in one run of digits, separators (the redaction's
   * SEP: spaces, dots, dashes, slashes, underscores, commas and the invisible ones), `+`, `＋`,
   * `(` and `)`: where a phone, card or long-digit match can lie.
   */
  mostGroupedDigits: number;
  /** The most ASCII digits in one run of ASCII digits, spaces and no-break spaces: where a National Insurance number's six can lie. */
  mostSpacedAsciiDigits: number;
}

/**
 * What may separate digit groups in a number the redaction masks: spaces (plain, no-break,
 * figure, narrow no-break, zero-width), dots, dashes, slashes, underscores, commas. The
 * redaction's patterns are built from this list (`SEP` in redact.ts), so the runs read here and
 * the matches masked there always agree on what joins a number's groups.
 */
export const NUMBER_SEPARATORS = ' .-/_,\u00a0\u2007\u202f\u200b\u200c\u200d\u2060\ufeff';
/** The spaces a National Insurance number's pairs may be written with. */
export const NATIONAL_INSURANCE_SPACES = ' \u00a0';

/** The redaction's digit class: ASCII and full-width digits. */
function isDigit(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 0xff10 && code <= 0xff19);
}

/** A separator, or what a phone number adds (`+`, `＋`, parentheses): joins a phone, card or long-digit run. */
const JOINS_GROUPS = 1;
/** A space a National Insurance number may hold. */
const JOINS_NI_PAIRS = 2;
/** Per UTF-16 code unit, which runs it joins (a lookup per character, built once from the lists above). */
const JOINS = new Uint8Array(0x10000);
for (const character of `${NUMBER_SEPARATORS}+\uff0b()`) JOINS[character.charCodeAt(0)]! |= JOINS_GROUPS;
for (const character of NATIONAL_INSURANCE_SPACES) JOINS[character.charCodeAt(0)]! |= JOINS_NI_PAIRS;

/**
 * The digit runs of `text` (see {@link NumberRuns}).
 *
 * @example
 * numberRuns('from 2025-09-01, call 020 7946 0400'); // { digits: 19, mostGroupedDigits: 11, mostSpacedAsciiDigits: 11 }
 */
export function numberRuns(text: string): NumberRuns {
  let digits = 0;
  let grouped = 0;
  let mostGrouped = 0;
  let spaced = 0;
  let mostSpaced = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (isDigit(code)) {
      digits += 1;
      grouped += 1;
      if (grouped > mostGrouped) mostGrouped = grouped;
      if (code <= 57) {
        spaced += 1;
        if (spaced > mostSpaced) mostSpaced = spaced;
      } else spaced = 0;
      continue;
    }
    const joins = JOINS[code]!;
    if ((joins & JOINS_GROUPS) === 0) grouped = 0;
    if ((joins & JOINS_NI_PAIRS) === 0) spaced = 0;
  }
  return { digits, mostGroupedDigits: mostGrouped, mostSpacedAsciiDigits: mostSpaced };
}
