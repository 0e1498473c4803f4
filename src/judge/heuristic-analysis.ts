import { STOPWORDS } from '../providers/local/text.js';
import { findQuantities, isUnitWord, type Quantity } from './heuristic-quantities.js';
import { isCapitalized, tokenize, type Token } from './heuristic-tokens.js';

/** A quantity with the content words around it, used to match it to the right evidence figure. */
export interface QuantityInContext {
  quantity: Quantity;
  context: Set<string>;
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
  quantities: QuantityInContext[];
}

/** Words that turn a statement into its opposite. `unless`/`except` add conditions instead, so they are not here. */
const NEGATORS = new Set(['no', 'not', 'never', 'none', 'nobody', 'nothing', 'neither', 'nor', 'cannot', 'without']);
/** Words that end a negation's scope: a new clause with its own polarity starts. */
const SCOPE_BREAKERS = new Set(['but', 'if', 'unless', 'when', 'because', 'although', 'whereas', 'which', 'who', 'where', 'while', 'except', 'and']);
/** Words that carry no checkable content in an answer or a question. */
const IGNORED = new Set(['yes', 'ok', 'okay', 'sure', 'please', 'thank', 'thanks']);

/**
 * Analyse a text: content stems, names, negation scopes and quantities with their clause context.
 *
 * @example
 * analyze('Training over £1,000 needs no approval').negatedStems // Set { 'approv' }
 */
export function analyze(text: string): Analysis {
  const tokens = tokenize(text);
  const { quantities, consumed } = findQuantities(tokens);
  const isContent = (token: Token, index: number) =>
    token.kind === 'word' &&
    !consumed.has(index) &&
    !STOPWORDS.has(token.lower) &&
    !NEGATORS.has(token.lower) &&
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
  tokens.forEach((token, index) => {
    if (token.kind !== 'word' || !NEGATORS.has(token.lower) || consumed.has(index)) return;
    // "whether or not", "or not": an alternative, not a negation.
    if (token.lower === 'not' && tokens[index - 1]?.lower === 'or') return;
    const forward = scope(tokens, index, 1, isContent);
    const stemsInScope = forward.length > 0 ? forward : scope(tokens, index, -1, isContent);
    for (const stem of stemsInScope) negatedStems.add(stem);
  });

  return {
    stems,
    sequence,
    stemSet: new Set(stems),
    written,
    keyStems,
    negatedStems,
    quantities: quantities.map((quantity) => ({ quantity, context: quantityContext(quantity, quantities, tokens, isContent) })),
  };
}

/** How many content words on each side of a figure describe it. */
const CONTEXT_WORDS = 6;

/**
 * The content stems around a figure: up to six content words on each side, stopping at the next
 * figure of the same kind and, when there is one, at the clause boundary before it (so in "20 weeks
 * at full pay, then up to 19 weeks at the statutory rate" "full pay" describes 20 and "statutory
 * rate" describes 19). Unit words ("weeks") are left out: they are already part of the figure.
 */
function quantityContext(quantity: Quantity, all: readonly Quantity[], tokens: readonly Token[], isContent: (token: Token, index: number) => boolean): Set<string> {
  const kind = (other: Quantity) => (other.kind === 'date' ? 'date' : other.dimension);
  const sameKind = all.filter((other) => other !== quantity && kind(other) === kind(quantity)).map((other) => other.position);
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
  return context;
}

/** Content stems from a negation to the end of its clause (or back to the start, for "X isn't"). */
function scope(tokens: readonly Token[], from: number, step: 1 | -1, isContent: (token: Token, index: number) => boolean): string[] {
  const clause = tokens[from]!.clause;
  const stems: string[] = [];
  for (let index = from + step; index >= 0 && index < tokens.length; index += step) {
    const token = tokens[index]!;
    if (token.clause !== clause) break;
    if (token.kind === 'word' && SCOPE_BREAKERS.has(token.lower)) break;
    if (isContent(token, index)) stems.push(token.stem);
  }
  return stems;
}

/**
 * A name or acronym: written with a capital and not just because it starts the sentence. A
 * sentence-initial word counts when the next word is capitalized too ("Pablo Trapero was…"), and an
 * all-capitals word of two letters or more (VAT, NFL) always counts.
 */
function isName(tokens: readonly Token[], index: number): boolean {
  const token = tokens[index]!;
  if (!isCapitalized(token)) return false;
  if (token.text.length >= 2 && token.text === token.text.toUpperCase() && /\p{L}{2}/u.test(token.text)) return true;
  if (!token.sentenceStart) return true;
  const next = tokens[index + 1];
  return next !== undefined && isCapitalized(next) && !STOPWORDS.has(next.lower);
}
