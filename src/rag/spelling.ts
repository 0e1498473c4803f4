import { stem, STOPWORDS } from '../text/text.js';
import { loadWordNet } from '../text/wordnet.js';
import type { GroundcheckIndex } from './store.js';

/**
 * Misspelt words of a question, read as the corpus word they slip from (2026-12-05): "how much
 * paternitty leave", "can i get a refrence", "the home working allowence". Users type this way
 * into a chat box, and a misspelt topic word was a word the corpus never holds: the term-coverage
 * gate refused the question, and the search could not find its section. Retrieval searches and
 * gates the corrected text (as it does chat spellings, `casual.ts`); the trace keeps the question
 * as typed, and the offline answerer and the judges read it as typed.
 *
 * A word is corrected only when all of these hold, so a real word is never changed into another:
 * - it has at least {@link TYPO_MIN_LETTERS} letters (shorter words are one letter from too many
 *   others: "lease" / "leave"), all lowercase (a capitalized word may be a name);
 * - its stem is not in the corpus vocabulary, and WordNet does not know it (a real word is
 *   another word: "showers" is not "shows", "joiners" is not "join");
 * - one slip away (not at its first letter) is a word whose stem the corpus holds: a letter doubled
 *   or added ("paternitty"), two letters swapped ("recieve"), a vowel left out or mistyped
 *   ("refrence", "allowence"), a doubled letter typed once ("pasport", since 2026-12-05). Other
 *   consonants left out are not tried: each position would be 20 more variants to look up. When several variants are corpus words, the one in most chunks wins.
 *
 * Costs one vocabulary lookup per question, and for each word that fails the checks above about
 * 0.5–1 ms on the handbook index (the variants' stems looked up in one query).
 */
export async function correctSpelling(index: GroundcheckIndex, text: string): Promise<string> {
  const words = [...new Set((text.match(/[A-Za-z]+/g) ?? []).filter((word) => isCandidate(word)))];
  if (words.length === 0) return text;
  const statistics = index.corpusStatistics();
  const known = statistics.documentFrequencies(words.map((word) => stem(word.toLowerCase())));
  const corrections = new Map<string, string>();
  for (const word of words) {
    const lower = word.toLowerCase();
    if (known.has(stem(lower)) || isEnglishWord(lower)) continue;
    const byStem = new Map<string, string[]>();
    for (const variant of slips(lower)) {
      const variantStem = stem(variant);
      if (variantStem.length >= TYPO_MIN_LETTERS - 2) byStem.set(variantStem, [...(byStem.get(variantStem) ?? []), variant]);
    }
    const found = statistics.documentFrequencies([...byStem.keys()]);
    let best: { variants: string[]; chunks: number } | null = null;
    for (const [variantStem, chunks] of found) if (best === null || chunks > best.chunks) best = { variants: byStem.get(variantStem)!, chunks };
    // Of the variants with that stem, an English word ("reference", not "referance"): the embedder reads words, not stems.
    if (best) corrections.set(word, best.variants.find(isEnglishWord) ?? best.variants[0]!);
  }
  if (corrections.size === 0) return text;
  return text.replace(/[A-Za-z]+/g, (word) => corrections.get(word) ?? word);
}

/** Shortest word read as a possible typo. */
export const TYPO_MIN_LETTERS = 6;

function isCandidate(word: string): boolean {
  // Lowercase only: a capitalized word may be a name ("Mitchells"), which is never corrected.
  return word.length >= TYPO_MIN_LETTERS && /^[a-z]+$/.test(word) && !STOPWORDS.has(word);
}

function isEnglishWord(lower: string): boolean {
  return loadWordNet().knows(lower);
}

/** The word one slip away, never at its first letter: a letter less, two swapped, a letter doubled, a vowel added or changed. */
function slips(lower: string): Set<string> {
  const variants = new Set<string>();
  for (let at = 1; at <= lower.length; at++) {
    if (at < lower.length) variants.add(lower.slice(0, at) + lower.slice(at + 1));
    if (at + 1 < lower.length) variants.add(lower.slice(0, at) + lower[at + 1] + lower[at] + lower.slice(at + 2));
    // A doubled letter typed once ("pasport", "adress"; 2026-12-05).
    variants.add(lower.slice(0, at) + lower[at - 1] + lower.slice(at));
    for (const vowel of 'aeiouy') {
      variants.add(lower.slice(0, at) + vowel + lower.slice(at));
      if (at < lower.length) variants.add(lower.slice(0, at) + vowel + lower.slice(at + 1));
    }
  }
  variants.delete(lower);
  return variants;
}
