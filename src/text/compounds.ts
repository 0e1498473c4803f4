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
 * The two words a closed compound is written as in this text, side by side, with a space or a
 * hyphen between them ("wifi" in "Wi-Fi", "checkout" in "late check-out"), or `null`. The parts
 * of {@link compoundSplits}; the prefix "e" only with its hyphen ("ebooks" in "e-books").
 *
 * @example
 * writtenApartAs('wifi', 'Facilities. Wi-Fi') // ['wi', 'fi']
 * writtenApartAs('suitcase', 'a suit and a case') // null
 */
export function writtenApartAs(word: string | undefined, text: string): [string, string] | null {
  if (word === undefined) return null;
  for (const [first, second] of compoundSplits(word)) {
    const between = first.length === 1 ? '-' : '[\\s-]';
    if (new RegExp(`(?<![\\p{L}\\p{N}])${first}${between}${second}(?![\\p{L}\\p{N}])`, 'iu').test(text)) return [first, second];
  }
  return null;
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
