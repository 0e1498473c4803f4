import { InvalidInputError } from '../errors.js';
import { countWords, stem, STOPWORDS, words } from '../text/text.js';

/**
 * Text metrics: cheap, deterministic signals read from an answer's text. Pure functions.
 * METHODOLOGY.md ("Metrics") lists every normalization rule below; change both together.
 */

/** Hyphens, dashes and minus signs. */
const DASH = '[\\u002d\\u2010\\u2011\\u2012\\u2013\\u2014\\u2015\\u2212\\ufe58\\ufe63\\uff0d]';
const DASHES = new RegExp(DASH, 'g');
const DASHES_IN_WORD = new RegExp(`([\\p{L}\\p{N}])${DASH}+(?=[\\p{L}\\p{N}])`, 'gu');

/**
 * Normalize text for keyword matching. In order:
 * 1. Unicode compatibility form (NFKD), accents removed, lowercased.
 * 2. Curly single quotes and primes → `'`; curly double quotes → `"`.
 * 3. Hyphens and dashes: removed between two letters or digits (`e-commerce` → `ecommerce`,
 *    `full-time` → `fulltime`), otherwise turned into a space.
 * 4. Thousands separators dropped (`£1,000,000` → `£1000000`); a zero decimal part dropped
 *    (`£30.00` → `£30`).
 * 5. Money words folded into symbols: `30 pounds` / `30 GBP` / `GBP 30` → `£30`, `45 pence` → `45p`;
 *    a space after a currency symbol is removed (`£ 30` → `£30`).
 * 6. A leading zero on an hour is dropped (`09:30` → `9:30`).
 * 7. Runs of whitespace → one space, trimmed.
 *
 * @example
 * normalizeForMatch('The E‑commerce budget is GBP 1,000.00') // 'the ecommerce budget is £1000'
 */
export function normalizeForMatch(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[\u2018\u2019\u201a\u201b\u2032\u0060\u00b4]/g, "'")
    .replace(/[\u201c\u201d\u201e\u201f\u2033]/g, '"')
    .replace(DASHES_IN_WORD, '$1')
    .replace(DASHES, ' ')
    .replace(/(\d),(?=\d{3}(?!\d))/g, '$1')
    .replace(/(\d)\.0+(?!\d)/g, '$1')
    .replace(/\bgbp\s*(?=\d)/g, '£')
    .replace(/(\d+(?:\.\d+)?)\s*(?:pounds?|gbp)\b/g, '£$1')
    .replace(/(\d+)\s*pence\b/g, '$1p')
    .replace(/([£$€])\s+(?=\d)/g, '$1')
    .replace(/(?<![\p{N}])0(\d:\d\d)/gu, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Whether `keyword` occurs in `text` after {@link normalizeForMatch}. The keyword must start at a
 * word boundary (`25 days` does not match `125 days`), and a keyword ending in a digit must not
 * run into another digit (`£30` does not match `£300`); otherwise it may be a prefix of a longer
 * word (`self-certif` matches `self-certification`).
 *
 * @example
 * keywordHit('Full-time staff get 25 days.', '25 days') // true
 */
export function keywordHit(text: string, keyword: string): boolean {
  const needle = normalizeForMatch(keyword);
  if (needle === '') return false;
  const haystack = normalizeForMatch(text);
  const endsInDigit = /\p{N}$/u.test(needle);
  for (let index = haystack.indexOf(needle); index !== -1; index = haystack.indexOf(needle, index + 1)) {
    const before = haystack[index - 1];
    const after = haystack[index + needle.length];
    const startsWord = before === undefined || !/[\p{L}\p{N}]/u.test(before) || !/^[\p{L}\p{N}]/u.test(needle);
    const endsCleanly = !endsInDigit || after === undefined || !/\p{N}/u.test(after);
    if (startsWord && endsCleanly) return true;
  }
  return false;
}

export interface KeywordResult {
  hits: string[];
  missing: string[];
  /** hits / keywords; `null` when there are no keywords. */
  share: number | null;
}

/**
 * Which of `keywords` occur in `text` ({@link keywordHit} for each).
 *
 * @example
 * keywordHits('Phone by 09:30.', ['9:30', 'phone', 'email']) // { hits: ['9:30', 'phone'], missing: ['email'], share: 2/3 }
 */
export function keywordHits(text: string, keywords: readonly string[]): KeywordResult {
  const hits = keywords.filter((keyword) => keywordHit(text, keyword));
  const missing = keywords.filter((keyword) => !hits.includes(keyword));
  return { hits, missing, share: keywords.length === 0 ? null : hits.length / keywords.length };
}

/** Words of 5+ letters that are not stopwords, as Porter stems (unique, in order of appearance). */
function longContentStems(text: string): Map<string, string> {
  const stems = new Map<string, string>();
  for (const word of words(text)) {
    if (word.length < 5 || !/^\p{L}+$/u.test(word) || STOPWORDS.has(word)) continue;
    const stemmed = stem(word);
    if (!stems.has(stemmed)) stems.set(stemmed, word);
  }
  return stems;
}

/**
 * Share of the answer's content words (5+ letters, stopwords removed, compared as Porter stems,
 * each counted once) that appear anywhere in the evidence. A cheap hallucination proxy: words the
 * evidence never uses are candidates for invented detail. `null` when the answer has no such
 * word. Refusals score low by design of their wording; leave them out before averaging.
 *
 * @example
 * contentWordOverlap('Employees receive annual leave.', 'Full-time employees get annual leave.') // 2/3 (receive is missing)
 */
export function contentWordOverlap(answer: string, evidence: string | readonly string[]): number | null {
  const answerStems = longContentStems(answer);
  if (answerStems.size === 0) return null;
  const evidenceStems = longContentStems(typeof evidence === 'string' ? evidence : evidence.join('\n'));
  let found = 0;
  for (const stemmed of answerStems.keys()) if (evidenceStems.has(stemmed)) found += 1;
  return found / answerStems.size;
}

/**
 * The answer's content words (as first written) that {@link contentWordOverlap} did not find in
 * the evidence: what to look at when the overlap is low.
 *
 * @example
 * unsupportedWords('Employees receive annual leave.', 'Employees get annual leave.') // ['receive']
 */
export function unsupportedWords(answer: string, evidence: string | readonly string[]): string[] {
  const evidenceStems = longContentStems(typeof evidence === 'string' ? evidence : evidence.join('\n'));
  return [...longContentStems(answer)].filter(([stemmed]) => !evidenceStems.has(stemmed)).map(([, word]) => word);
}

/**
 * How far an answer runs over the word cap, relative to the cap: max(0, (words − cap) / cap).
 * 0 up to the cap, 1 at twice the cap. Words are whitespace-separated runs.
 *
 * @param [wordCap=150] the cap the prompts ask for.
 * @example
 * verbosity('word '.repeat(225)) // 0.5
 */
export function verbosity(answer: string, wordCap = 150): number {
  if (!(wordCap > 0) || !Number.isFinite(wordCap)) {
    throw new InvalidInputError(`wordCap ${String(wordCap)} is invalid: use a finite number > 0`, { code: 'invalid_option' });
  }
  return Math.max(0, (countWords(answer) - wordCap) / wordCap);
}
