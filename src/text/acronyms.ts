import { splitSentences, STOPWORDS } from './text.js';
import { loadWordNet } from './wordnet.js';

/**
 * Acronyms a question uses for what the documents spell out (2026-12-05): "SPL" for "Shared
 * Parental Leave", "SAR" for "Subject Access Requests", "2FA" for "Two-factor authentication". A
 * person types the acronym; a document may never write it, so the term-coverage gate refused the
 * question and the search could not find its section. Retrieval and the offline answerer read
 * the acronym as the words it stands for, found in the documents themselves.
 *
 * An acronym is a word written in two to six capitals ("SPL", "SARs") or a digit and one to four
 * capitals ("2FA"). The documents spell one out in a heading (a title or section: every run of
 * its words counts) or in a run of capitalized words in their text ("Statutory Sick Pay"): the
 * first letters of the run's words spell the acronym, hyphenated parts counting as words
 * ("Two-factor": "two", "factor"), a number word standing for its digit, and a stopword counting
 * only inside a compound ("Sign-On"). Lower-case runs in running text are not read: "copy personal
 * data" is no spelling-out of CPD, and "single sign-on", written only so, is not found for SSO.
 */

const ACRONYM = /^(?:\p{Lu}{2,6}|[0-9]\p{Lu}{1,4})s?$/u;
/** The words a text is read in for its acronyms. */
const WORD = /[0-9A-Za-z]+/g;
const NUMBER_WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];
/** Two capitalized words side by side ("Sick Pay", "Sign-On"): where a capitalized run may be. */
const TWO_CAPITALS = /\p{Lu}[\p{L}\p{N}]*[\s\-/]+(?:\p{Ll}{1,3}[\-/])?\p{Lu}/u;
/** Longest run of words read as a spelling-out. */
const MAX_RUN = 6;

/** Whether `word` is written as an acronym ("SPL", "2FA", "SARs"). */
export function isQuestionAcronym(word: string): boolean {
  return ACRONYM.test(word);
}

/**
 * Whether `word` is an acronym as a question may type it: in capitals ({@link isQuestionAcronym}),
 * or in lower case as people chat ("how much spl can i take", "can i enforce 2fa"): two to five
 * letters that WordNet does not know as a word ("spl", "sso", not "eat"), or a digit and one to
 * four letters (2026-12-05). It is spelled out only where the documents spell it out and do not
 * write it, as a capitalized one is.
 */
export function isTypedAcronym(word: string): boolean {
  if (isQuestionAcronym(word)) return true;
  if (!/^(?:[a-z]{2,5}|[0-9][a-z]{1,4})$/.test(word)) return false;
  return /^[0-9]/.test(word) || !loadWordNet().knows(word);
}

/** The key an acronym is looked up by: its letters, lowercased, a plural "s" left off ("SARs" → `sar`, "2FA" → `2fa`). */
export function acronymKey(acronym: string): string {
  return (/\p{Lu}s$/u.test(acronym) ? acronym.slice(0, -1) : acronym).toLowerCase();
}

/** A passage to read spellings-out from: its heading (title and section) and its text. */
export interface AcronymPassage {
  heading: string;
  text: string;
}

interface Word {
  word: string;
  capitalized: boolean;
  /** Part of a hyphenated compound ("sign-on"). */
  compound: boolean;
}

function wordsOf(sentence: string): Word[] {
  const words: Word[] = [];
  for (const token of sentence.split(/\s+/)) {
    const parts = token.split(/[-/]/).map((part) => part.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '')).filter((part) => part !== '');
    // Capitalized means written as a word with a capital ("Sick"), not a code or a word in capitals ("PAO1", "RESULTS").
    for (const part of parts) words.push({ word: part.toLowerCase(), capitalized: /^\p{Lu}\p{Ll}+$/u.test(part), compound: parts.length > 1 });
  }
  return words;
}

/** The letter a word gives an acronym ("two" → `2`), or `null` when it gives none (a stopword outside a compound, one letter). */
function initialOf({ word, compound }: Word): string | null {
  const digit = NUMBER_WORDS.indexOf(word);
  if (digit >= 0) return String(digit);
  if (word.length < 2 || (!compound && STOPWORDS.has(word))) return null;
  return /^\p{L}/u.test(word) ? word[0]! : null;
}

/**
 * Every acronym the passages spell out, by {@link acronymKey}, with its words (lowercased):
 * headings first, then capitalized runs of the text; the first spelling-out of a key is kept.
 *
 * @example
 * acronymTable([{ heading: 'Leave Policy. Shared Parental Leave', text: 'It includes any Statutory Sick Pay.' }])
 * // Map { 'lp' => 'leave policy', 'sp' => 'shared parental', 'spl' => 'shared parental leave', 'pl' => 'parental leave', 'ss' => …, 'ssp' => 'statutory sick pay', … }
 */
export function acronymTable(passages: readonly AcronymPassage[]): Map<string, string> {
  const table = new Map<string, string>();
  const addRuns = (words: readonly Word[], capitalizedOnly: boolean) => {
    for (let start = 0; start < words.length; start++) {
      let key = '';
      for (let end = start; end < words.length && end - start < MAX_RUN; end++) {
        const word = words[end]!;
        const initial = initialOf(word);
        // A capitalized run: each word written with a capital, or a stopword inside a compound ("Sign-On").
        if (initial === null || (capitalizedOnly && !word.capitalized && !(word.compound && STOPWORDS.has(word.word)))) break;
        key += initial;
        if (key.length >= 2 && !table.has(key)) table.set(key, words.slice(start, end + 1).map((entry) => entry.word).join(' '));
      }
    }
  };
  for (const passage of passages) for (const part of passage.heading.split(/\.\s+/)) addRuns(wordsOf(part), false);
  for (const passage of passages) {
    // Most passages hold no two capitalized words side by side: skip them unread.
    if (!TWO_CAPITALS.test(passage.text)) continue;
    for (const sentence of splitSentences(passage.text)) {
      if (!TWO_CAPITALS.test(sentence)) continue;
      const words = wordsOf(sentence);
      // A sentence's first word is capitalized whatever it is: a run may start there only with a second capital after it.
      addRuns(words.length > 1 && !words[1]!.capitalized ? words.slice(1) : words, true);
    }
  }
  return table;
}

/**
 * `text` with each acronym for which `spellingOut` gives words replaced by them; the others stay.
 * (`spellingOut` decides which acronyms need it: those the documents do not hold.)
 */
export function replaceAcronyms(text: string, spellingOut: (acronym: string) => string | null | undefined): string {
  return text.replace(WORD, (word, at: number) => {
    // Part of a compound ("RAS-driven"): a name of its own, not a term to spell out.
    if (!isTypedAcronym(word) || /[-/]$/.test(text.slice(0, at)) || /^[-/]/.test(text.slice(at + word.length))) return word;
    // A text that says what its acronym stands for ("replicative life span (RLS)", "RLS (replicative
    // life span)") has spelled it out itself.
    if (text[at - 1] === '(' || text.slice(at + word.length).trimStart().startsWith('(')) return word;
    return spellingOut(word) ?? word;
  });
}

/** Where a text's acronyms are looked up: which of their keys the documents write, and the documents' spellings-out. */
export interface AcronymSource {
  /** Of these keys ({@link acronymKey}), the ones the documents write as a word. */
  written(keys: readonly string[]): ReadonlySet<string>;
  /** The documents' table of spellings-out ({@link acronymTable}); asked for only when an acronym needs it. */
  spellings(): ReadonlyMap<string, string>;
}

/**
 * `text` with each acronym the documents do not write replaced by the words they spell it out
 * with; the others stay. What retrieval (over the whole corpus), the offline answerer (over its
 * prompt) and the heuristic judge (over its evidence) each read the question as.
 *
 * @example
 * spellOutAcronyms('how much SPL can I take', source) // 'how much shared parental leave can I take'
 */
export function spellOutAcronyms(text: string, source: AcronymSource): string {
  const keys = [...new Set((text.match(WORD) ?? []).filter(isTypedAcronym).map(acronymKey))];
  if (keys.length === 0) return text;
  const written = source.written(keys);
  if (keys.every((key) => written.has(key))) return text;
  const spellings = source.spellings();
  return replaceAcronyms(text, (acronym) => (written.has(acronymKey(acronym)) ? null : spellings.get(acronymKey(acronym))));
}
