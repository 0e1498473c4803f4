import { STOPWORDS, words } from '../../src/text/text.js';

/**
 * The naive baseline of `bench:judge`: an answer is flagged as hallucinated when some content word
 * of it does not appear in the knowledge.
 *
 * - Words are `words()` tokens: lowercased, diacritics removed, split on every character that is
 *   not a letter or a digit. Punctuation therefore only separates words; "Harbourline's" is
 *   `harbourline` + `s`, and `s` is a stopword.
 * - Content words are those tokens minus `STOPWORDS` (the same list the judge uses).
 * - Numbers are compared as their digit runs: "£1,000" is `1` and `000`, "3.5" is `3` and `5`;
 *   each run must appear as a token of the knowledge. No stemming, no number words.
 * - An answer with no content word ("Yes", "No") is never flagged: every one of its (zero) content
 *   words appears. The benchmark counts these answers and shows them.
 */
export function naiveContentWords(answer: string): string[] {
  return words(answer).filter((word) => !STOPWORDS.has(word));
}

/** Content words of the answer that the knowledge lacks (empty: not flagged). */
export function naiveMissingWords(knowledge: string, answer: string): string[] {
  const known = new Set(words(knowledge));
  return naiveContentWords(answer).filter((word) => !known.has(word));
}
