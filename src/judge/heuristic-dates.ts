import type { Token } from './heuristic-tokens.js';

/** Dates as the heuristic judge compares them: `1 January 2026` is `2026-01-01`; missing parts are `null`. */

export type Relation = 'agree' | 'disagree' | 'incomparable';

export interface DateQuantity {
  kind: 'date';
  year: number | null;
  month: number | null;
  day: number | null;
  text: string;
  clause: number;
  /** Index of the quantity's number (or first date) token. */
  position: number;
  /** Index of the date's last token. */
  end: number;
  /**
   * A date given as a condition's bound: "before 1 January 2026" (`before`), "from", "since" or
   * "after 1 January 2026" (`after`); `null` for a date as such.
   */
  bound?: DateBound | null;
  /** Whether the bound takes in its own date: "from", "since", "until", "on or before" do; "before", "after", "prior to" do not (v20). */
  inclusive?: boolean;
}

export type DateBound = 'before' | 'after';

/** Words before a date that make it a bound, longest first. */
const BOUND_WORDS: [string[], DateBound, boolean][] = [
  [['on', 'or', 'before'], 'before', true], [['on', 'or', 'after'], 'after', true], [['prior', 'to'], 'before', false],
  [['before'], 'before', false], [['after'], 'after', false], [['from'], 'after', true], [['since'], 'after', true],
  // "which applied until 30 September 2025": an end that takes in its own date (v20).
  [['up', 'to', 'and', 'including'], 'before', true], [['until'], 'before', true], [['till'], 'before', true],
  // "published by 31 May": a deadline, on or before its date (v30).
  [['by'], 'before', true],
];

/** Words after a "from" date that make it the start of a period ("from 1 April to 31 March"), not a bound. */
const PERIOD_END: ReadonlySet<string> = new Set(['to', 'until', 'till', 'through', 'and', '-', '–', '—']);

/** Words after a date that make it a bound taking in its date: "31 May at the latest" is a deadline, as "by 31 May" is (v30). */
const BOUND_WORDS_AFTER: [string[], DateBound][] = [[['at', 'the', 'latest'], 'before'], [['at', 'the', 'earliest'], 'after']];

/**
 * The bound the words around a date make of it (the date spans tokens `index`…`end`), whether it
 * takes in the date itself, and where the date and its bound words end: "before 1 January 2026"
 * is `before`, not inclusive; "from", "since", "on or after 1 January 2026" are `after`, inclusive
 * ("after" is not); "until" and "by" are an inclusive `before` (see {@link DateQuantity.inclusive}),
 * and so is "31 May at the latest" (whose `end` then takes in "at the latest"); a date that starts
 * a period ("from 1 April 2025 to 31 March 2026") is no bound.
 */
export function dateBoundAt(tokens: readonly Token[], index: number, end: number): { bound: DateBound | null; inclusive: boolean; end: number } {
  for (const [words, bound] of BOUND_WORDS_AFTER) {
    if (words.every((word, offset) => tokens[end + 1 + offset]?.lower === word)) return { bound, inclusive: true, end: end + words.length };
  }
  for (const [words, bound, inclusive] of BOUND_WORDS) {
    const start = index - words.length;
    if (start < 0 || !words.every((word, offset) => tokens[start + offset]?.lower === word)) continue;
    if (words[0] === 'from' && PERIOD_END.has(tokens[end + 1]?.lower ?? '')) break;
    return { bound, inclusive, end };
  }
  return { bound: null, inclusive: false, end };
}

const MONTHS: Record<string, number> = {
  january: 1, february: 2, march: 3, april: 4, may: 5, june: 6, july: 7, august: 8, september: 9, october: 10, november: 11, december: 12,
  jan: 1, feb: 2, mar: 3, apr: 4, jun: 6, jul: 7, aug: 8, sep: 9, sept: 9, oct: 10, nov: 11, dec: 12,
};
/** Month names that are also ordinary words count only next to a day or a year. */
const FULL_MONTHS = new Set(['january', 'february', 'march', 'april', 'june', 'july', 'august', 'september', 'october', 'november', 'december']);

/**
 * Full month names with no other everyday sense, read as a month alone in lower case too, as
 * casual answers write them ("the days go up on the intranet each september"; v126): not "march"
 * (a verb), "april", "june" or "august" (names, an adjective), nor "may".
 */
const LOWERCASE_MONTHS: ReadonlySet<string> = new Set([...FULL_MONTHS].filter((month) => !['march', 'april', 'june', 'august'].includes(month)));

/**
 * Abbreviated month names that stand alone as a month when capitalized ("two intakes, Feb and
 * Sept"), as the full names do; not "Jan" (a first name) nor "May" (its own full name).
 */
const MONTH_ABBREVIATIONS = new Set(['feb', 'mar', 'apr', 'jun', 'jul', 'aug', 'sep', 'sept', 'oct', 'nov', 'dec']);

/** The year a date without one is read in: a common year ("29 February" has no yearly meaning). */
const YEARLESS = 2001;

/** Words for the edges of a month: "the end of May" is its last day, "the start of October" its first. */
const MONTH_EDGES: Record<string, 'first' | 'last'> = { end: 'last', start: 'first', beginning: 'first' };

/** The last day of a month (February: 29 in a leap year, 28 when the year is unknown: day 0 of the next month in a common year). */
function lastDayOf(month: number, year: number | null): number {
  return new Date(Date.UTC(year ?? YEARLESS, month, 0)).getUTCDate();
}

/**
 * Read a date starting at `index`: `2026-01-01`, `1 January 2026`, `1st January`, `January 1, 2026`,
 * `January 2026`, a capitalized full month name, "the end of May" / "the start of October 2025"
 * (its last or first day), or a bare year (four digits, not an amount, not followed by a unit:
 * `isFollowedByUnit(index + 1)`). "May" counts only when capitalized or after "end of".
 */
export function readDate(tokens: readonly Token[], index: number, isFollowedByUnit: (from: number) => boolean): { quantity: DateQuantity; end: number } | null {
  const token = tokens[index]!;
  const clause = token.clause;
  if (token.kind === 'isoDate') {
    const [year, month, day] = token.text.split('-').map(Number) as [number, number, number];
    return { quantity: { kind: 'date', year, month, day, text: token.text, clause, position: index, end: index }, end: index };
  }
  const isDay = (t: Token | undefined) => t?.kind === 'number' && t.value !== null && Number.isInteger(t.value) && t.value >= 1 && t.value <= 31 && ['', 'st', 'nd', 'rd', 'th'].includes(t.suffix);
  const isYear = (t: Token | undefined) => t?.kind === 'number' && t.value !== null && /^\d{4}$/.test(t.text) && t.value >= 1000 && t.value <= 2100 && t.suffix === '';
  const monthOf = (t: Token | undefined, strict: boolean) => {
    if (t?.kind !== 'word') return null;
    const month = MONTHS[t.lower];
    if (month === undefined) return null;
    if (strict && t.lower === 'may' && t.text !== 'May') return null;
    return month;
  };
  const text = (from: number, to: number) => tokens.slice(from, to + 1).map((t) => t.text).join(' ').replace(/ ,/g, ',');

  // "the end of May", "the start of October 2025": the month's last or first day (v30).
  const edgeAt = token.lower === 'the' ? index + 1 : index;
  const edge = MONTH_EDGES[tokens[edgeAt]?.lower ?? ''];
  if (edge !== undefined && tokens[edgeAt + 1]?.lower === 'of') {
    const month = monthOf(tokens[edgeAt + 2], false);
    if (month !== null) {
      const year = isYear(tokens[edgeAt + 3]) ? tokens[edgeAt + 3]!.value! : null;
      const end = year !== null ? edgeAt + 3 : edgeAt + 2;
      const day = edge === 'first' ? 1 : lastDayOf(month, year);
      return { quantity: { kind: 'date', year, month, day, text: text(index, end), clause, position: index, end }, end };
    }
  }

  // "the 19th", "the 24th of December", "the 25th of each month": a day of the month by its
  // ordinal after "the" (v92), when what follows is "of" and a month, "of each/every/the month",
  // punctuation, the end, or a joining word ("the 24th, not the Monday", "the 19th so …"); not a
  // noun it counts ("the 3rd floor", "the 2nd time"). Its month is the one named after "of", else
  // none: a day alone agrees with a date on the same day ("19 December").
  const ordinal = tokens[index + 1];
  if (token.lower === 'the' && isDay(ordinal) && ordinal!.suffix !== '') {
    const after = tokens[index + 2];
    const ofMonth = after?.lower === 'of' ? monthOf(tokens[index + 3], false) : null;
    if (ofMonth !== null) {
      const year = isYear(tokens[index + 4]) ? tokens[index + 4]!.value! : null;
      const end = year !== null ? index + 4 : index + 3;
      return { quantity: { kind: 'date', year, month: ofMonth, day: ordinal!.value!, text: text(index, end), clause, position: index, end }, end };
    }
    const eachMonth = after?.lower === 'of' && ['each', 'every', 'the'].includes(tokens[index + 3]?.lower ?? '') && tokens[index + 4]?.lower === 'month';
    if (after === undefined || after.kind !== 'word' || eachMonth || ['and', 'or', 'but', 'so', 'if', 'when', 'unless', 'instead', 'rather', 'not', 'before', 'after'].includes(after.lower)) {
      return { quantity: { kind: 'date', year: null, month: null, day: ordinal!.value!, text: text(index, index + 1), clause, position: index, end: index + 1 }, end: index + 1 };
    }
  }
  // 1 January 2026, 1st January
  if (isDay(token)) {
    const month = monthOf(tokens[index + 1], true);
    if (month !== null) {
      const year = isYear(tokens[index + 2]) ? tokens[index + 2]!.value! : null;
      const end = year !== null ? index + 2 : index + 1;
      return { quantity: { kind: 'date', year, month, day: token.value!, text: text(index, end), clause, position: index, end }, end };
    }
  }
  const month = monthOf(token, true);
  if (month !== null) {
    // January 1, 2026 / January 1 / January 2026 / January
    if (isDay(tokens[index + 1]) && !isYear(tokens[index + 1])) {
      let end = index + 1;
      let year: number | null = null;
      const yearAt = tokens[end + 1]?.text === ',' ? end + 2 : end + 1;
      if (isYear(tokens[yearAt])) {
        year = tokens[yearAt]!.value!;
        end = yearAt;
      }
      return { quantity: { kind: 'date', year, month, day: tokens[index + 1]!.value!, text: text(index, end), clause, position: index, end }, end };
    }
    if (isYear(tokens[index + 1])) {
      return { quantity: { kind: 'date', year: tokens[index + 1]!.value!, month, day: null, text: text(index, index + 1), clause, position: index, end: index + 1 }, end: index + 1 };
    }
    if ((FULL_MONTHS.has(token.lower) || MONTH_ABBREVIATIONS.has(token.lower)) && (token.text !== token.lower || LOWERCASE_MONTHS.has(token.lower))) {
      return { quantity: { kind: 'date', year: null, month, day: null, text: token.text, clause, position: index, end: index }, end: index };
    }
    return null;
  }
  // A bare year: four digits, no separators, not an amount and not followed by a unit.
  if (isYear(token) && !(tokens[index - 1]?.kind === 'symbol') && !isFollowedByUnit(index + 1)) {
    return { quantity: { kind: 'date', year: token.value!, month: null, day: null, text: token.text, clause, position: index, end: index }, end: index };
  }
  return null;
}

/**
 * Dates agree when every field both give (year, month, day) is equal; they are incomparable when
 * they share no field ("31 March" and "2025"). Against an evidence date that is a bound:
 * - a claimed bound the other way disagrees ("from 1 January 2026" is not "before 1 January 2026");
 * - a claimed date with a year agrees when it lies inside the bound ("November 2025" is "before 1
 *   January 2026") and disagrees when it does not; a date equal to the bound agrees, as before, since
 *   claims often leave out the word ("the new rate starts 1 January 2026" for "from 1 January 2026").
 *
 * @example
 * relateDates(date('2026'), date('1 January 2026')) // 'agree'
 * relateDates(date('November 2025'), date('before 1 January 2026')) // 'agree' (the second a bound)
 */
export function relateDates(claim: DateQuantity, evidence: DateQuantity): Relation {
  const fields = relateFields(claim, evidence);
  const claimBound = claim.bound ?? null;
  const evidenceBound = evidence.bound ?? null;
  if (evidenceBound === null) return fields;
  // "from 1 January 2026" is not "before 1 January 2026".
  if (claimBound !== null && claimBound !== evidenceBound) return fields === 'agree' ? 'disagree' : fields;
  if (claimBound !== null && fields === 'disagree') {
    // Two bounds the same way, written with other dates: they agree when they draw the same line
    // ("until 31 March 2025" is "before 1 April 2025", "since 2020" is "after 2019"; v20).
    const claimed = lineOf(claim, claimBound);
    const limit = lineOf(evidence, evidenceBound);
    return claimed !== null && claimed === limit ? 'agree' : 'disagree';
  }
  if (claimBound !== null) return fields;
  if (fields !== 'disagree') return fields;
  // A date inside the condition: "November 2025" is "before 1 January 2026". Two dates without a
  // year are read in one year (v43): "mid-November" is "after 1 October" ("employees who joined
  // after 1 October"), as a policy's yearly dates are meant.
  const sameYear = claim.year === null && evidence.year === null ? YEARLESS : null;
  const span = spanOf(sameYear ? { ...claim, year: sameYear } : claim);
  const limit = spanOf(sameYear ? { ...evidence, year: sameYear } : evidence);
  if (span === null || limit === null) return fields;
  return (evidenceBound === 'before' ? span.last < limit.first : span.first > limit.last) ? 'agree' : 'disagree';
}

function relateFields(claim: DateQuantity, evidence: DateQuantity): Relation {
  let shared = 0;
  for (const field of ['year', 'month', 'day'] as const) {
    if (claim[field] === null || evidence[field] === null) continue;
    shared += 1;
    if (claim[field] !== evidence[field]) return 'disagree';
  }
  return shared > 0 ? 'agree' : 'incomparable';
}

/**
 * The first day a bound lets in ("after") or the last ("before"), as a day number: "before 1 April
 * 2025" and "until 31 March 2025" both end on 31 March 2025.
 */
function lineOf(date: DateQuantity, bound: DateBound): number | null {
  const span = spanOf(date);
  if (span === null) return null;
  if (bound === 'before') return date.inclusive ? span.last : span.first - 1;
  return date.inclusive ? span.first : span.last + 1;
}

/** The days a date covers, as day numbers (`Date.UTC` / day): a year, a month or a day; `null` without a year. */
function spanOf(date: DateQuantity): { first: number; last: number } | null {
  if (date.year === null || (date.month === null && date.day !== null)) return null;
  const day = (year: number, month: number, dayOfMonth: number) => Date.UTC(year, month - 1, dayOfMonth) / 86_400_000;
  if (date.month === null) return { first: day(date.year, 1, 1), last: day(date.year, 12, 31) };
  if (date.day === null) return { first: day(date.year, date.month, 1), last: day(date.year, date.month + 1, 1) - 1 };
  const only = day(date.year, date.month, date.day);
  return { first: only, last: only };
}
