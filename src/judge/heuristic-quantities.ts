import { dateBoundAt, readDate, relateDates, type DateQuantity, type Relation } from './heuristic-dates.js';
import { UNIT_ABBREVIATIONS, type Token } from './heuristic-tokens.js';
import { STOPWORDS } from '../text/text.js';

/**
 * Numbers, amounts, dates and their ranges, as the heuristic judge compares them. `£1,000`,
 * `1000 pounds` and `£1k` are the same amount; `twenty weeks` is `20 weeks`; `1 January 2026` is
 * `2026-01-01`; "under £1,000" is the range (−∞, 1000) and "£1,000 or more" is [1000, ∞).
 */

export interface NumericQuantity {
  kind: 'number';
  /** `GBP`, `USD`, `EUR`, `percent`, `time` (minutes after midnight), `ordinal`, a time unit (`day`, `week`, `month`, `year`, `hour`, `minute`), a distance unit, or `count`. */
  dimension: string;
  low: number;
  high: number;
  lowInclusive: boolean;
  highInclusive: boolean;
  /** As written, for notes: `less than £1,000`. */
  text: string;
  clause: number;
  /** Index of the quantity's number (or first date) token. */
  position: number;
  /** Index of the quantity's last token (unit and trailing comparator included). */
  end: number;
}

export type { DateQuantity } from './heuristic-dates.js';
export type Quantity = NumericQuantity | DateQuantity;

export type { Relation } from './heuristic-dates.js';

const NUMBER_WORDS: Record<string, number> = {
  zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19,
  twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90, hundred: 100,
};
const TENS = new Set(['twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety']);
const MULTIPLIERS: Record<string, number> = { hundred: 100, thousand: 1_000, million: 1_000_000, billion: 1_000_000_000 };

const UNITS: Record<string, string> = {
  day: 'day', days: 'day', week: 'week', weeks: 'week', month: 'month', months: 'month', year: 'year', years: 'year',
  hour: 'hour', hours: 'hour', minute: 'minute', minutes: 'minute',
  mile: 'mile', miles: 'mile', km: 'km', kilometre: 'km', kilometres: 'km', kilometer: 'km', kilometers: 'km',
  night: 'night', nights: 'night', second: 'second', seconds: 'second', fortnight: 'fortnight', fortnights: 'fortnight',
  ...UNIT_ABBREVIATIONS,
};
const CURRENCY_SYMBOLS: Record<string, string> = { '£': 'GBP', $: 'USD', '€': 'EUR' };
const CURRENCY_WORDS: Record<string, string> = {
  pound: 'GBP', pounds: 'GBP', quid: 'GBP', gbp: 'GBP', dollar: 'USD', dollars: 'USD', usd: 'USD', euro: 'EUR', euros: 'EUR', eur: 'EUR',
};
/** The dimensions of an amount of money (the currencies read above). */
export const MONEY_DIMENSIONS: ReadonlySet<string> = new Set([...Object.values(CURRENCY_SYMBOLS), ...Object.values(CURRENCY_WORDS)]);

/** Whether a word names a unit of time or distance ("weeks", "miles"): part of a figure, not its context. */
export function isUnitWord(lower: string): boolean {
  return UNITS[lower] !== undefined;
}

type Bound = 'below' | 'atMost' | 'above' | 'atLeast';

/** Phrases before a number, longest first. */
const BEFORE: [string[], Bound][] = [
  [['no', 'more', 'than'], 'atMost'], [['not', 'more', 'than'], 'atMost'], [['no', 'later', 'than'], 'atMost'],
  [['no', 'less', 'than'], 'atLeast'], [['not', 'less', 'than'], 'atLeast'], [['no', 'fewer', 'than'], 'atLeast'],
  // v61: "no shorter than 14 characters", "no longer than 4 weeks", "no earlier than 9:00".
  [['no', 'shorter', 'than'], 'atLeast'], [['no', 'longer', 'than'], 'atMost'], [['no', 'earlier', 'than'], 'atLeast'], [['no', 'sooner', 'than'], 'atLeast'],
  [['a', 'maximum', 'of'], 'atMost'], [['a', 'minimum', 'of'], 'atLeast'], [['in', 'excess', 'of'], 'above'],
  // A limit named before its figure: "the maximum is 30 days", "capped at £50", "it tops out at 30", "limited to 20 days".
  [['maximum', 'is'], 'atMost'], [['minimum', 'is'], 'atLeast'], [['max', 'is'], 'atMost'], [['min', 'is'], 'atLeast'],
  [['tops', 'out', 'at'], 'atMost'], [['topping', 'out', 'at'], 'atMost'], [['capped', 'at'], 'atMost'], [['limited', 'to'], 'atMost'],
  [['less', 'than'], 'below'], [['fewer', 'than'], 'below'], [['lower', 'than'], 'below'], [['shorter', 'than'], 'below'],
  [['up', 'to'], 'atMost'], [['at', 'most'], 'atMost'], [['maximum', 'of'], 'atMost'], [['not', 'exceeding'], 'atMost'],
  [['more', 'than'], 'above'], [['greater', 'than'], 'above'], [['longer', 'than'], 'above'], [['higher', 'than'], 'above'],
  [['at', 'least'], 'atLeast'], [['minimum', 'of'], 'atLeast'],
  [['under'], 'below'], [['below'], 'below'], [['within'], 'atMost'], [['maximum'], 'atMost'], [['max'], 'atMost'],
  [['over'], 'above'], [['above'], 'above'], [['exceeding'], 'above'], [['exceeds'], 'above'], [['exceed'], 'above'], [['beyond'], 'above'],
  [['minimum'], 'atLeast'], [['min'], 'atLeast'],
  // "the first 7 calendar days", "your first 10,000 business miles": up to that many (v26).
  [['first'], 'atMost'],
];
/** Phrases after a number (or after its unit). */
const AFTER: [string[], Bound][] = [
  [['or', 'more'], 'atLeast'], [['or', 'over'], 'atLeast'], [['or', 'above'], 'atLeast'], [['or', 'longer'], 'atLeast'], [['or', 'higher'], 'atLeast'],
  [['and', 'above'], 'atLeast'], [['and', 'over'], 'atLeast'], [['or', 'greater'], 'atLeast'],
  [['or', 'less'], 'atMost'], [['or', 'fewer'], 'atMost'], [['or', 'under'], 'atMost'], [['or', 'below'], 'atMost'], [['or', 'shorter'], 'atMost'],
  [['and', 'under'], 'atMost'], [['and', 'below'], 'atMost'],
  // v61: "14 characters minimum", "a week, max", "within an hour at the latest", "£25 tops".
  [['at', 'the', 'latest'], 'atMost'], [['at', 'the', 'most'], 'atMost'], [['at', 'most'], 'atMost'], [['at', 'least'], 'atLeast'],
  [['minimum'], 'atLeast'], [['min'], 'atLeast'], [['maximum'], 'atMost'], [['max'], 'atMost'], [['tops'], 'atMost'],
];
/** Bounds after a number that may follow the thing it counts ("14 characters minimum"), not only the number or its unit. */
const AFTER_NOUN = new Set(['minimum', 'min', 'maximum', 'max', 'tops']);

export interface QuantityScan {
  quantities: Quantity[];
  /** Indices of tokens that belong to a quantity (numbers, currency words, comparators, month names in dates). */
  consumed: Set<number>;
}

/**
 * Find the quantities in a token list.
 *
 * @example
 * findQuantities(tokenize('Training that costs £1,000 or more')).quantities
 * // [{ kind: 'number', dimension: 'GBP', low: 1000, high: Infinity, lowInclusive: true, … }]
 */
export function findQuantities(tokens: readonly Token[]): QuantityScan {
  const quantities: Quantity[] = [];
  const consumed = new Set<number>();
  for (let index = 0; index < tokens.length; index++) {
    if (consumed.has(index)) continue;
    const token = tokens[index]!;
    const date = readDate(tokens, index, (from) => findUnit(tokens, from) !== null || MULTIPLIERS[tokens[from]?.lower ?? ''] !== undefined);
    if (date) {
      const { bound, inclusive, end } = dateBoundAt(tokens, index, date.end);
      quantities.push({ ...date.quantity, bound, inclusive, end });
      for (let at = index; at <= end; at++) consumed.add(at);
      index = end;
      continue;
    }
    if (token.kind === 'time') {
      const [hours, minutes] = token.text.split(':').map(Number) as [number, number];
      const value = hours * 60 + minutes;
      quantities.push({ kind: 'number', dimension: 'time', low: value, high: value, lowInclusive: true, highInclusive: true, text: token.text, clause: token.clause, position: index, end: index });
      consumed.add(index);
      continue;
    }
    const spoken = readSpokenTime(tokens, index);
    if (spoken) {
      const text = tokens.slice(index, spoken.end + 1).map((part) => part.text).join(' ');
      quantities.push({ kind: 'number', dimension: 'time', low: spoken.minutes, high: spoken.minutes, lowInclusive: true, highInclusive: true, text, clause: token.clause, position: index, end: spoken.end });
      for (let at = index; at <= spoken.end; at++) consumed.add(at);
      index = spoken.end;
      continue;
    }
    const number = readNumber(tokens, index);
    if (!number) continue;
    const quantity = toNumeric(tokens, index, number, consumed);
    if (quantity) {
      quantities.push(quantity.quantity);
      index = quantity.end;
    }
  }
  shareSumUnits(quantities, tokens);
  return { quantities, consumed };
}

/** The words and signs that join the terms of a sum or a difference. */
const SUM_LINK = /^(?:[-−–+]|minus|plus|less)$/i;

/**
 * "50 - 15 = 35 miles", "25 + 60 = £85": bare figures joined by + or − into a result (the "=" is no
 * token, so the result follows the last term directly) are of the result's unit (v95). Only a chain
 * of two or more bare counts, each joined by one sign or word, ending in a figure with a unit.
 */
function shareSumUnits(quantities: Quantity[], tokens: readonly Token[]): void {
  let terms: NumericQuantity[] = [];
  for (const quantity of quantities) {
    const previous = terms.at(-1);
    if (quantity.kind !== 'number') {
      terms = [];
      continue;
    }
    const between = previous === undefined ? [] : tokens.slice(previous.end + 1, quantity.position);
    const bare = quantity.dimension === 'count' && quantity.low === quantity.high;
    if (previous !== undefined && between.length === 1 && SUM_LINK.test(between[0]!.text) && bare) {
      terms.push(quantity);
      continue;
    }
    if (previous !== undefined && between.length === 0 && terms.length >= 2 && ADDITIVE(quantity.dimension)) {
      for (const term of terms) term.dimension = quantity.dimension;
    }
    terms = bare ? [quantity] : [];
  }
}

/**
 * Dimensions that are added and subtracted: not times of day, ordinals or ranks ("grade 3"), and not bare counts,
 * which are too many and too small ("grade 3", "2 intakes") for a sum of two of them to mean much (v13).
 */
export const ADDITIVE = (dimension: string) => dimension !== 'time' && dimension !== 'ordinal' && dimension !== 'count' && !dimension.startsWith('label:');

/**
 * Words that number the ranks of a scale ("grade 3", "grades 1 to 4", "level 2"): a number after
 * one is that label's rank, its dimension `label:<word>`, compared only with the same label's
 * numbers (a rank is no count: "2 times your hourly rate" says nothing of "grades 1 to 3").
 */
const LABELS: Readonly<Record<string, string>> = {
  grade: 'grade', grades: 'grade', level: 'level', levels: 'level', band: 'band', bands: 'band', tier: 'tier', tiers: 'tier',
  stage: 'stage', stages: 'stage', step: 'step', steps: 'step', phase: 'phase', phases: 'phase',
};

/** Singular time units a number after which is an ordinal ("day 8" is the 8th day). */
const ORDINAL_AFTER: ReadonlySet<string> = new Set(['day', 'week', 'month']);

interface NumberRead {
  value: number;
  /** Last token of the number (number words may span `twenty - five`). */
  end: number;
  ordinal: boolean;
  isWord: boolean;
}

/**
 * A time of day said the way people say it (v25): "10am", "4 pm", "10.30am", "half past nine",
 * "quarter to ten", "noon", "midday", "9 o'clock". As minutes after midnight, like "09:30"; a
 * clock time without am or pm ("half past nine") is read as the morning's, the working day's.
 */
function readSpokenTime(tokens: readonly Token[], index: number): { minutes: number; end: number } | null {
  const token = tokens[index]!;
  const next = tokens[index + 1];
  if (token.kind === 'word' && (token.lower === 'noon' || token.lower === 'midday')) return { minutes: 12 * 60, end: index };
  // "10am", "10.30am" (one token)
  const joined = token.kind === 'word' ? /^(\d{1,2})(?:[.:](\d{2}))?(am|pm)$/.exec(token.lower) : null;
  if (joined) return clockTime(Number(joined[1]), Number(joined[2] ?? '0'), joined[3]!, index);
  // "10am", "10.30am", "4 pm"
  if (token.kind === 'number' && token.value !== null) {
    const meridiem = /^(?:am|pm)$/i.test(token.suffix) ? token.suffix.toLowerCase() : next?.kind === 'word' && /^(?:am|pm)$/.test(next.lower) ? next.lower : null;
    if (meridiem !== null) {
      const [hoursText, minutesText = '0'] = token.text.replace(/[a-z]+$/i, '').split('.');
      return clockTime(Number(hoursText), Number(minutesText.padEnd(2, '0')), meridiem, meridiem === token.suffix.toLowerCase() ? index : index + 1);
    }
    // "9 o'clock"
    if (next?.kind === 'word' && /^o['’]?clock$/.test(next.lower) && token.value >= 1 && token.value <= 12) return { minutes: token.value * 60, end: index + 1 };
    // "Wednesdays at 11", "on Monday at 9": an hour after a day and "at", with no unit after it (v42).
    // Only 7 to 12 and 13 to 23: "at 2" after a day could be two in the afternoon or the morning.
    const before = tokens[index - 1];
    const day = tokens[index - 2];
    const hour = token.value;
    if (
      token.text === String(hour) && Number.isInteger(hour) && ((hour >= 7 && hour <= 12) || (hour >= 13 && hour <= 23)) &&
      before?.kind === 'word' && before.lower === 'at' && day?.kind === 'word' && WEEKDAY.test(day.lower) &&
      (next === undefined || next.kind !== 'word' || findUnit(tokens, index + 1) === null)
    ) {
      return { minutes: hour * 60, end: index };
    }
    return null;
  }
  // "half past nine", "quarter past 10", "quarter to ten"
  if (token.kind !== 'word' || (token.lower !== 'half' && token.lower !== 'quarter')) return null;
  // "half nine" is half past nine, said the British way (v61), when no unit follows ("half nine-hour days").
  if (token.lower === 'half' && next !== undefined && (next.kind === 'number' || NUMBER_WORDS[next.lower] !== undefined)) {
    const bare = readNumber(tokens, index + 1);
    if (bare === null || !Number.isInteger(bare.value) || bare.value < 1 || bare.value > 12 || bare.ordinal || findUnit(tokens, bare.end + 1) !== null) return null;
    if (next.kind === 'number' && next.suffix !== '') return null;
    return { minutes: bare.value * 60 + 30, end: bare.end };
  }
  if (next?.kind !== 'word' || (next.lower !== 'past' && next.lower !== 'to' && next.lower !== 'after')) return null;
  if (token.lower === 'half' && next.lower !== 'past') return null;
  const hour = tokens[index + 2] ? readNumber(tokens, index + 2) : null;
  if (hour === null || !Number.isInteger(hour.value) || hour.value < 1 || hour.value > 12) return null;
  const offset = token.lower === 'half' ? 30 : 15;
  return { minutes: hour.value * 60 + (next.lower === 'to' ? -offset : offset), end: hour.end };
}

/** A day of the week, singular or plural, in lower case. */
export const WEEKDAY = /^(?:mon|tues|wednes|thurs|fri|satur|sun)days?$/;

function clockTime(hours: number, minutes: number, meridiem: string, end: number): { minutes: number; end: number } | null {
  if (!Number.isInteger(hours) || hours < 1 || hours > 12 || !Number.isInteger(minutes) || minutes > 59) return null;
  return { minutes: ((hours % 12) + (meridiem === 'pm' ? 12 : 0)) * 60 + minutes, end };
}

/** Words for a multiple, as in "paid at double your hourly rate", "twice a year" (v29). */
const MULTIPLE_WORDS: Record<string, number> = { twice: 2, double: 2, triple: 3, treble: 3 };
/**
 * What may follow a multiple word for it to be a multiple of something: "double your rate",
 * "double time", "twice as much"; not "a double room", "double-check", nor a frequency ("twice a
 * year", left unread as before).
 */
const AFTER_MULTIPLE = new Set(['your', 'the', 'their', 'his', 'her', 'my', 'our', 'its', 'that', 'this', 'time', 'pay', 'rate', 'as']);

/**
 * A multiple said in words (v29): "twice"/"double"/"triple" before a determiner or a rate word
 * ("double your hourly rate", "double time", "twice as much"), and "time and a half" (1.5, hyphens
 * or not): the figures "2 times" and "1.5 times" that the evidence writes as numbers.
 */
function multipleWord(tokens: readonly Token[], index: number): NumberRead | null {
  const token = tokens[index]!;
  const word = (at: number) => (tokens[at]?.kind === 'word' ? tokens[at]!.lower : null);
  // "2x your hourly rate", "1.5x" (v61).
  const times = /^(\d+(?:\.\d+)?)x$/.exec(token.lower);
  if (times) return { value: Number(times[1]), end: index, ordinal: false, isWord: true };
  const factor = MULTIPLE_WORDS[token.lower];
  if (factor !== undefined) return AFTER_MULTIPLE.has(word(index + 1) ?? '') ? { value: factor, end: index, ordinal: false, isWord: true } : null;
  if (token.lower !== 'time') return null;
  // "time and a half" or "time-and-a-half"
  const parts: string[] = [];
  let at = index + 1;
  while (parts.length < 3 && at < tokens.length) {
    const next = tokens[at]!;
    if (next.kind === 'punct' && next.text === '-') {
      at += 1;
      continue;
    }
    if (next.kind !== 'word') break;
    parts.push(next.lower);
    at += 1;
  }
  return parts.join(' ') === 'and a half' ? { value: 1.5, end: at - 1, ordinal: false, isWord: true } : null;
}

/** Units "a"/"an" counts one of ("within a week", "in an hour"). */
const ONE_OF = new Set(['day', 'week', 'fortnight', 'month', 'year', 'hour', 'minute']);
/** Words before "a week" that make it a span of time, not a rate ("25 days a year", "once a month"). */
const SPAN_BEFORE = new Set(['within', 'in', 'for', 'after', 'than', 'to', 'least', 'most', 'about', 'around', 'roughly', 'approximately', 'over', 'under', 'max', 'maximum', 'minimum', 'only', 'just', 'nearly', 'almost']);

/** Words that may follow "a week" when it counts one week ("within a week of …", "a week or two", "a week's notice" is read by the apostrophe). */
const ONE_UNIT_FOLLOWERS = new Set(['of', 'or', 'and', 'to', 'before', 'after', 'from', 'in', 'at', 'ahead', 'early', 'earlier', 'later', 'ago', 'max', 'maximum', 'minimum', 'min', 'tops', 'off', 'on', 'is', 'are', 'was', 'will', 'each', 'every', 'then', 's']);
/** Kinds of day written between "a" and "day" ("a working day"). */
const DAY_KINDS = new Set(['working', 'business', 'calendar']);
/** Verbs before "a month" that give the time as a span ("you have a month to reply", "they've got a week"; v126). */
const GIVEN_BEFORE = new Set(['have', 'has', 'got', 'get', 'gets']);
/** "a"/"an" before a unit of time, after a word of span ("within a week", "up to a year", "in an hour"): one of that unit (v61). */
function isOneUnit(tokens: readonly Token[], index: number): boolean {
  const token = tokens[index]!;
  // "within a working day": the kind of day between the article and the unit, as in "1 working day" (v126).
  const unitAt = DAY_KINDS.has(tokens[index + 1]?.lower ?? '') && tokens[index + 2]?.lower === 'day' ? index + 2 : index + 1;
  if ((token.lower !== 'a' && token.lower !== 'an') || !ONE_OF.has(tokens[unitAt]?.lower ?? '')) return false;
  // "a day trip", "a month ticket": the unit describes a noun after it, and counts nothing.
  const next = tokens[unitAt + 1];
  if (next?.kind === 'word' && !ONE_UNIT_FOLLOWERS.has(next.lower)) return false;
  if (SPAN_BEFORE.has(tokens[index - 1]?.lower ?? '')) return true;
  // "you have a month to reply", "they've got a week": what the asker is given (v126).
  if (GIVEN_BEFORE.has(tokens[index - 1]?.lower ?? '')) return true;
  // "A week, max." opening a fragment, with a bound after it.
  const after = tokens[unitAt + 1]?.text === ',' ? unitAt + 2 : unitAt + 1;
  return index === 0 && AFTER_NOUN.has(tokens[after]?.lower ?? '');
}

function readNumber(tokens: readonly Token[], index: number): NumberRead | null {
  const token = tokens[index]!;
  if (token.kind === 'number' && token.value !== null) {
    const ordinal = ['st', 'nd', 'rd', 'th'].includes(token.suffix);
    const read = { value: token.value, end: index, ordinal, isWord: false };
    return token.suffix === '' ? withHalf(tokens, read) : read;
  }
  if (token.kind !== 'word') return null;
  if (isOneUnit(tokens, index)) return { value: 1, end: index, ordinal: false, isWord: true };
  // "a grand" (v92): one thousand pounds, in British speech ("courses under a grand").
  if (token.lower === 'a' && isGrand(tokens, index + 1)) return { value: 1, end: index, ordinal: false, isWord: true };
  // "a hundred", "a thousand" (v96): one of them ("a hundred and twenty quid").
  const nextWord = tokens[index + 1]?.kind === 'word' ? tokens[index + 1]!.lower : '';
  if (token.lower === 'a' && (nextWord === 'hundred' || nextWord === 'thousand')) return withHalf(tokens, hundredsAnd(tokens, { value: nextWord === 'hundred' ? 100 : 1000, end: index + 1, ordinal: false, isWord: true }));
  const multiple = multipleWord(tokens, index);
  if (multiple !== null) return multiple;
  const value = NUMBER_WORDS[token.lower];
  if (value === undefined || token.lower === 'hundred') return null;
  let read: NumberRead = { ...withUnit(tokens, index, value), ordinal: false, isWord: true };
  // "five hundred", "fifteen hundred", "two thousand" (v51; before, "five hundred pounds" read as 5).
  const after = (at: number) => (tokens[at]?.kind === 'word' ? tokens[at]!.lower : '');
  if (Number.isInteger(read.value) && read.value >= 1 && read.value < 100 && after(read.end + 1) === 'hundred') read = hundredsAnd(tokens, { value: read.value * 100, end: read.end + 1, ordinal: false, isWord: true });
  if (Number.isInteger(read.value) && read.value >= 1 && read.value < 1000 && after(read.end + 1) === 'thousand') read = hundredsAnd(tokens, { value: read.value * 1000, end: read.end + 1, ordinal: false, isWord: true });
  return withHalf(tokens, read);
}

/**
 * "… hundred and twenty", "… thousand and five" (v96): the British "and" before the last one to
 * ninety-nine, added to the hundreds or thousands just read. Not "and a half" ({@link withHalf}).
 */
function hundredsAnd(tokens: readonly Token[], read: NumberRead): NumberRead {
  if (tokens[read.end + 1]?.kind !== 'word' || tokens[read.end + 1]!.lower !== 'and') return read;
  const first = tokens[read.end + 2];
  const tens = first?.kind === 'word' ? NUMBER_WORDS[first.lower] : undefined;
  if (tens === undefined || tens < 1 || tens > 90) return read;
  const last = withUnit(tokens, read.end + 2, tens);
  return { value: read.value + last.value, end: last.end, ordinal: false, isWord: true };
}

/** A tens word with the unit after it, "twenty-five" or "twenty five"; any other number word alone. `value`: the word's own. */
function withUnit(tokens: readonly Token[], at: number, value: number): { value: number; end: number } {
  if (!TENS.has(tokens[at]!.lower)) return { value, end: at };
  const unitAt = tokens[at + 1]?.text === '-' ? at + 2 : at + 1;
  const unit = NUMBER_WORDS[tokens[unitAt]?.lower ?? ''];
  return unit !== undefined && unit > 0 && unit < 10 ? { value: value + unit, end: unitAt } : { value, end: at };
}

/** Nouns "grand" is an adjective of ("a grand total", "a grand day out"): then it is no amount. */
const GRAND_NOUNS = new Set(['total', 'day', 'days', 'old', 'tour', 'prix', 'piano', 'jury', 'slam', 'opening', 'scale', 'design', 'scheme', 'plan', 'finale', 'canyon', 'national', 'central', 'hotel', 'theft', 'master', 'prize', 'gesture', 'entrance', 'style', 'time', 'union', 'duke', 'duchy', 'father', 'mother', 'son', 'daughter', 'child', 'children', 'champion', 'final', 'finals', 'staircase', 'hall', 'ballroom', 'idea', 'ideas', 'vision', 'strategy', 'event', 'celebration']);

/** Whether the token at `at` is "grand" as an amount of money ("a grand", "2 grand a year"), not an adjective ({@link GRAND_NOUNS}). */
function isGrand(tokens: readonly Token[], at: number): boolean {
  if (tokens[at]?.kind !== 'word' || tokens[at]!.lower !== 'grand') return false;
  const next = tokens[at + 1];
  return next?.kind !== 'word' || !GRAND_NOUNS.has(next.lower);
}

/** "thirty-seven and a half", "37 and a half hours": the number plus a half (v64). */
function withHalf(tokens: readonly Token[], read: NumberRead): NumberRead {
  const word = (at: number) => (tokens[at]?.kind === 'word' ? tokens[at]!.lower : '');
  if (!Number.isInteger(read.value) || read.ordinal || word(read.end + 1) !== 'and' || word(read.end + 2) !== 'a' || word(read.end + 3) !== 'half') return read;
  return { ...read, value: read.value + 0.5, end: read.end + 3 };
}

function toNumeric(tokens: readonly Token[], index: number, number: NumberRead, consumed: Set<number>): { quantity: NumericQuantity; end: number } | null {
  const token = tokens[index]!;
  let value = number.value;
  let end = number.end;
  let start = index;
  let dimension: string | null = null;

  const before = tokens[index - 1];
  if (before?.kind === 'symbol' && CURRENCY_SYMBOLS[before.text]) {
    dimension = CURRENCY_SYMBOLS[before.text]!;
    start = index - 1;
  } else if (before?.kind === 'word' && CURRENCY_WORDS[before.lower] && /^[A-Z]{3}$/.test(before.text)) {
    dimension = CURRENCY_WORDS[before.lower]!;
    start = index - 1;
  }
  if (token.suffix === 'p' && dimension === null) dimension = 'GBP';
  if (token.suffix === '%') dimension = 'percent';

  // "grade 3", "level 2", "band 4": a number that names a rank on a labelled scale (v13).
  const label = dimension === null && !number.ordinal && token.suffix === '' && Number.isInteger(value) ? (LABELS[tokens[index - 1]?.lower ?? ''] ?? null) : null;
  let high = value;
  let bound: Bound | null = null;
  const boundStart = boundBefore(tokens, start);
  if (boundStart) {
    bound = boundStart.bound;
    start = boundStart.start;
  } else if (tokens[start - 1]?.lower === 'between') {
    const between = readBetween(tokens, end, value);
    if (between) {
      start -= 1;
      high = between.high;
      end = between.end;
    }
  } else {
    // "2 to 5 years", "£50–£100", "10-15%": a range when the second figure carries the unit.
    const link = tokens[end + 1];
    // "rose from £160 to £190" is a change between two figures, not a range.
    const isChange = tokens[start - 1]?.lower === 'from';
    if (link && !isChange && (link.lower === 'to' || link.text === '-' || link.text === '–')) {
      let at = end + 2;
      const symbol = tokens[at]?.kind === 'symbol' && CURRENCY_SYMBOLS[tokens[at]!.text] ? tokens[at]!.text : null;
      if (symbol) at += 1;
      const other = readNumber(tokens, at);
      const otherToken = tokens[at];
      const carriesUnit = symbol !== null || otherToken?.suffix === '%' || (other !== null && findUnit(tokens, other.end + 1) !== null);
      // "grades 1 to 4", "levels 2-3": a range of the label's numbers (v13); before, "grade 3"
      // disagreed with the "1" of "grades 1 to 4".
      const labelled = label !== null && other !== null && !other.isWord && !other.ordinal && Number.isInteger(other.value) && otherToken?.suffix === '' && findUnit(tokens, other.end + 1) === null;
      if (other && other.value > value && (carriesUnit || labelled) && (symbol === null || CURRENCY_SYMBOLS[symbol] === dimension)) {
        high = other.value;
        end = other.end;
        if (otherToken?.suffix === '%') dimension = 'percent';
      }
    }
  }

  // Multipliers: "1.5 million", "2 thousand".
  const multiplier = MULTIPLIERS[tokens[end + 1]?.lower ?? ''];
  if (multiplier !== undefined && !number.isWord) {
    value *= multiplier;
    high *= multiplier;
    end += 1;
  }
  const next = tokens[end + 1];
  if (dimension === null && next?.kind === 'symbol' && next.text === '%') {
    dimension = 'percent';
    end += 1;
  } else if (dimension === null && next?.kind === 'word' && (next.lower === 'percent' || (next.lower === 'per' && tokens[end + 2]?.lower === 'cent'))) {
    dimension = 'percent';
    end += next.lower === 'per' ? 2 : 1;
  } else if (dimension === null && next?.kind === 'word' && CURRENCY_WORDS[next.lower]) {
    dimension = CURRENCY_WORDS[next.lower]!;
    end += 1;
  } else if (dimension === null && isGrand(tokens, end + 1)) {
    // "a grand", "2 grand", "two grand" (v92): thousands of pounds.
    dimension = 'GBP';
    value *= 1000;
    high *= 1000;
    end += 1;
  } else if (dimension === null && next?.kind === 'word' && (next.lower === 'pence' || next.lower === 'penny')) {
    // "24 pence" is "24p" (v60).
    dimension = 'GBP';
    value /= 100;
    high /= 100;
    end += 1;
  }
  let unitEnd = end;
  if (dimension === null && number.ordinal) dimension = 'ordinal';
  // "from day 8", "in week 12": a number after a singular time unit counts it, as "the 8th day" does.
  if (dimension === null && !number.isWord && ORDINAL_AFTER.has(tokens[index - 1]?.lower ?? '') && value >= 1 && value < 100 && Number.isInteger(value)) dimension = 'ordinal';
  if (dimension === null) {
    // "8 or more working days": after a bound written after the number, the unit comes right after
    // the bound, or after a kind of day (v127); "4 and above receive TOIL hour for hour" is a grade,
    // not four hours.
    const trailing = bound === null && high === value ? matchPhrase(tokens, end + 1, AFTER) : null;
    const from = trailing === null ? end + 1 : end + 1 + trailing.length;
    const found = findUnit(tokens, from);
    const unit = trailing === null || (found !== null && (found.index === from || (found.index === from + 1 && DAY_KINDS.has(tokens[from]!.lower)))) ? found : null;
    if (unit) {
      dimension = unit.dimension;
      unitEnd = unit.index;
    }
  }
  if (dimension === null && label !== null) dimension = `label:${label}`;
  // "one" is a number only when it counts something measurable ("one day"), not in "one of the…".
  if (number.isWord && number.value === 1 && (dimension === null || dimension === 'count')) return null;
  dimension ??= 'count';

  let afterEnd = -1;
  // The word counted, between a number and a bound after it ("14 characters minimum"): it stays a content word.
  let counted = -1;
  if (bound === null && high === value) {
    for (const from of [end + 1, unitEnd + 1]) {
      // "a week, max": a comma may stand before the bound.
      const at = tokens[from]?.kind === 'punct' && tokens[from]!.text === ',' && AFTER_NOUN.has(tokens[from + 1]?.lower ?? '') ? from + 1 : from;
      const after = matchPhrase(tokens, at, AFTER);
      if (after) {
        bound = after.bound;
        afterEnd = at + after.length - 1;
        break;
      }
    }
    const noun = Math.max(end, unitEnd) + 1;
    if (bound === null && tokens[noun]?.kind === 'word' && !STOPWORDS.has(tokens[noun]!.lower) && AFTER_NOUN.has(tokens[noun + 1]?.lower ?? '')) {
      bound = matchPhrase(tokens, noun + 1, AFTER)!.bound;
      afterEnd = noun + 1;
      counted = noun;
    }
  } else if (bound !== null) {
    // "within an hour at the latest", "up to £50 max": the bound said twice is one bound.
    const from = Math.max(end, unitEnd) + 1;
    const after = matchPhrase(tokens, from, AFTER);
    if (after && after.bound === bound) afterEnd = from + after.length - 1;
  }
  let low = value;
  let lowInclusive = true;
  let highInclusive = true;
  if (bound === 'below') [low, lowInclusive, highInclusive] = [-Infinity, false, false];
  if (bound === 'atMost') [low, lowInclusive] = [-Infinity, false];
  if (bound === 'above') [high, highInclusive, lowInclusive] = [Infinity, false, false];
  if (bound === 'atLeast') [high, highInclusive] = [Infinity, false];

  const last = Math.max(end, unitEnd, afterEnd);
  // Unit words stay content words ("weeks" is part of what a claim is about); the rest is the quantity.
  for (let at = start; at <= last; at++) {
    if (at > end && at <= unitEnd) continue;
    if (at === counted || (tokens[at]!.kind === 'word' && UNITS[tokens[at]!.lower])) continue;
    consumed.add(at);
  }
  const text = tokens
    .slice(start, last + 1)
    .map((t) => t.text)
    .join(' ')
    .replace(/([£$€]) /g, '$1')
    .replace(/ (%)/g, '$1')
    .replace(/ - /g, '-');
  return { quantity: { kind: 'number', dimension, low, high, lowInclusive, highInclusive, text, clause: token.clause, position: index, end: last }, end: Math.max(end, afterEnd) };
}

/** The unit a number counts: a time, distance or currency word within the next three words. */
function findUnit(tokens: readonly Token[], from: number): { dimension: string; index: number } | null {
  let wordsSeen = 0;
  for (let at = from; at < tokens.length && wordsSeen < 3; at++) {
    const token = tokens[at]!;
    if (token.kind === 'punct' && token.text === '-') continue;
    if (token.kind !== 'word') return null;
    if (UNITS[token.lower]) return { dimension: UNITS[token.lower]!, index: at };
    // "0.9 s": a one-letter unit right after the number.
    if (wordsSeen === 0 && token.lower === 's') return { dimension: 'second', index: at };
    if (CURRENCY_WORDS[token.lower]) return { dimension: CURRENCY_WORDS[token.lower]!, index: at };
    if (NUMBER_WORDS[token.lower] !== undefined) return null;
    wordsSeen += 1;
  }
  return null;
}

function boundBefore(tokens: readonly Token[], start: number): { bound: Bound; start: number } | null {
  for (const [phrase, bound] of BEFORE) {
    for (const skip of [0, 1]) {
      // Allow one "the" between: "under the £1,000 threshold".
      if (skip === 1 && tokens[start - 1]?.lower !== 'the') continue;
      const from = start - skip - phrase.length;
      if (from < 0) continue;
      if (!phrase.every((word, offset) => tokens[from + offset]?.lower === word)) continue;
      // "£29,250 over 1,950": a quotient (v114), not "more than 1,950".
      if (phrase.length === 1 && phrase[0] === 'over' && tokens[from - 1]?.kind === 'number') continue;
      return { bound, start: from };
    }
  }
  return null;
}

function matchPhrase(tokens: readonly Token[], from: number, phrases: [string[], Bound][]): { bound: Bound; length: number } | null {
  for (const [phrase, bound] of phrases) {
    if (phrase.every((word, offset) => tokens[from + offset]?.lower === word)) return { bound, length: phrase.length };
  }
  if (tokens[from]?.text === '+') return { bound: 'atLeast', length: 1 };
  return null;
}

/** "between 12 and 24 months": the second figure of a `between … and …` range. */
function readBetween(tokens: readonly Token[], end: number, low: number): { high: number; end: number } | null {
  if (tokens[end + 1]?.lower !== 'and') return null;
  let at = end + 2;
  if (tokens[at]?.kind === 'symbol') at += 1;
  const other = readNumber(tokens, at);
  if (!other || other.value < low) return null;
  return { high: other.value, end: other.end };
}

/**
 * The same figure: the same dimension and the same number, whatever the bound says of it ("20
 * working days", "up to 20 working days", "limited to 20 working days"); not two ranges that only
 * meet ("at least two working days" and "15 working days").
 */
export function sameFigure(a: Quantity, b: Quantity): boolean {
  if (a.kind !== 'number' || b.kind !== 'number' || a.dimension !== b.dimension) return false;
  const numbers = (quantity: typeof a) => [quantity.low, quantity.high].filter((value) => Number.isFinite(value));
  const [ofA, ofB] = [numbers(a), numbers(b)];
  return ofA.length > 0 && ofA.every((value) => ofB.includes(value)) && ofB.every((value) => ofA.includes(value));
}

/**
 * How a claim's quantity relates to one evidence quantity.
 * - A claimed point agrees with an evidence point when equal; with a condition range ("less than
 *   £1,000", "over £5,000", "at least 26 weeks") when it falls inside (bounds exact: £1,000 is not
 *   "less than £1,000"); with a limit ("up to £300", "within 5 days", "a maximum of 30 days") only
 *   when it is the limit itself: "£31" is not what "up to £300" states.
 * - A claimed range agrees only with the same bound(s) ("over £1,000" with "£1,000 or more";
 *   inclusivity at the bound is not held against it), or with a point equal to its bound ("up to
 *   19 weeks" with "19 weeks").
 * - Dates agree when every field both give (year, month, day) is equal.
 *
 * @example
 * relate(claimQuantity('£2,500'), evidenceQuantity('less than £1,000')) // 'disagree'
 */
export function relate(claim: Quantity, evidence: Quantity): Relation {
  if (claim.kind === 'date' || evidence.kind === 'date') {
    return claim.kind === 'date' && evidence.kind === 'date' ? relateDates(claim, evidence) : 'incomparable';
  }
  if (claim.dimension !== evidence.dimension) {
    // "within 60 minutes" is "within 1 hour" (v52): seconds, minutes and hours convert exactly.
    const clock = unitRatio(CLOCK_SECONDS, claim.dimension, evidence.dimension);
    if (clock !== null) return relate(inUnit(claim, evidence.dimension, clock), evidence);
    // So do calendar days and weeks ("two weeks" is "14 days", v60), but not working days: "10
    // working days" is no number of weeks. They agree only as the same figure ("at least two
    // weeks", "at least 14 days") or its limit ("two weeks ahead"): a number of weeks inside a
    // range of days ("five weeks", "at least 2 days each week") is another thing, not support.
    const calendar = WORKING_DAYS.test(claim.text) || WORKING_DAYS.test(evidence.text) ? null : unitRatio(CALENDAR_DAYS, claim.dimension, evidence.dimension);
    if (calendar === null) return 'incomparable';
    const { low, high } = inUnit(claim, evidence.dimension, calendar);
    const sameBounds = same(low, evidence.low) && same(high, evidence.high);
    const namesLimit = same(low, high) && (same(low, evidence.low) || same(high, evidence.high));
    return sameBounds || namesLimit ? 'agree' : 'incomparable';
  }
  const claimIsPoint = claim.low === claim.high;
  const evidenceIsPoint = evidence.low === evidence.high;
  if (claimIsPoint && evidenceIsPoint) return same(claim.low, evidence.low) ? 'agree' : 'disagree';
  if (claimIsPoint) {
    const isLimit = evidence.low === -Infinity && evidence.highInclusive;
    if (isLimit) return same(claim.low, evidence.high) ? 'agree' : 'disagree';
    return contains(evidence, claim.low) ? 'agree' : 'disagree';
  }
  if (evidenceIsPoint) return same(claim.low, evidence.low) || same(claim.high, evidence.low) ? 'agree' : 'disagree';
  return same(claim.low, evidence.low) && same(claim.high, evidence.high) ? 'agree' : 'disagree';
}

/** How to turn a figure in one unit of the table into another (`[times, over]`), or `null` when the table lacks either. */
function unitRatio(units: Readonly<Record<string, number>>, from: string, to: string): [number, number] | null {
  const [times, over] = [units[from], units[to]];
  return times === undefined || over === undefined ? null : [times, over];
}

/** The figure in the other unit. */
function inUnit(quantity: NumericQuantity, dimension: string, [times, over]: [number, number]): NumericQuantity {
  return { ...quantity, dimension, low: (quantity.low * times) / over, high: (quantity.high * times) / over };
}

/** Seconds in each clock unit, for comparing "60 minutes" with "1 hour". */
const CLOCK_SECONDS: Readonly<Record<string, number>> = { second: 1, minute: 60, hour: 3600 };
/** Days in each calendar unit that converts exactly (not months or years). */
const CALENDAR_DAYS: Readonly<Record<string, number>> = { day: 1, week: 7, fortnight: 14 };
/** Days counted on working days only ("5 working days", "10 business days"): no number of weeks. */
const WORKING_DAYS = /\b(?:working|business|school|office|trading)\b/i;

function same(a: number, b: number): boolean {
  return a === b || Math.abs(a - b) < 1e-9;
}

function contains(range: NumericQuantity, value: number): boolean {
  const epsilon = 1e-9;
  const aboveLow = range.lowInclusive ? value >= range.low - epsilon : value > range.low + epsilon;
  const belowHigh = range.highInclusive ? value <= range.high + epsilon : value < range.high - epsilon;
  return aboveLow && belowHigh;
}
