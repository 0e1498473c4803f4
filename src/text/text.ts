import { stemmer } from 'stemmer';

/**
 * Text helpers shared by the offline embedder, the extractive generator and the heuristic judge.
 * Tokenization mirrors SQLite FTS5's `porter unicode61` tokenizer (lowercase, diacritics removed,
 * split on anything that is not a letter or digit, Porter stems) so that statistics read from the
 * FTS5 vocabulary line up with the terms computed here.
 */

export const STOPWORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again against all am an and any are aren as at be because been before being ' +
    'below between both but by can cannot could couldn did didn do does doesn doing don down during each ' +
    'few for from further had hadn has hasn have haven having he her here hers herself him himself his how ' +
    'i if in into is isn it its itself just let ll me more most mustn my myself no nor not of off on once ' +
    'only or other ought our ours ourselves out over own re same shan she should shouldn so some such than ' +
    'that the their theirs them themselves then there these they this those through to too under until up ' +
    've very was wasn we were weren what when where which while who whom why will with won would wouldn ' +
    'you your yours yourself yourselves also may might must shall s t d m o y yes per via etc e g ie eg ' +
    'get got gets much many within without whether however unless except'
  ).split(/\s+/),
);

/** Words that negate or limit a statement; they are kept apart from content words on purpose. */
export const NEGATIONS: ReadonlySet<string> = new Set([
  'no', 'not', 'never', 'none', 'nobody', 'nothing', 'neither', 'nor', 'cannot', 'without',
  'isn', 'aren', 'wasn', 'weren', 'don', 'doesn', 'didn', 'won', 'wouldn', 'shouldn', 'can\'t',
  'mustn', 'haven', 'hasn', 'hadn', 'couldn', 'unless', 'except',
]);

const DIACRITICS = /[\u0300-\u036f]/g;
const TOKEN = /[\p{L}\p{N}]+/gu;

/** Lowercased word tokens with diacritics removed (FTS5 unicode61 style). */
export function words(text: string): string[] {
  const folded = text.normalize('NFKD').replace(DIACRITICS, '').toLowerCase();
  return folded.match(TOKEN) ?? [];
}

const stemCache = new Map<string, string>();

/** Porter stem of one lowercased word, cached. Digits are returned as they are. */
export function stem(word: string): string {
  let stemmed = stemCache.get(word);
  if (stemmed === undefined) {
    stemmed = /^\d/.test(word) ? word : stemmer(word);
    if (stemCache.size > 200_000) stemCache.clear();
    stemCache.set(word, stemmed);
  }
  return stemmed;
}

/** Stems of the content words of `text` (stopwords removed), in order, repeats kept. */
export function contentStems(text: string): string[] {
  const result: string[] = [];
  for (const word of words(text)) {
    if (STOPWORDS.has(word)) continue;
    result.push(stem(word));
  }
  return result;
}

/** Word count as a person would count it (whitespace-separated runs). */
export function countWords(text: string): number {
  const trimmed = text.trim();
  return trimmed === '' ? 0 : trimmed.split(/\s+/).length;
}

/** A rough token estimate (≈ 0.75 words per token for English), used for chunk budgets. */
export function estimateTokens(text: string): number {
  return Math.ceil(countWords(text) * 1.33);
}

/**
 * Split prose into sentences. Keeps decimal numbers (`1.5`), amounts (`£1,000.00`), common
 * abbreviations and list items intact; each table row and list item is its own unit.
 */
export function splitSentences(text: string): string[] {
  const units: string[] = [];
  for (const rawLine of text.split(/\n/)) {
    const line = rawLine.trim();
    if (line === '') continue;
    if (/^\|/.test(line)) {
      if (/^\|[\s|:-]+\|?$/.test(line)) continue; // table separator row
      units.push(line);
      continue;
    }
    units.push(...splitLine(line));
  }
  return dropMarkerOnlyUnits(units);
}

/**
 * The sentence units of a passage body as the offline generator quotes them and the heuristic
 * judge reads them: {@link splitSentences}, list markers removed, and each Markdown table row
 * rewritten as `Header: cell; Header: cell` (a row is a statement about its columns, so it keeps
 * its headers; the header row itself and separator rows are not units).
 *
 * @example
 * splitSentenceUnits('| Region | Dinner |\n| --- | --- |\n| London | £35 |') // ['Region: London; Dinner: £35']
 */
export function splitSentenceUnits(body: string): string[] {
  return sentenceUnits(body).map((unit) => unit.text);
}

/** A sentence unit with what kind of line it came from (see {@link sentenceUnits}). */
export interface SentenceUnit {
  /** The unit as {@link splitSentenceUnits} gives it. */
  text: string;
  /** `item`: a list item (its marker removed); `row`: a table row; `sentence`: prose. */
  kind: 'sentence' | 'item' | 'row';
}

/**
 * {@link splitSentenceUnits} with each unit's kind, so a reader can keep a list together (the
 * sentence that introduces it and its items) and tell table rows from prose.
 */
export function sentenceUnits(body: string): SentenceUnit[] {
  const units: SentenceUnit[] = [];
  let header: string[] | null = null;
  for (const unit of splitSentences(body)) {
    if (!unit.startsWith('|')) {
      header = null;
      const item = /^(?:[-*+]|\d+[.)])\s+/.exec(unit);
      units.push({ text: item ? unit.slice(item[0].length) : unit, kind: item ? 'item' : 'sentence' });
      continue;
    }
    const cells = unit.replace(/^\||\|$/g, '').split('|').map((cell) => cell.trim());
    if (header === null) {
      header = cells;
      continue;
    }
    units.push({ text: cells.map((cell, index) => (header![index] ? `${header![index]}: ${cell}` : cell)).join('; '), kind: 'row' });
  }
  return units;
}

/** A full stop after these ends no sentence ("e.g. the", "approx. 3"). */
export const ABBREVIATIONS = /\b(?:e\.g|i\.e|etc|vs|approx|incl|no|dept|ext|tel|mr|mrs|ms|dr|st|p\.a|a\.m|p\.m)\.$/i;

function splitLine(line: string): string[] {
  const sentences: string[] = [];
  let start = 0;
  const boundary = /([.!?])(["')\]]*)\s+(?=["'(\[]?[\p{Lu}\p{N}£$€*-])/gu;
  let match: RegExpExecArray | null;
  while ((match = boundary.exec(line)) !== null) {
    const end = match.index + match[1]!.length + match[2]!.length;
    const candidate = line.slice(start, end);
    if (ABBREVIATIONS.test(candidate)) continue;
    sentences.push(candidate.trim());
    start = match.index + match[0].length;
  }
  const rest = line.slice(start).trim();
  if (rest !== '') sentences.push(rest);
  return sentences;
}

/**
 * Sentences typed in lower case: `splitSentences` ends a sentence only before a capital or a
 * figure, so "my laptop died. can he borrow mine?" would be one sentence, and the scene before it
 * part of the clause that asks. A `?` or `!` followed by a lower-case word, or a `.` after a word
 * that is no abbreviation, ends a sentence here too.
 *
 * @example
 * splitTypedSentences("my sons laptop died. can he borrow my work laptop? id be sat next to him")
 * // ['my sons laptop died.', 'can he borrow my work laptop?', 'id be sat next to him']
 */
export function splitTypedSentences(sentence: string): string[] {
  const parts: string[] = [];
  let start = 0;
  for (const match of sentence.matchAll(/[.?!]+(?=\s+\p{Ll})/gu)) {
    const end = match.index + match[0].length;
    if (match[0] === '.' && ABBREVIATIONS.test(sentence.slice(start, end))) continue;
    parts.push(sentence.slice(start, end).trim());
    start = end;
  }
  parts.push(sentence.slice(start).trim());
  return parts.filter((part) => part !== '');
}

/** Drops units that are only a list marker or a rule ("-", "2.", "---"); a unit that is only a number ("2101") is kept. */
function dropMarkerOnlyUnits(units: string[]): string[] {
  return units.filter((unit) => !/^[-*+_=•\s]*$/.test(unit) && unit.replace(/^(?:[-*+•]|\d+[.)])(?:\s+|$)/, '').trim() !== '');
}

/** 32-bit FNV-1a hash of a string. */
export function fnv1a(text: string, seed = 0x811c9dc5): number {
  let hash = seed >>> 0;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

/**
 * The text with every regular-expression syntax character escaped, to match it literally inside a
 * pattern (valid with and without the `u` flag).
 *
 * @example
 * new RegExp(`\\b${escapeRegExp('F.E.A.R')}`).test('F.E.A.R.') // true
 */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Forms of "to be": between two words, they make a statement ("my laptop was stolen"), not a phrase. */
const BE_FORMS: ReadonlySet<string> = new Set(['am', 'is', 'are', 'was', 'were', 'be', 'been', 'being', "isn't", "wasn't", "aren't", "weren't"]);

/** Articles and possessive determiners, which open a noun phrase. */
export const DETERMINERS: ReadonlySet<string> = new Set('a an the my your our their his her its this that these those'.split(' '));
/** Prepositions, which join a noun phrase to the one before ("advance on my salary"). */
const PREPOSITIONS: ReadonlySet<string> = new Set('of on for in to with at from by about into onto over under after before during per'.split(' '));

/**
 * Stem pairs of content words next to each other, with at most `maxStopwordGap` stopwords between
 * them (0: side by side, "annual leave"; 2: "advance on my salary"). A number breaks a pair, and
 * so does a form of "to be" between them ("my laptop was stolen" states something of the laptop),
 * and a determiner with no preposition ("is my bill an estimate": two noun phrases).
 * `keep`, given both words as written (lowercased), may leave a pair out.
 */
export function adjacentPairs(text: string, maxStopwordGap = 0, keep?: (first: string, second: string) => boolean): [string, string][] {
  return pairsOfParts([text], maxStopwordGap, keep);
}

/**
 * {@link adjacentPairs} within each clause: punctuation that ends a clause (a comma, full stop,
 * semicolon, colon, "?" or "!" before a space or the end) breaks a pair, so "my nan died, how much
 * time off" pairs no "died" with "time". Figures keep their commas and points ("£1,000", "2.5").
 */
export function adjacentPairsInClauses(text: string, maxStopwordGap = 0, keep?: (first: string, second: string) => boolean): [string, string][] {
  return pairsOfParts(text.split(/[,.;:!?]+(?=\s|$)/), maxStopwordGap, keep);
}

/** The pairs of each part read on its own (no pair across two parts), each pair once, in order of first appearance. */
function pairsOfParts(parts: readonly string[], maxStopwordGap: number, keep?: (first: string, second: string) => boolean): [string, string][] {
  const pairs: [string, string][] = [];
  const seen = new Set<string>();
  for (const part of parts) {
    let previous: string | null = null;
    let gap = 0;
    let determiner = false;
    let preposition = false;
    for (const word of words(part)) {
      if (STOPWORDS.has(word)) {
        gap += 1;
        if (BE_FORMS.has(word)) previous = null;
        if (DETERMINERS.has(word)) determiner = true;
        if (PREPOSITIONS.has(word)) preposition = true;
        continue;
      }
      // A determiner with no preposition before it starts another noun phrase: "is my bill an
      // estimate" holds "bill" and "estimate" in two (2026-12-05); "advance on my salary" is one.
      const apart = determiner && !preposition;
      determiner = false;
      preposition = false;
      if (previous !== null && gap <= maxStopwordGap && !apart && !/^\d/.test(word) && !/^\d/.test(previous) && (keep === undefined || keep(previous, word))) {
        const pair: [string, string] = [stem(previous), stem(word)];
        const key = pair.join(' ');
        if (pair[0] !== pair[1] && !seen.has(key)) {
          seen.add(key);
          pairs.push(pair);
        }
      }
      previous = word;
      gap = 0;
    }
  }
  return pairs;
}
