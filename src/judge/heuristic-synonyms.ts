import { stem } from '../text/text.js';
import { hasStem } from './heuristic-tokens.js';
import { loadWordNet, type WordNetPos } from '../text/wordnet.js';
import { EVERYDAY_NAMES } from '../text/specifics.js';

/**
 * Paraphrase by synonym for the offline judge: a word of a claim or a question is found in an
 * evidence sentence that holds one of its WordNet synonyms ("motorbike" / "motorcycle", "phone" /
 * "call", "quit" / "resign", "holiday" / "vacation"). Names, figures and negation are still checked
 * as written: a synonym never turns one figure into another.
 *
 * Senses are not disambiguated: the word's first senses in each part of speech count (WordNet
 * lists senses most frequent first; {@link SYNONYM_SENSES}), so a rarer sense can match too ("ring"
 * as a phone call and as a circle). Measured in METHODOLOGY.md ("Synonyms").
 */

/**
 * Senses of a word whose synonyms count, per part of speech. Nouns keep their first three: a
 * noun's later senses drift to other things ("years" → "days", as in "in his later days"), which
 * made a question about a sabbatical look answered by a leave chunk. Verbs, adjectives and adverbs
 * take their first ten (v16): WordNet splits them finely, and the everyday sense is often past the
 * third ("cycle" as riding a bicycle, "ring" as phoning).
 */
export const SYNONYM_SENSES: Readonly<Record<WordNetPos, number>> = Object.freeze({ noun: 3, verb: 10, adj: 10, adv: 10 });

const cache = new Map<string, readonly string[]>();

/**
 * Porter stems of the word's single-word WordNet synonyms, its own stem left out, and of the
 * documents' names for an everyday noun (`EVERYDAY_NAMES`: "food" / "meal", v123), which WordNet
 * does not list as synonyms.
 */
export function synonymStems(word: string): readonly string[] {
  const lower = word.toLowerCase();
  const cached = cache.get(lower);
  if (cached) return cached;
  const own = stem(lower);
  const wordNet = loadWordNet();
  const stems = [...new Set([...[...wordNet.synonyms(lower, SYNONYM_SENSES), ...wordNet.relatedForms(lower, SYNONYM_SENSES)].map((synonym) => stem(synonym)), ...(EVERYDAY_NAMES.get(lower) ?? [])])].filter((other) => other !== own);
  // Bounded: a judge worker sees an open vocabulary.
  if (cache.size >= 50_000) cache.clear();
  cache.set(lower, stems);
  return stems;
}

/**
 * Whether `stems` holds a synonym of the word written for `stem` (`written`: stem → the word as
 * written, as `Analysis.written` gives it). Not when the passage uses the word itself
 * (`passageStems`): a synonym bridges the answer's words and the document's, and a document that
 * has the word has no other word for it ("salary" in a passage that says "basic salary" is not
 * found in its "pay day").
 *
 * @example
 * hasSynonym(new Set(['motorcycl', 'rate']), 'motorbik', new Map([['motorbik', 'Motorbikes']]), new Set(['motorcycl', 'rate'])) // true
 */
export function hasSynonym(stems: ReadonlySet<string>, stem: string, written: ReadonlyMap<string, string>, passageStems: ReadonlySet<string>): boolean {
  const word = written.get(stem);
  if (word === undefined || hasStem(passageStems, stem)) return false;
  return synonymStems(word).some((other) => stems.has(other));
}

const phraseCache = new Map<string, readonly RegExp[]>();

/**
 * Whether `text` (an evidence sentence) holds one of the word's WordNet synonyms of two or three
 * words, written out (v54): "ahead" in "ask 2 months ahead" is "in advance" in "requested at least 2
 * months in advance". The other way round (the claim's phrase, the sentence's word) is
 * {@link phraseSynonyms}. Same senses as {@link synonymStems}; not when the passage uses the word
 * itself (`passageStems`, as for {@link hasSynonym}).
 */
export function hasPhraseSynonym(text: string, stem: string, written: ReadonlyMap<string, string>, passageStems: ReadonlySet<string>): boolean {
  const word = written.get(stem)?.toLowerCase();
  if (word === undefined || hasStem(passageStems, stem)) return false;
  let patterns = phraseCache.get(word);
  if (patterns === undefined) {
    patterns = [...loadWordNet().phraseSynonyms(word, SYNONYM_SENSES)]
      .map((phrase) => phrase.split('_'))
      .filter((words) => words.length <= 3 && words.every((part) => /^[a-z]+$/.test(part)) && !words.includes(word))
      .map((words) => new RegExp(`\\b${words.join('\\s+')}\\b`, 'i'));
    if (phraseCache.size >= 50_000) phraseCache.clear();
    phraseCache.set(word, patterns);
  }
  return patterns.some((pattern) => pattern.test(text));
}

/** Shortest part of a compound word that counts. */
const COMPOUND_PART = 3;

/**
 * Whether a compound word of a claim is written apart in the evidence ("payday" / "pay day",
 * "timesheet" / "time sheet", "workplace" / "work place"): some split of it into two parts of at
 * least {@link COMPOUND_PART} letters has both parts' stems in one of `places` (a sentence's own
 * words, its passage's title and section).
 *
 * @example
 * isSplitCompound('Payday', new Set(['salari', 'paid']), new Set(['pai', 'dai'])) // true (the heading "Pay Day")
 */
export function isSplitCompound(word: string | undefined, ...places: readonly ReadonlySet<string>[]): boolean {
  if (word === undefined) return false;
  const lower = word.toLowerCase();
  if (lower.length < 2 * COMPOUND_PART || !/^[a-z]+$/.test(lower)) return false;
  const has = (part: string) => places.some((stems) => stems.has(stem(part)));
  for (let at = COMPOUND_PART; at <= lower.length - COMPOUND_PART; at++) {
    if (has(lower.slice(0, at)) && has(lower.slice(at))) return true;
  }
  return false;
}

/**
 * Synonyms of the claim's two-word phrases that WordNet knows as one lemma (v18): "straight away"
 * (WordNet's "straightaway": "immediately"), "paid back" ("pay back": "repay"), "find out"
 * ("learn"). Maps each content stem of such a phrase to the phrase's single-word synonym stems, so
 * a sentence saying "immediately" holds both "straight" and "away". The phrase's first word is
 * tried in its base forms ("paid" → "pay" is irregular and not found; "paying" → "pay" is).
 *
 * @example
 * phraseSynonyms('Ring the desk straight away.', analyze('Ring the desk straight away.').written).get('straight') // includes 'immedi'
 */
export function phraseSynonyms(text: string, written: ReadonlyMap<string, string>): Map<string, readonly string[]> {
  const wordNet = loadWordNet();
  const byWord = new Map<string, string>();
  for (const [stemmed, word] of written) byWord.set(word.toLowerCase(), stemmed);
  const words = text.toLowerCase().match(/[a-z]+/g) ?? [];
  const found = new Map<string, readonly string[]>();
  for (let index = 0; index + 1 < words.length; index++) {
    const [first, second] = [words[index]!, words[index + 1]!];
    const firstForms = new Set([first, ...wordNet.lemmas(first, 'verb')]);
    // Written apart, one word in WordNet ("straight away" / "straightaway"): both parts real words, not "a long" / "along".
    const lemmas = [...[...firstForms].map((form) => `${form}_${second}`), ...(first.length >= COMPOUND_PART && second.length >= COMPOUND_PART ? [`${first}${second}`] : [])];
    const synonyms = new Set<string>();
    for (const lemma of lemmas) for (const synonym of wordNet.synonyms(lemma, PHRASE_SENSES)) if (synonym !== lemma && !synonym.includes('_')) synonyms.add(stem(synonym));
    if (synonyms.size === 0) continue;
    const own = [first, second].map((word) => byWord.get(word)).filter((value): value is string => value !== undefined);
    for (const stemmed of own) found.set(stemmed, [...new Set([...(found.get(stemmed) ?? []), ...[...synonyms].filter((other) => !own.includes(other))])]);
  }
  return found;
}

/**
 * Senses of a two-word phrase whose synonyms count: verbs and adverbs ("pay back", "straight away"),
 * which WordNet splits finely; never nouns ("long time" would be "years", and "it lasted a long time"
 * an answer to "how long").
 */
const PHRASE_SENSES: Readonly<Record<WordNetPos, number>> = Object.freeze({ noun: 0, verb: 10, adj: 0, adv: 10 });
