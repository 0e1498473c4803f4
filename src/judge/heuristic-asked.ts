import { findQuantities, MONEY_DIMENSIONS, type Quantity } from './heuristic-quantities.js';
import { tokenize, type Token } from './heuristic-tokens.js';

/**
 * What figure a quantity question asks for, read closer than "some number" (v14; METHODOLOGY.md,
 * "Changes in v14"). A faithful quote of a neighbouring sentence that shares the question's words
 * and holds a number passed answer relevance: "For a round trip of more than 200 miles, book rail"
 * for "What's the mileage rate…?", "a one-off allowance of up to £300" for "How much is the monthly
 * home working allowance?". The question's own wording says which figures cannot answer it.
 */

/** The kind of figure asked for: a rate, a percentage, a length of time, a distance. */
export type AskedMeasure = 'rate' | 'percent' | 'duration' | 'distance';

/** A recurring period the asked amount is for ("monthly", "a year"). */
export type Period = 'day' | 'week' | 'month' | 'year';

export interface AskedFigure {
  /** `null`: any number will do ("how many…", "what's the limit…"). */
  measure: AskedMeasure | null;
  /**
   * "How many days / weeks / hours…" (v112): a number of time units, which a date, a clock time
   * or a day of the month cannot be ("how many days off do I get at Christmas?" is not answered by
   * "pay day is brought forward to 19 December"). "How long" is not: a deadline can answer it.
   */
  timeCount?: boolean;
  /** `null`: the question names no period. */
  period: Period | null;
}

const TIME_UNITS = new Set(['second', 'minute', 'hour', 'day', 'night', 'week', 'month', 'year']);
const DISTANCE_UNITS = new Set(['mile', 'km']);

/**
 * The dimensions that cannot answer each measure: a rate is an amount or a share per something
 * ("45p a mile", "1.5 times", "6%"), never a bare length, time or date; a percentage is no amount,
 * length or distance; a length of time no amount, share or distance; a distance no amount, share
 * or length of time. Counts and bare numbers answer every measure ("twenty", "1.5 times").
 */
function cannotAnswer(measure: AskedMeasure, quantity: Quantity, timeCount = false): boolean {
  if (quantity.kind !== 'number') return measure !== 'duration' || timeCount;
  if (timeCount && (quantity.dimension === 'time' || quantity.dimension === 'ordinal')) return true;
  const dimension = quantity.dimension;
  if (measure === 'rate') return TIME_UNITS.has(dimension) || DISTANCE_UNITS.has(dimension) || dimension === 'time' || dimension === 'ordinal';
  if (measure === 'percent') return MONEY_DIMENSIONS.has(dimension) || TIME_UNITS.has(dimension) || DISTANCE_UNITS.has(dimension);
  if (measure === 'duration') return MONEY_DIMENSIONS.has(dimension) || dimension === 'percent' || DISTANCE_UNITS.has(dimension);
  return MONEY_DIMENSIONS.has(dimension) || dimension === 'percent' || TIME_UNITS.has(dimension);
}

const RATE = /\b(?:what(?:'s| is| are| was)?|how much is) (?:the |my |our |a )?(?:[\p{L}-]+ ){0,2}rates?\b/iu;
const PERCENT = /\b(?:what|which) (?:percentage|per ?cent|share)\b|\bhow many per ?cent\b/i;
/** "How many days…": a length of time asked as a number of units (`timeCount`). */
const TIME_COUNT = /\bhow many (?:seconds|minutes|hours|days|nights|weeks|months|years)\b/i;
const DURATION = /\bhow (?:long|much (?:notice|time|holiday|leave))\b/i;
const DISTANCE = /\bhow (?:far|many (?:miles|km|kilometres|kilometers))\b/i;

/** Words that give an amount's period, in the question or beside an answer's amount. */
const PERIOD_WORDS: [RegExp, Period][] = [
  [/^(?:daily|day|night|nightly)$/, 'day'],
  [/^(?:weekly|week)$/, 'week'],
  [/^(?:monthly|month)$/, 'month'],
  [/^(?:annual|annually|yearly|year|pa)$/, 'year'],
];

function periodOfWord(word: string): Period | null {
  for (const [pattern, period] of PERIOD_WORDS) if (pattern.test(word)) return period;
  return null;
}

/**
 * The period a text names for an amount: "monthly", "annual", "per/each/every month", or "a month"
 * right after a figure ("£30 a month"). Elsewhere "a month" is a length of time ("within a month").
 */
function periodsIn(tokens: readonly Token[], from = 0, to = tokens.length): Period[] {
  const periods: Period[] = [];
  for (let index = Math.max(0, from); index < Math.min(tokens.length, to); index += 1) {
    const token = tokens[index]!;
    if (token.kind !== 'word') continue;
    if (/^(?:daily|nightly|weekly|monthly|annual|annually|yearly)$/.test(token.lower)) periods.push(periodOfWord(token.lower)!);
    else if ((/^(?:per|each|every)$/.test(token.lower) || (/^(?:a|an)$/.test(token.lower) && tokens[index - 1]?.kind === 'number')) && tokens[index + 1]?.kind === 'word') {
      const period = periodOfWord(tokens[index + 1]!.lower);
      if (period !== null) periods.push(period);
    }
  }
  return periods;
}

/** A one-off amount: "a one-off allowance", "a one-time payment", "a lump sum". */
function oneOffIn(tokens: readonly Token[], from: number, to: number): boolean {
  for (let index = Math.max(0, from); index < Math.min(tokens.length, to); index += 1) {
    const word = tokens[index]!.lower;
    const next = tokens[index + 1]?.text === '-' ? tokens[index + 2]?.lower : tokens[index + 1]?.lower;
    if ((word === 'one' && (next === 'off' || next === 'time')) || (word === 'lump' && next === 'sum')) return true;
  }
  return false;
}

/**
 * What figure a question asks for.
 *
 * @example
 * askedFigure("What's the mileage rate if I use my own car?") // { measure: 'rate', period: null }
 * askedFigure('How much is the monthly home working allowance?') // { measure: null, period: 'month' }
 */
export function askedFigure(question: string): AskedFigure {
  const timeCount = TIME_COUNT.test(question);
  const measure: AskedMeasure | null = PERCENT.test(question) ? 'percent' : RATE.test(question) ? 'rate' : DISTANCE.test(question) ? 'distance' : timeCount || DURATION.test(question) ? 'duration' : null;
  const tokens = tokenize(question);
  const periods = [...new Set(periodsIn(tokens))];
  return { measure, period: periods.length === 1 ? periods[0]! : null, ...(measure === 'duration' && timeCount ? { timeCount: true } : {}) };
}

/**
 * Whether an answer's figures can be what the question asks for: some figure of a dimension that
 * can answer the asked measure, and, for a question naming a period, not every amount given for
 * another period or as a one-off (an amount's period: the words of its clause). An answer without
 * figures is left to the other checks.
 *
 * @example
 * answerMeetsAskedFigure({ measure: 'rate', period: null }, 'For a round trip of more than 200 miles, book rail travel.') // false
 * answerMeetsAskedFigure({ measure: 'rate', period: null }, "It's 45p a mile.") // true
 * answerMeetsAskedFigure({ measure: null, period: 'month' }, 'You may claim a one-off allowance of up to £300.') // false
 * answerMeetsAskedFigure({ measure: null, period: 'month' }, "It's £30, which is £360 a year.") // true
 */
export function answerMeetsAskedFigure(asked: AskedFigure, answer: string): boolean {
  const tokens = tokenize(answer);
  const { quantities } = findQuantities(tokens);
  if (quantities.length === 0) return true;
  if (asked.measure !== null && quantities.every((quantity) => cannotAnswer(asked.measure!, quantity, asked.timeCount === true))) return false;
  if (asked.period === null) return true;
  const amounts = quantities.filter((quantity) => quantity.kind === 'number' && MONEY_DIMENSIONS.has(quantity.dimension)) as Extract<Quantity, { kind: 'number' }>[];
  if (amounts.length === 0) return true;
  const elsewhere = amounts.every((amount) => {
    const clause = tokens.map((token, index) => (token.clause === amount.clause ? index : -1)).filter((index) => index >= 0);
    const from = clause[0] ?? amount.position;
    const to = (clause.at(-1) ?? amount.end) + 1;
    const periods = periodsIn(tokens, from, to);
    return oneOffIn(tokens, from, to) || (periods.length > 0 && !periods.includes(asked.period!));
  });
  return !elsewhere;
}
