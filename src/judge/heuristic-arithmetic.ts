import type { Analysis, QuantityInContext } from './heuristic-analysis.js';
import { ADDITIVE, MONEY_DIMENSIONS, type NumericQuantity, type Quantity } from './heuristic-quantities.js';
import type { EvidenceUnit } from './heuristic-units.js';

/**
 * Simple arithmetic on the asker's figures (v13). An answer works out what the asker's case comes
 * to ("60 miles minus your 10-mile commute is 50 miles", "£1,500 a year, so you've got £300 left",
 * "50 miles at 45p, so £22.50"): the result is in no sentence, so the figure was `missing` (the
 * claim absent), or it met the figure it was worked from ("£1,500 … £300 left": `disagree`, the
 * claim contradicted). A claimed figure counts as worked out when it is the sum, difference or
 * product of figures the asker gave and figures the evidence states:
 * - every result involves a figure of the question, so sums of the evidence's own figures (which
 *   would match a good share of any answer's figures by chance) are not read as support;
 * - operands are never the answer's own figures: an answer that computes from a figure it made up
 *   gets no support from its result (v12's trial verified "£12.50 each way" from the answer's 25p);
 * - a sum needs a word of adding in the claim ("plus", "total", "in all", "on top", "+"), a
 *   difference a word of taking away ("minus", "less", "left", "remaining", "after", "−"): the
 *   judge cannot tell which the rule calls for, so it takes the answer's word for which it did,
 *   and "35 days left" from 25 days and the asker's 10 is not a difference of them;
 * - a sum or difference needs two figures of one dimension (miles and miles, pounds and pounds; not
 *   bare counts); a product is an amount of money times a count, distance or duration (a rate
 *   times how much), or a percentage of an amount; a difference or sum may be multiplied once
 *   ("50 miles" worked out, then "at 45p" a mile);
 * - a figure the asker gave, restated beside a result worked from it ("50 miles: the 60 miles to
 *   the customer minus your 10-mile commute"), counts as given; restated alone it does not (it is
 *   the asker's premise, which the answer may wrongly confirm: "yes, it's still 16 weeks"), unless
 *   the claim states it as the asker's situation or compares it with a bound it states (v108,
 *   {@link situatedFigure}).
 * A worked-out figure stands in for a figure the sentence does not state, or for one it disagrees
 * with only because that figure is its operand (£300 against the £1,500 it was taken from). Any
 * other disagreement stands, and a worked-out figure never counts as "stated elsewhere" against a
 * contradiction (see `figuresStatedElsewhere` in heuristic-match.ts).
 */
export interface Working {
  /** How the figure was reached, for notes: "60 miles − 10 miles". */
  how: string;
  /** A figure of the question itself, not a result (see above). */
  restated: boolean;
  /** The figures it was worked from. */
  operands: readonly { dimension: string; value: number }[];
}

export interface WorkedFigures {
  /** The ways the figure could have been worked out, results first (empty when none). */
  explain(quantity: Quantity): readonly Working[];
  /**
   * How the claim states the figure, when the question gave it: as the asker's situation ("at 8
   * months you don't meet that yet", "your £80 one") or compared with a bound ({@link situatedFigure}).
   */
  situated(quantity: Quantity): Situated;
}

/** Dimensions a money amount may be multiplied by: it is then a rate per unit of it. */
const PER_UNIT: ReadonlySet<string> = new Set(['count', 'mile', 'km', 'hour', 'day', 'night', 'week', 'month', 'year']);
const ADDING = /(?:\bplus\b|\btotal\b|\bin all\b|\baltogether\b|\bon top\b|\badd(?:s|ed|ing)?\b|\bcombined\b|\+)/i;
const TAKING_AWAY = /(?:\bminus\b|\bless\b|\bleft\b|\bremain(?:s|ing|der)?\b|\bafter\b|\bdeduct(?:s|ed|ing)?\b|\btake away\b|\bsubtract(?:s|ed|ing)?\b|\s[−–-]\s)/i;

interface Value {
  dimension: string;
  value: number;
  how: string;
  operands: readonly { dimension: string; value: number }[];
  restated?: true;
}

export const NO_WORKING: WorkedFigures = { explain: () => [], situated: () => null };

/** Words of dividing (v114): "£29,250 / 1,950", "divided by 1,950", "£29,250 over 1,950". */
const DIVIDING = /(?:\d\s*[\/÷]\s*[£$€]?\d|\bdivided\s+by\b|\bdivide\b|\d\s+over\s+[£$€]?\d)/i;
/** Words of a journey counted both ways (v114): a distance each way, doubled for the round trip. */
export const BOTH_WAYS = String.raw`\b(?:each\s+way|round\s+trip|both\s+ways|there\s+and\s+back|return\s+(?:trip|journey))\b`;
const DOUBLING = new RegExp(BOTH_WAYS, 'i');
/** A multiplier as a word (v114): "double time", "twice your hourly rate", "triple". */
const MULTIPLIER_WORDS: Readonly<Record<string, number>> = { double: 2, twice: 2, triple: 3 };
/** How many steps a chain of working may take (v114): a rate, then its multiple, then the total. */
const MAX_STEPS = 3;

/** What the whole answer gives its claims' arithmetic (v114): its text and every figure it states. */
export interface AnswerWorking {
  text: string;
  /** The question as asked ("how much mileage can I claim each way?"). */
  question: string;
  figures: readonly QuantityInContext[];
}

interface Operations {
  adding: boolean;
  takingAway: boolean;
  dividing: boolean;
  doubling: boolean;
}

/**
 * Multipliers (v114): a count of at most 10 written "N times" ("2 times your hourly rate", its
 * context holds "time") or as a word ("double", "twice"), in the evidence or the answer.
 */
function multipliersOf(entries: readonly QuantityInContext[]): Value[] {
  const values: Value[] = [];
  for (const { quantity, context } of entries) {
    if (quantity.kind !== 'number' || quantity.dimension !== 'count' || quantity.low !== quantity.high) continue;
    const word = MULTIPLIER_WORDS[quantity.text.toLowerCase()];
    const times = /\btimes\b|^\d+(?:\.\d+)?x$/i.test(quantity.text) || context.has('time');
    if (word === undefined && !times) continue;
    if (!(quantity.low > 1 && quantity.low <= 10)) continue;
    if (values.some((value) => close(value.value, quantity.low))) continue;
    values.push({ dimension: 'multiplier', value: quantity.low, how: `${quantity.low} times`, operands: [{ dimension: 'count', value: quantity.low }] });
  }
  return values;
}

/**
 * One step of working: sums and differences, products of a rate and how much, percentages, and
 * (v114) multiples, quotients and doubled journeys. `asked` and `derived` (figures the answer
 * worked out in an earlier step) are the question's side: every result involves one of them.
 */
function combine(asked: readonly Value[], stated: readonly Value[], derived: readonly Value[], operations: Operations, multipliers: readonly Value[], rates: readonly Rate[]): Value[] {
  const ours = [...asked, ...derived];
  const sums: Value[] = [];
  for (const [index, a] of ours.entries()) {
    for (const b of [...ours.slice(index + 1), ...stated]) {
      if (a.dimension !== b.dimension || !ADDITIVE(a.dimension)) continue;
      const operands = [...a.operands, ...b.operands];
      if (operations.adding) sums.push({ dimension: a.dimension, value: a.value + b.value, how: `${a.how} + ${b.how}`, operands });
      if (operations.takingAway && a.value !== b.value) {
        const [high, low] = a.value > b.value ? [a, b] : [b, a];
        sums.push({ dimension: a.dimension, value: high.value - low.value, how: `${high.how} − ${low.how}`, operands });
      }
    }
  }
  // A distance each way, doubled for the journey there and back (v114).
  const doubled: Value[] = operations.doubling
    ? [...ours, ...sums].filter((value) => ADDITIVE(value.dimension) && !MONEY_DIMENSIONS.has(value.dimension)).map((value) => ({ ...value, value: value.value * 2, how: `2 × ${value.how}` }))
    : [];
  // Products: a money amount times how much of something, one side involving the question.
  const products: Value[] = [];
  const pairs: [readonly Value[], readonly Value[]][] = [
    [ours, stated],
    [stated, ours],
    [ours, ours],
    [stated, sums],
    [ours, sums],
    [stated, doubled],
    [ours, doubled],
  ];
  for (const [left, right] of pairs) {
    for (const a of left) {
      for (const b of right) {
        const operands = [...a.operands, ...b.operands];
        if (MONEY_DIMENSIONS.has(a.dimension) && PER_UNIT.has(b.dimension)) products.push({ dimension: a.dimension, value: a.value * b.value, how: `${b.how} at ${a.how}`, operands });
        if (a.dimension === 'percent' && MONEY_DIMENSIONS.has(b.dimension)) products.push({ dimension: b.dimension, value: (a.value * b.value) / 100, how: `${a.how} of ${b.how}`, operands });
      }
    }
  }
  // Multiples and quotients of an amount of money on the question's side (v114): "2 times your
  // hourly rate" of the £15 worked out before; "£29,250 / 1,950" (an amount the asker gave, over a
  // count the evidence states).
  for (const amount of ours.filter((value) => MONEY_DIMENSIONS.has(value.dimension))) {
    for (const multiplier of multipliers) products.push({ dimension: amount.dimension, value: amount.value * multiplier.value, how: `${multiplier.how} ${amount.how}`, operands: [...amount.operands, ...multiplier.operands] });
    if (!operations.dividing) continue;
    for (const divisor of [...stated, ...asked].filter((value) => value.dimension === 'count' && value.value > 1)) {
      products.push({ dimension: amount.dimension, value: amount.value / divisor.value, how: `${amount.how} ÷ ${divisor.how}`, operands: [...amount.operands, ...divisor.operands] });
    }
  }
  // A rate the evidence states per unit of something ("one extra day of annual leave for each
  // completed year"), times how much of it the asker has ("3 years"), and, with a word of adding,
  // on top of a figure of the same kind the evidence states ("25 days … plus one extra day for
  // each completed year": 28 days) (v114).
  for (const rate of rates) {
    for (const amount of ours.filter((value) => value.dimension === rate.per)) {
      const product: Value = { dimension: rate.dimension, value: rate.value * amount.value, how: `${amount.how} at ${rate.how}`, operands: [...amount.operands, { dimension: rate.dimension, value: rate.value }] };
      products.push(product);
      if (!operations.adding) continue;
      for (const base of stated.filter((value) => value.dimension === rate.dimension && ADDITIVE(value.dimension))) {
        products.push({ dimension: rate.dimension, value: base.value + product.value, how: `${base.how} + ${product.how}`, operands: [...base.operands, ...product.operands] });
      }
    }
  }
  return [...sums, ...doubled, ...products];
}

/** A figure stated per unit of something ("one extra day … for each completed year"): `value` of `dimension` per one `per` (v114). */
interface Rate {
  dimension: string;
  per: string;
  value: number;
  how: string;
}

/** After a figure, the unit it is given per: "for each completed year", "per month", "a week" (within 40 characters of the figure, no sentence break). */
const PER_UNIT_AFTER = /^[^.;:!?]{0,40}?\b(?:for\s+(?:each|every)|per|each|every|an?)\s+(?:(?:completed|full|whole|calendar|working)\s+)?(year|month|week|day|hour|mile|night)s?\b/i;

/** Rates the evidence states (v114): a figure of a unit other than money with a unit it is given per, not the same unit. */
function ratesOf(units: readonly EvidenceUnit[]): Rate[] {
  const rates: Rate[] = [];
  for (const unit of units) {
    const lower = unit.text.toLowerCase();
    for (const { quantity } of unit.quantities) {
      if (quantity.kind !== 'number' || quantity.low !== quantity.high || !(quantity.low > 0) || MONEY_DIMENSIONS.has(quantity.dimension) || !ADDITIVE(quantity.dimension)) continue;
      const at = figureIndex(lower, quantity);
      if (at < 0) continue;
      const per = PER_UNIT_AFTER.exec(lower.slice(at + quantity.text.length))?.[1];
      if (per === undefined || per === quantity.dimension) continue;
      rates.push({ dimension: quantity.dimension, per, value: quantity.low, how: `${quantity.text} per ${per}` });
    }
  }
  return rates;
}

/**
 * The figures a claim may have worked out from the question's and the evidence's figures.
 *
 * @example
 * workedFigures(analyze('The site is 60 miles away and my office is 10 miles from home.'), units, 'You claim 50 miles: 60 minus 10.').explain(fiftyMiles)
 * // [{ how: '60 miles − 10 miles', restated: false, operands: [{ dimension: 'mile', value: 60 }, { dimension: 'mile', value: 10 }] }]
 */
export function workedFigures(
  question: Analysis | null,
  units: readonly EvidenceUnit[],
  claimText: string,
  comparisons: readonly ClaimedComparison[] = [],
  answer: AnswerWorking | null = null,
): WorkedFigures {
  const asked = points(question?.quantities.map((entry) => entry.quantity) ?? []);
  if (asked.length === 0) return NO_WORKING;
  let results: Value[];
  if (answer === null) results = workingOf(asked, units, claimText, null);
  else {
    // The same answer, question and evidence give the same working for every claim of the answer.
    const known = answerResults.get(answer);
    results = known !== undefined && known.units === units ? known.results : workingOf(asked, units, answer.text, answer);
    if (known?.units !== units) answerResults.set(answer, { units, results });
  }
  const explain = (quantity: Quantity): readonly Working[] => {
    if (quantity.kind !== 'number' || quantity.low !== quantity.high) return [];
    return results
      .filter((result) => result.dimension === quantity.dimension && close(result.value, quantity.low))
      .map((result) => ({ how: result.how, restated: result.restated === true, operands: result.operands }));
  };
  // Asked once per figure and evidence unit: read once per figure.
  const situatedOf = new Map<Quantity, Situated>();
  const situated = (quantity: Quantity): Situated => {
    let how = situatedOf.get(quantity);
    if (how === undefined) situatedOf.set(quantity, (how = explain(quantity).some((working) => working.restated) ? situatedFigure(claimText, quantity, comparisons) : null));
    return how;
  };
  return { explain, situated };
}

/**
 * The results a text's figures may have been worked out as: from one claim's words (v13), or
 * (`answer` given, v114) from the whole answer's, whose words of adding, taking away, dividing or
 * doubling may stand in any of its sentences ("That's 50 - 15 = 35 miles each way. … so £31.50"),
 * and whose multipliers ("Sundays are double time") are the evidence's ("2 times your hourly
 * rate") or its own.
 */
function workingOf(asked: readonly Value[], units: readonly EvidenceUnit[], text: string, answer: AnswerWorking | null): Value[] {
  const statedEntries = units.flatMap((unit) => unit.quantities);
  const stated = points(statedEntries.map((entry) => entry.quantity));
  const operations: Operations = {
    adding: ADDING.test(text),
    takingAway: TAKING_AWAY.test(text),
    dividing: answer !== null && DIVIDING.test(text),
    doubling: answer !== null && (DOUBLING.test(text) || DOUBLING.test(answer.question)),
  };
  const multipliers = answer === null ? [] : multipliersOf([...statedEntries, ...answer.figures]);
  const rates = answer === null ? [] : ratesOf(units);
  const restated: Value[] = asked.map((value) => ({ ...value, how: `${value.how} (the question's)`, restated: true }));
  return chain(asked, stated, restated, operations, multipliers, rates, answer);
}

/**
 * Every result of the working, step by step (v114): a figure the answer states that is itself
 * worked out ("35 miles each way", "£15 an hour") is an operand of its next step ("70 miles for the
 * round trip", "£30 an hour"), up to three steps: each step is written in the answer, so every
 * value in the chain is one a reader can check.
 */
function chain(
  asked: readonly Value[],
  stated: readonly Value[],
  restated: readonly Value[],
  operations: Operations,
  multipliers: readonly Value[],
  rates: readonly Rate[],
  answer: AnswerWorking | null,
): Value[] {
  let results = [...combine(asked, stated, [], operations, multipliers, rates), ...restated];
  const stepped = answer === null ? [] : points(answer.figures.map((entry) => entry.quantity));
  let derived: Value[] = [];
  for (let step = 0; step < MAX_STEPS - 1 && stepped.length > 0; step++) {
    const next = stepped.filter(
      (value) =>
        !derived.some((known) => known.dimension === value.dimension && close(known.value, value.value)) &&
        results.some((result) => result.restated !== true && result.dimension === value.dimension && close(result.value, value.value)),
    );
    if (next.length === 0) break;
    derived = [
      ...derived,
      ...next.map((value) => {
        const result = results.find((candidate) => candidate.restated !== true && candidate.dimension === value.dimension && close(candidate.value, value.value))!;
        return { ...value, how: `${value.how} (${result.how})`, operands: result.operands };
      }),
    ];
    results = [...combine(asked, stated, derived, operations, multipliers, rates), ...restated];
  }
  return results;
}

/** The working of an answer, computed once for all its claims (the same answer, question and evidence give the same results). */
const answerResults = new WeakMap<AnswerWorking, { units: readonly EvidenceUnit[]; results: Value[] }>();

/**
 * How a claim states a figure the question gave, as the asker's own (v108): in words of their
 * situation ("at 8 months you don't meet that yet"), or compared with a bound it states ("£80 is
 * over the £50 you can give without approval"); `null` when neither, or not the question's figure.
 */
export type Situated = 'situation' | 'comparison' | null;

/**
 * Words right before a figure that make it the asker's situation in a claim (v108): "at 8 months"
 * and "with 3 completed years" opening the clause (not "paid at 40p a mile", a rate the rules
 * set), "your £80 one", "those 3 days", "you're only 3 weeks in", "you've
 * been off 2 months", and a figure in a clause opening "if you" ("If you put in 6%, the company
 * puts in 8%"). Not "you get", "you can take", "you're entitled to": there the claim states what
 * the rules give, which is what a confirmed premise ("Yes, you get 16 weeks") looks like.
 */
const SITUATED_BEFORE =
  /(?:^\s*(?:(?:and|but|so|yes|no|since|because|as)\s+)?(?:at|with)|\b(?:those|these|your|yours\s+(?:is|are|was))|\byou(?:'re|\s+are)(?:\s+only|\s+just)?|\byou(?:'ve|\s+have)\s+been(?:\s+\w+){0,2})\s+(?:(?:about|around|roughly|only|just|nearly|almost|over|under|a|an|the)\s+)*$/i;
const IF_YOU = /(?:^|\s)if\s+you\b/i;
/** Between a figure and the bound it is compared with: "£80 is over the £50", "£18k, it's well over the £5,000". */
const COMPARED_WITH = /^(?:\s+\S+){0,3}?\s*(?:\bis|\bare|\bwas|\bwere|'s)\s+(?:(?:way|well|far|still|just|already|clearly|comfortably)\s+)?$/i;

export interface ClaimedComparison {
  figure: NumericQuantity;
  bound: NumericQuantity;
  /** Whether the figure lies within the bound. */
  holds: boolean;
}

/**
 * Comparisons a claim makes between two of its own figures (v108): a single figure, then "is",
 * then a bound of the same dimension ("£80 is over the £50 limit", "3 weeks is more than 14
 * days" is not one: weeks and days are compared as the evidence's figures are, see `relate`).
 * Whether it holds is arithmetic, whatever the evidence says: "£80 is under the £50 limit" is
 * false even where "£80" and "up to £50" each agree with a sentence.
 */
export function claimedComparisons(claimText: string, claimed: readonly Quantity[]): ClaimedComparison[] {
  const lower = claimText.toLowerCase();
  const comparisons: ClaimedComparison[] = [];
  for (const figure of claimed) {
    if (figure.kind !== 'number' || figure.low !== figure.high) continue;
    const at = figureIndex(lower, figure);
    if (at < 0) continue;
    const end = at + figure.text.length;
    for (const bound of claimed) {
      if (bound === figure || bound.kind !== 'number' || bound.dimension !== figure.dimension) continue;
      if (Number.isFinite(bound.low) && Number.isFinite(bound.high)) continue;
      const start = figureIndex(lower, bound, end);
      if (start < 0 || !COMPARED_WITH.test(claimText.slice(end, start))) continue;
      comparisons.push({ figure, bound, holds: within(figure.low, bound) });
    }
  }
  return comparisons;
}

/**
 * Whether the claim states a figure of the question as the asker's situation (v108). The words
 * before it in its own clause ({@link clauseBefore}) decide ({@link SITUATED_BEFORE},
 * {@link IF_YOU}), or one of the claim's comparisons ({@link claimedComparisons}, read once per
 * claim) that holds with the figure on its left ("£80 is over the £50 you can give without
 * approval"). A figure the asker gave, restated as the asker's, needs no sentence of the evidence;
 * restated as what the rules say it still does (`orWorked` in heuristic-match.ts).
 */
export function situatedFigure(claimText: string, figure: Quantity, comparisons: readonly ClaimedComparison[]): Situated {
  const clause = clauseBefore(claimText, figure);
  if (clause === null) return null;
  if (SITUATED_BEFORE.test(clause) || IF_YOU.test(clause)) return 'situation';
  return comparisons.some((comparison) => comparison.figure === figure && comparison.holds) ? 'comparison' : null;
}

/**
 * The words of a figure's clause before it: from the last comma, semicolon, colon, bracket or
 * sentence end before the figure ("…, at 8 months" gives "at "); `null` when the figure is not
 * written in the text as read.
 */
export function clauseBefore(text: string, figure: Quantity): string | null {
  const at = figureIndex(text.toLowerCase(), figure);
  if (at < 0) return null;
  const before = text.slice(0, at);
  return before.slice(Math.max(before.lastIndexOf(','), before.lastIndexOf(';'), before.lastIndexOf(':'), before.lastIndexOf('('), before.search(/[.!?]\s[^.!?]*$/)) + 1);
}

/** Where a figure is written in a text (given in lower case), from `from` on (its first occurrence, as read); -1 when it is not. */
function figureIndex(lowerText: string, figure: Quantity, from = 0): number {
  return lowerText.indexOf(figure.text.toLowerCase(), from);
}

/** Whether a working took `figure` as one of its operands. */
export function workedFrom(working: Working, figure: Quantity): boolean {
  return figure.kind === 'number' && figure.low === figure.high && working.operands.some((operand) => operand.dimension === figure.dimension && close(operand.value, figure.low));
}

function points(quantities: readonly Quantity[]): Value[] {
  return quantities
    .filter((quantity): quantity is NumericQuantity => quantity.kind === 'number' && quantity.low === quantity.high && Number.isFinite(quantity.low) && quantity.low > 0)
    .map((quantity) => ({ dimension: quantity.dimension, value: quantity.low, how: quantity.text, operands: [{ dimension: quantity.dimension, value: quantity.low }] }));
}

/** Whether a value lies in a one-sided bound ("over £50": above 50; "within 5 days": at most 5). */
function within(value: number, bound: NumericQuantity): boolean {
  const aboveLow = bound.lowInclusive ? value >= bound.low : value > bound.low;
  const belowHigh = bound.highInclusive ? value <= bound.high : value < bound.high;
  return aboveLow && belowHigh;
}

function close(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(a), Math.abs(b));
}
