import { stem } from '../text/text.js';
import { isAcronym } from './heuristic-acronyms.js';

/**
 * The heuristic judge's tokenizer. Unlike `words()` it keeps what the checks need: case (for
 * names), numbers with their separators and suffixes (`£1,000`, `45p`, `1st`, `6.5`), ISO dates,
 * clock times, and the punctuation that ends clauses.
 */

export type TokenKind = 'word' | 'number' | 'isoDate' | 'time' | 'symbol' | 'punct';

export interface Token {
  kind: TokenKind;
  /** The token as written (diacritics removed, case kept). */
  text: string;
  lower: string;
  /** Porter stem (words only; `''` otherwise). */
  stem: string;
  /** For numbers: the value (suffixes `k`, `m`, `bn` applied; `p` is pence). */
  value: number | null;
  /** For numbers: the letters or `%` written right after the digits (`st`, `p`, `%`, `k`). */
  suffix: string;
  /** Index of the clause the token is in; clauses end at `, ; : ( ) [ ] — . ! ?`. */
  clause: number;
  /** Whether a word is the first word of its sentence (capitalized by position, not as a name). */
  sentenceStart: boolean;
}

const PATTERN =
  /(\+?\d+(?:_\d+)+)|(\d{4}-\d{2}-\d{2})|(\d{1,2}:\d{2})(?!\d)|(\d+(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)([a-zA-Z%]*)|(\p{L}[\p{L}\p{N}]*(?:['’]\p{L}+)*)|([£$€+%&])|([,;:.!?()[\]"“”—–\-/|])/gu;
/**
 * Digit groups separated by single spaces: `0808 157 0420`, `020 7946 0400`, `+44 20 7946 0400`.
 * Joined into one code token when the first group starts with 0 or `+`, or there are three groups
 * or more; left alone when they read as thousands (`1 000 000`) or as two separate numbers
 * (`12 2025`).
 */
const DIGIT_GROUPS = /(?<![\p{L}\p{N}_:.,+])(\+?)(\d+(?:[ \u00a0]\d+)+)(?![\p{L}\p{N}_]|[:.,]\d)/gu;

function joinCode(whole: string, plus: string, digits: string): string {
  const groups = digits.split(/[ \u00a0]/);
  const thousands = /^[1-9]\d{0,2}$/.test(groups[0]!) && groups.slice(1).every((group) => /^\d{3}$/.test(group));
  const code = plus === '+' || groups[0]!.startsWith('0') || groups.length >= 3;
  return code && !thousands ? `${plus}${groups.join('_')}` : whole;
}

/** A word alone in brackets after a word: "(KIT)"; read as a word of its sentence when it is an acronym (`isAcronym`). */
const BRACKETED_WORD = /(?<=\w\s?)\(([^()\s]{2,7})\)/g;

/**
 * A list of examples set off by commas inside a clause: ", such as dismissal, demotion or unfair
 * treatment,". Items and their number are bounded, so a long answer costs linear time.
 */
const EXAMPLE_ASIDE = /,\s+(?:such as|including|like|e\.g\.)\s+(?:[^,.;:()!?]{1,60},\s+){0,8}[^,.;:()!?]{1,60}?\s+(?:or|and)\s+[^,.;:()!?]{1,60},/gi;

const CLAUSE_END = new Set([',', ';', ':', '(', ')', '[', ']', '—', '–', '.', '!', '?', '"', '“', '”', '|']);
// After a quote or bracket a capital usually starts a title or a name, not a sentence.
const SENTENCE_END = new Set(['.', '!', '?', ':', '|']);
const NUMBER_SUFFIX = /^(?:k|m|bn|st|nd|rd|th|p|%|s)?$/;

/** Tokenize one sentence or claim. */
export function tokenize(text: string): Token[] {
  const folded = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/\bcan['’]t\b/gi, 'cannot')
    .replace(/\bwon['’]t\b/gi, 'will not')
    .replace(/\bshan['’]t\b/gi, 'shall not')
    .replace(/n['’]t\b/gi, ' not')
    // "you'll", "they're", "we've", "I'd", "I'm", "it's": the verb, so the pronoun is a stopword again.
    .replace(/['’]ll\b/gi, ' will')
    .replace(/['’]re\b/gi, ' are')
    .replace(/['’]ve\b/gi, ' have')
    .replace(/\b(i|you|he|she|we|they)['’]d\b/gi, '$1 would')
    .replace(/\bi['’]m\b/gi, 'I am')
    .replace(/\b(it|that|there|here|what|who|he|she|where|how)['’]s\b/gi, '$1 is')
    // "it went up to £30": a rise to £30 (v9), not the limit "up to £30"; "goes up to" stays
    // ambiguous ("the cover goes up to £300" is a limit).
    .replace(/\bwent up\b/gi, 'rose')
    .replace(/\b(has|have|had) gone up\b/gi, '$1 risen')
    .replace(/\bwent down\b/gi, 'fell')
    // "keeping in touch (KIT) days without ending your leave": an acronym defined in brackets is a
    // word of its sentence, not a clause of its own that cuts the negation off (v127).
    .replace(BRACKETED_WORD, (whole: string, word: string) => (isAcronym(word) ? ` ${word} ` : whole))
    // "You will not suffer any detriment, such as dismissal or demotion, for raising a concern": a
    // list of examples inside a clause is read as part of it, so the negation reaches past it (v127).
    .replace(EXAMPLE_ASIDE, (aside: string) => ` ${aside.slice(1, -1).replace(/,/g, ' ')}`)
    .replace(DIGIT_GROUPS, joinCode);
  const tokens: Token[] = [];
  let clause = 0;
  let atSentenceStart = true;
  for (const match of folded.matchAll(PATTERN)) {
    const [whole, code, iso, time, digits, suffix, word, symbol, punct] = match;
    if (code) {
      // A phone number or similar code: one token, compared exactly, never a quantity.
      const token = make('word', code.replace(/_/g, ' '), clause, false);
      token.lower = code.replace(/_/g, '');
      token.stem = token.lower;
      tokens.push(token);
    } else if (iso) tokens.push(make('isoDate', iso, clause, false));
    else if (time) tokens.push(make('time', time, clause, false));
    else if (digits !== undefined) {
      const lowerSuffix = (suffix ?? '').toLowerCase();
      if (!NUMBER_SUFFIX.test(lowerSuffix)) {
        // `3D`, `4x4`, `C2H5OH`: an identifier, not a quantity.
        tokens.push(make('word', whole, clause, atSentenceStart));
      } else {
        const token = make('number', whole, clause, false);
        token.suffix = lowerSuffix;
        token.value = numberValue(digits, lowerSuffix);
        tokens.push(token);
      }
    } else if (word) {
      const bare = word.replace(/['’]s$/i, '');
      tokens.push(make('word', bare, clause, atSentenceStart));
    } else if (symbol) tokens.push(make('symbol', symbol, clause, false));
    else if (punct) {
      tokens.push(make('punct', punct, clause, false));
      if (CLAUSE_END.has(punct)) clause += 1;
      if (SENTENCE_END.has(punct)) atSentenceStart = true;
      continue;
    }
    if (tokens.at(-1)!.kind === 'word' || tokens.at(-1)!.kind === 'number') atSentenceStart = false;
  }
  return tokens;
}

function make(kind: TokenKind, text: string, clause: number, sentenceStart: boolean): Token {
  const lower = text.toLowerCase();
  return { kind, text, lower, stem: kind === 'word' ? stem(UNIT_ABBREVIATIONS[lower] ?? lower) : '', value: null, suffix: '', clause, sentenceStart };
}

function numberValue(digits: string, suffix: string): number {
  const base = Number(digits.replace(/,/g, ''));
  if (suffix === 'k') return base * 1_000;
  if (suffix === 'm') return base * 1_000_000;
  if (suffix === 'bn') return base * 1_000_000_000;
  if (suffix === 'p') return base / 100;
  return base;
}

/** Whether a word token is written with a capital (a name, an acronym) rather than lowercase. */
export function isCapitalized(token: Token): boolean {
  return token.kind === 'word' && /^\p{Lu}/u.test(token.text);
}

/**
 * Abbreviated units and the unit each stands for: read as that unit's figures
 * (`heuristic-quantities.ts`), and stemmed as the unit, so "20 wks" is found where "20 weeks" is (v47).
 */
export const UNIT_ABBREVIATIONS: Readonly<Record<string, string>> = {
  wk: 'week', wks: 'week', mth: 'month', mths: 'month', yr: 'year', yrs: 'year', hr: 'hour', hrs: 'hour', min: 'minute', mins: 'minute', sec: 'second', secs: 'second',
};

/**
 * Stem match, tolerant of the variants Porter stemming leaves apart ("month"/"monthly",
 * "extend"/"extension"): two stems match when they share at least five leading letters and differ
 * in at most one letter of the shorter one after that. Numbers match exactly.
 */
export function hasStem(stems: ReadonlySet<string>, stem: string): boolean {
  if (stems.has(stem)) return true;
  if (stem.length < 5 || /\d/.test(stem)) return false;
  for (const other of stems) {
    if (other.length < 5 || other.slice(0, 5) !== stem.slice(0, 5)) continue;
    let shared = 5;
    while (shared < other.length && shared < stem.length && other[shared] === stem[shared]) shared += 1;
    if (Math.min(other.length, stem.length) <= shared + 1) return true;
  }
  return false;
}
