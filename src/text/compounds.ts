import { stem } from './text.js';
import { loadWordNet } from './wordnet.js';

/**
 * Closed compounds written apart: a person types "wifi", "checkout", "payday"; a document writes
 * "Wi-Fi", "check-out", "pay day". Read by the offline answerer and the heuristic judge; retrieval's
 * term-coverage gate asks the index the same question (`splitCompound`).
 */

/**
 * The ways a closed compound may be cut in two: the prefix "e", the one part of a single letter
 * ("ebooks": "e" + "books", "email": "e" + "mail"), then every cut into parts of two letters or
 * more. None for a word of fewer than four letters or of anything but letters. Shared by
 * {@link writtenApartAs} and the index's `splitCompound`.
 */
export function compoundSplits(word: string): [string, string][] {
  const lower = word.toLowerCase();
  if (lower.length < 4 || !/^[a-z]+$/.test(lower)) return [];
  const splits: [string, string][] = lower.startsWith('e') ? [['e', lower.slice(1)]] : [];
  for (let at = 2; at <= lower.length - 2; at++) splits.push([lower.slice(0, at), lower.slice(at)]);
  return splits;
}

/**
 * The two words a closed compound is written as in this text, side by side, with one whitespace
 * character or a hyphen between them ("wifi" in "Wi-Fi", "checkout" in "late check-out") and no
 * letter or digit of any script right before or after, in either case (the parts are ASCII
 * letters), or `null`. The parts of {@link compoundSplits}; the prefix "e" only with its hyphen
 * ("ebooks" in "e-books").
 *
 * @example
 * writtenApartAs('wifi', 'Facilities. Wi-Fi') // ['wi', 'fi']
 * writtenApartAs('suitcase', 'a suit and a case') // null
 */
export function writtenApartAs(word: string | undefined, text: string): [string, string] | null {
  if (word === undefined) return null;
  // A scan, not a regular expression per cut: each new word made several patterns of Unicode
  // classes, and V8 takes 0.3–0.4 ms to compile each such pattern (2026-12-06: a question never
  // asked before cost 9.3 ms of CPU against 4.8 ms asked again, largely these compiles).
  for (const [first, second] of compoundSplits(word)) {
    for (let at = indexOfAscii(text, first, 0); at >= 0; at = indexOfAscii(text, first, at + 1)) {
      const gap = at + first.length;
      const between = text[gap];
      if (between === undefined || !(between === '-' || (first.length > 1 && WHITESPACE.test(between)))) continue;
      if (!startsWithAscii(text, second, gap + 1) || isWordCharacterBefore(text, at) || isWordCharacterAt(text, gap + 1 + second.length)) continue;
      return [first, second];
    }
  }
  return null;
}

const WHITESPACE = /^\s$/;
const WORD_CHARACTER = /^[\p{L}\p{N}]$/u;

/** Whether `text` holds the lower-case ASCII word part `part` at `at`, in either case. */
function startsWithAscii(text: string, part: string, at: number): boolean {
  if (at + part.length > text.length) return false;
  for (let offset = 0; offset < part.length; offset++) {
    const wanted = part.charCodeAt(offset);
    const found = text.charCodeAt(at + offset);
    if (found !== wanted && found !== wanted - 32) return false;
  }
  return true;
}

/** The first index at or after `from` where `text` holds `part` (lower-case ASCII letters) in either case, or -1. */
function indexOfAscii(text: string, part: string, from: number): number {
  for (let at = from; at + part.length <= text.length; at++) if (startsWithAscii(text, part, at)) return at;
  return -1;
}

/** Whether the code point ending right before `index` is a letter or a digit (a surrogate pair read whole). */
function isWordCharacterBefore(text: string, index: number): boolean {
  if (index <= 0) return false;
  const low = text.charCodeAt(index - 1);
  const start = low >= 0xdc00 && low <= 0xdfff && index >= 2 ? index - 2 : index - 1;
  return WORD_CHARACTER.test(String.fromCodePoint(text.codePointAt(start)!));
}

/** Whether the code point starting at `index` is a letter or a digit. */
function isWordCharacterAt(text: string, index: number): boolean {
  return index < text.length && WORD_CHARACTER.test(String.fromCodePoint(text.codePointAt(index)!));
}

/** Whether {@link writtenApartAs} finds the compound written apart in the text. */
export function writtenApart(word: string | undefined, text: string): boolean {
  return writtenApartAs(word, text) !== null;
}

/** Adverb particles of phrasal verbs ("break down", "pick up", "log in"). */
const PHRASAL_PARTICLES = 'down|up|in|out|off|over|back|away|on';

/**
 * The text with each phrasal verb whose first word the corpus lacks, but whose joined form it
 * holds, written joined: "the car broke down" → "the car breakdown" where the documents say "24-hour
 * breakdown cover" and never "broke" (2026-12-05). The verb is tried as written, as its base
 * (WordNet: "picked" → "pick") and, for an irregular form, as the base WordNet's exception lists
 * give ("broke" → "break"). `holds`: whether the corpus holds a Porter stem.
 *
 * @example
 * joinPhrasalVerbs('the car broke down', (s) => s === 'breakdown') // 'the car breakdown'
 */
export function joinPhrasalVerbs(text: string, holds: (wordStem: string) => boolean): string {
  return text.replace(new RegExp(`(?<![\\p{L}\\p{N}])(\\p{L}{3,})\\s+(${PHRASAL_PARTICLES})(?![\\p{L}\\p{N}'’-])`, 'giu'), (phrase, verb: string, particle: string) => {
    const lower = verb.toLowerCase();
    if (holds(stem(lower))) return phrase;
    const wordNet = loadWordNet();
    const bases = [lower, ...wordNet.lemmas(lower, 'verb'), ...wordNet.relatedForms(lower, { noun: 0, verb: 1, adj: 0, adv: 0 })];
    for (const base of bases) {
      const joined = `${base}${particle.toLowerCase()}`;
      if (holds(stem(joined))) return joined;
    }
    return phrase;
  });
}
