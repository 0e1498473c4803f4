/**
 * Acronyms for the offline judge (v16): an answer may shorten what the document spells out
 * ("the EAP" for "the Employee Assistance Programme", "MFA" for "Multi-Factor Authentication").
 * An all-capital word of two to six letters is found in a text that holds a run of capitalized
 * words whose initials spell it, small joining words ("of", "and", "for", "the", "&") skipped.
 * Only capitalized runs count, so a claim's "EAP" is not found in "every employee's annual pay".
 * Letters are compared, nothing else: a text that spells out another name with the same
 * initials would match too, which is why the run must be in the very sentence the claim rests on.
 */

const ACRONYM = /^\p{Lu}{2,6}s?$/u;
const JOINING = new Set(['of', 'and', 'for', 'the', '&', 'in', 'on', 'to']);

/** Whether `word` is written as an acronym ("EAP", "MFA", "SSPs"). */
export function isAcronym(word: string | undefined): word is string {
  return word !== undefined && ACRONYM.test(word);
}

/**
 * The run of words in `text` that spells out the acronym `word`, or `null` (hyphenated parts count
 * as words: "Multi-Factor Authentication" spells MFA).
 *
 * @example
 * expansionOf('EAP', 'Members can also use the Employee Assistance Programme.') // ['Employee', 'Assistance', 'Programme']
 * expansionOf('EAP', 'Every employee accrues paid leave.') // null
 */
export function expansionOf(word: string, text: string): string[] | null {
  if (!isAcronym(word)) return null;
  const letters = word.replace(/s$/, '').toLowerCase();
  const words = text.split(/[\s\-/]+/).map((part) => part.replace(/^[^\p{L}&]+|[^\p{L}]+$/gu, '')).filter((part) => part !== '');
  for (let start = 0; start < words.length; start++) {
    let at = 0;
    let index = start;
    for (; index < words.length && at < letters.length; index++) {
      const part = words[index]!;
      if (/^\p{Lu}/u.test(part) && part[0]!.toLowerCase() === letters[at]) at += 1;
      else if (at > 0 && JOINING.has(part.toLowerCase())) continue;
      else break;
    }
    if (at === letters.length) return words.slice(start, index);
  }
  return null;
}

/** Whether `text` spells out the acronym `word` (see {@link expansionOf}). */
export function spelledOut(word: string, text: string): boolean {
  return expansionOf(word, text) !== null;
}
