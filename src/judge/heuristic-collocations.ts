import { stem } from '../text/text.js';
import { loadWordNet } from '../text/wordnet.js';
import { hasStem } from './heuristic-tokens.js';

/**
 * Words a text uses only inside a two-word term (v111): "holiday" in "work on a bank holiday",
 * "day" in "another day off". WordNet lists such a term as a noun of its own (`bank_holiday`,
 * `day_off`, `sick_pay`, `time_off`, `working_day`), which names another thing than its last word
 * alone: a question about holiday (leave) is not answered by the bank-holiday rule, yet its one
 * topic word is in that rule's sentence, and in every sentence naming a bank holiday. Found on the
 * README walk (METHODOLOGY.md, 2026-12-06): "How many days holiday do I get?" answered with "If you
 * are asked to work on a bank holiday, you may take another day off instead" was judged `correct`.
 *
 * Returns, for each Porter stem whose every occurrence in the text is inside such a term, the
 * stems of its partner words ("holidai" → {"bank"}). A stem used on its own anywhere in the text
 * is not in the map. Only pairs of ASCII words side by side are read; cached per text.
 *
 * @example
 * collocationBound('If you are asked to work on a bank holiday, you may take another day off instead.')
 * // Map { 'bank' => Set { 'holidai' }, 'holidai' => Set { 'bank' }, 'dai' => Set { 'off' }, 'off' => Set { 'dai' } }
 */
export function collocationBound(text: string): ReadonlyMap<string, ReadonlySet<string>> {
  let bound = cache.get(text);
  if (bound !== undefined) return bound;
  const tokens = wordsOf(text);
  const partners = new Array<string | null>(tokens.length).fill(null);
  const wordNet = loadWordNet();
  for (let at = 0; at + 1 < tokens.length; at++) {
    if (wordNet.lemmas(`${tokens[at]}_${tokens[at + 1]}`, 'noun').length === 0) continue;
    // Only the head, the second word, is bound: "holiday" in "bank holiday" names another thing,
    // while "Christmas" in "Christmas Day" and "life" in "life assurance" still name theirs.
    partners[at + 1] = stem(tokens[at]!);
  }
  const free = new Set<string>();
  const found = new Map<string, Set<string>>();
  tokens.forEach((token, at) => {
    const own = stem(token);
    const partner = partners[at];
    if (partner === null || partner === undefined) free.add(own);
    else found.set(own, (found.get(own) ?? new Set()).add(partner));
  });
  for (const own of free) found.delete(own);
  bound = found;
  if (cache.size >= MAX_CACHED) cache.clear();
  cache.set(text, bound);
  return bound;
}

/**
 * Whether a topic stem of the question is held in the text only inside a two-word term whose
 * other word the question does not use (`topic`: the question's stems): then the text does not
 * speak of what the question names ("holiday" asked, "bank holiday" written). "Do I get paid for
 * bank holidays?" uses both words, so there "bank holiday" holds it.
 */
export function heldOnlyInTerm(text: string, wordStem: string, topic: { has(stem: string): boolean }): boolean {
  const partners = collocationBound(text).get(wordStem);
  return partners !== undefined && ![...partners].some((partner) => topic.has(partner));
}

/**
 * Whether `stems` (a text's) hold the question's word freely: the stem is there, and not only
 * inside a two-word term whose other word the question does not use ({@link heldOnlyInTerm}).
 */
export function heldFreely(stems: ReadonlySet<string>, text: string, wordStem: string, topic: { has(stem: string): boolean }): boolean {
  return hasStem(stems, wordStem) && !heldOnlyInTerm(text, wordStem, topic);
}

/**
 * The Porter stems of a text's words as the terms are read (ASCII letter runs, lower case,
 * stopwords kept): what a question's words are compared with as a term's first word.
 */
export function termWordStems(text: string): Set<string> {
  return new Set(wordsOf(text).map(stem));
}

function wordsOf(text: string): string[] {
  return text.toLowerCase().match(WORD) ?? [];
}

const WORD = /[a-z]+/g;
const cache = new Map<string, ReadonlyMap<string, ReadonlySet<string>>>();
const MAX_CACHED = 20_000;
