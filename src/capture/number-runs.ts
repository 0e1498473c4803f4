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

/** The redaction's digit class: ASCII and full-width digits. */
function isDigit(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 0xff10 && code <= 0xff19);
}

/** The redaction's separators between digit groups, plus what a phone number adds (`+`, `＋`, parentheses). */
function isGroupCharacter(code: number): boolean {
  switch (code) {
    case 0x20: // space
    case 0x2e: // .
    case 0x2d: // -
    case 0x2f: // /
    case 0x5f: // _
    case 0x2c: // ,
    case 0xa0: // no-break space
    case 0x2007: // figure space
    case 0x202f: // narrow no-break space
    case 0x200b: // zero-width space
    case 0x200c: // zero-width non-joiner
    case 0x200d: // zero-width joiner
    case 0x2060: // word joiner
    case 0xfeff: // zero-width no-break space
    case 0x2b: // +
    case 0xff0b: // full-width +
    case 0x28: // (
    case 0x29: // )
      return true;
    default:
      return false;
  }
}

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
    if (!isGroupCharacter(code)) grouped = 0;
    if (code !== 0x20 && code !== 0xa0) spaced = 0;
  }
  return { digits, mostGroupedDigits: mostGrouped, mostSpacedAsciiDigits: mostSpaced };
}
