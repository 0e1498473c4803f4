import { replaceNumberWords } from '../../text/numbers.js';
import { stem, STOPWORDS } from '../../text/text.js';
import { withDigitGroups } from '../../text/question-terms.js';

/**
 * Figures a question states and the conditions a sentence puts on figures, so "a £2,500
 * course" meets "Training that costs £1,000 or more", "grade 3" meets "grades 1 to 4" and
 * "3 years" meets "2 to 5 years", and the sentence whose condition the figure breaks ("less
 * than £1,000") ranks lower.
 */

/** A figure: its value, whether it is an amount of money, and the words around it (stems). */
export interface Figure {
  value: number;
  currency: boolean;
  /** Stem of the word before and after the number ("grade 3" → `grade`; "3 years" → `year`). */
  words: string[];
}

/** A condition on a figure: the range it must fall in. */
export interface FigureCondition {
  low: number;
  high: number;
  lowInclusive: boolean;
  highInclusive: boolean;
  currency: boolean;
  words: string[];
}

const NUMBER = String.raw`(£|\$|€)?\s?(\d+(?:\.\d+)?)(k)?`;
const WORD = String.raw`[A-Za-z]+`;

const PATTERNS: { pattern: RegExp; make: (a: number, b: number) => Omit<FigureCondition, 'currency' | 'words'> }[] = [
  { pattern: new RegExp(String.raw`\b(?:between\s+)?${NUMBER}\s*(?:to|and|-|–)\s*${NUMBER}`, 'gi'), make: (a, b) => ({ low: a, high: b, lowInclusive: true, highInclusive: true }) },
  { pattern: new RegExp(String.raw`\b(?:less than|under|below|fewer than)\s+${NUMBER}`, 'gi'), make: (a) => ({ low: -Infinity, high: a, lowInclusive: false, highInclusive: false }) },
  { pattern: new RegExp(String.raw`\b(?:up to|at most|no more than|(?:a )?maximum of|within)\s+${NUMBER}`, 'gi'), make: (a) => ({ low: -Infinity, high: a, lowInclusive: false, highInclusive: true }) },
  { pattern: new RegExp(String.raw`\b(?:more than|over|above|exceeding|exceeds|beyond)\s+${NUMBER}`, 'gi'), make: (a) => ({ low: a, high: Infinity, lowInclusive: false, highInclusive: false }) },
  { pattern: new RegExp(String.raw`\b(?:at least|(?:a )?minimum of)\s+${NUMBER}`, 'gi'), make: (a) => ({ low: a, high: Infinity, lowInclusive: true, highInclusive: false }) },
  { pattern: new RegExp(String.raw`${NUMBER}(?:\s+${WORD})?\s+(?:or more|or over|or longer|and above|or above)`, 'gi'), make: (a) => ({ low: a, high: Infinity, lowInclusive: true, highInclusive: false }) },
];

function valueOf(digits: string, thousands: string | undefined): number {
  return Number(digits) * (thousands ? 1000 : 1);
}

/** Stems of the word just before `start` and just after `end` in `text`. */
function wordsAround(text: string, start: number, end: number): string[] {
  const before = /([A-Za-z]+)\W*$/.exec(text.slice(Math.max(0, start - 20), start))?.[1];
  const after = /^\W*([A-Za-z]+)/.exec(text.slice(end, end + 20))?.[1];
  return [before, after]
    .filter((word): word is string => word !== undefined && word.length > 1 && !STOPWORDS.has(word.toLowerCase()))
    .map((word) => stem(word.toLowerCase()));
}

/** The figures a question states ("£2,500", "grade 3", "3 years", "8 months"). */
export function questionFigures(question: string): Figure[] {
  const text = withDigitGroups(replaceNumberWords(question));
  return [...text.matchAll(new RegExp(NUMBER, 'g'))].map((match) => ({
    value: valueOf(match[2]!, match[3]),
    currency: match[1] !== undefined,
    words: wordsAround(text, match.index, match.index + match[0].length),
  }));
}

/** The conditions a sentence puts on figures ("less than £1,000", "grades 1 to 3", "£1,000 or more"). */
export function figureConditions(sentence: string): FigureCondition[] {
  const text = withDigitGroups(sentence);
  const conditions: FigureCondition[] = [];
  for (const { pattern, make } of PATTERNS) {
    for (const match of text.matchAll(pattern)) {
      const numbers = [...match[0].matchAll(new RegExp(NUMBER, 'g'))];
      const values = numbers.map((number) => valueOf(number[2]!, number[3]));
      if (values.length === 0 || (values.length === 2 && values[0]! > values[1]!)) continue;
      conditions.push({
        ...make(values[0]!, values[1] ?? values[0]!),
        currency: numbers.some((number) => number[1] !== undefined),
        words: wordsAround(text, match.index, match.index + match[0].length),
      });
    }
  }
  return conditions;
}

/**
 * How a sentence's conditions fit the question's figures: `1` when a figure falls inside one of
 * them, `-1` when the figures it describes all fall outside, `0` when none describes the same kind
 * of figure (money with money; other numbers only when a word around them agrees).
 */
export function conditionFit(figures: readonly Figure[], conditions: readonly FigureCondition[]): -1 | 0 | 1 {
  let outside = false;
  for (const figure of figures) {
    for (const condition of conditions) {
      if (figure.currency !== condition.currency) continue;
      if (!figure.currency && !figure.words.some((word) => condition.words.includes(word))) continue;
      const aboveLow = condition.lowInclusive ? figure.value >= condition.low : figure.value > condition.low;
      const belowHigh = condition.highInclusive ? figure.value <= condition.high : figure.value < condition.high;
      if (aboveLow && belowHigh) return 1;
      outside = true;
    }
  }
  return outside ? -1 : 0;
}

/**
 * Whether a sentence states the question's figures: `1` when it states one of them for the same
 * thing ("3 years" and "3 years of service"), `-1` when it states only other values for the
 * things the question gives a figure for ("5 years" when the question says three), `0` when it
 * says nothing about them. Figures count as the same thing when a word around them agrees.
 */
export function figureAgreement(figures: readonly Figure[], stated: readonly Figure[]): -1 | 0 | 1 {
  let conflict = false;
  for (const figure of figures) {
    for (const other of stated) {
      // The same thing: money and money, or the same word around the number (an amount that
      // merely recurs, "£2,500" for a bootcamp and for a bicycle, is a coincidence).
      if (figure.currency !== other.currency) continue;
      if (!figure.words.some((word) => other.words.includes(word))) continue;
      if (other.value === figure.value) return 1;
      conflict = true;
    }
  }
  return conflict ? -1 : 0;
}
