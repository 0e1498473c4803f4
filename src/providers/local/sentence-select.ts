import { adjacentPairs } from '../../text/text.js';
import { perUnit, perUnitsOf, type Source, type SourceUnit } from './prompt-sources.js';
import { topicCoverage } from './topic-coverage.js';
import { headingHolds, holds, unitHolds, type WeightedQuestion } from './question-weights.js';
import { conditionFit, figureAgreement } from './figures.js';

export interface SelectionSettings {
  /** Most units picked for their own match, before conditions and list items are added. */
  maxSentences: number;
  /**
   * A second document is quoted only when its topic coverage is at least this share of the best
   * document's: two policies that both answer part of the question are both shown, a document
   * that merely shares a word is not.
   */
  relatedShare: number;
  /** Each unit's similarity in meaning to the question, added to its score times `meaningWeight`. */
  meaning?: ReadonlyMap<SourceUnit, number>;
  meaningWeight?: number;
}

interface Scored {
  unit: SourceUnit;
  score: number;
  /** A figure of the question breaks the unit's condition or differs from the figure it states. */
  conflict: boolean;
  /** Share of the question's word pairs the unit holds side by side: picks the best unit among close ones, nothing else. */
  phrase: number;
  /** A figure of the question falls inside one of the unit's conditions ("40 mins" in "30 to 59 minutes"). */
  fits: boolean;
}

/** How much a unit's side-by-side word pairs count when choosing the best unit. */
const PHRASE_WEIGHT = 0.1;

/** The unit's own side-by-side word pairs, as "stem stem" keys. */
const unitPairs = perUnit((unit) => new Set(adjacentPairs(unit.text).map((pair) => pair.join(' '))));

/** How many of the question's word pairs stand side by side in the unit's own text. */
function phrasesIn(unit: SourceUnit, phrases: WeightedQuestion['phrases']): number {
  const pairs = unitPairs(unit);
  return phrases.filter((pair) => pairs.has(pair.join(' '))).length;
}

/** Score of one unit: its own words fully, heading-only words half, a fitting heading, figures (words as the question means them: `unitHolds`, `headingHolds`). */
function scoreUnit(question: WeightedQuestion, unit: SourceUnit, total: number, documentCoverage: number): Scored {
  let own = 0;
  let heading = 0;
  let headingMatches = 0;
  for (const term of question.terms) {
    const inHeading = headingHolds(unit, term);
    if (unitHolds(unit, term)) own += term.weight;
    else if (inHeading) heading += term.weight;
    if (inHeading) headingMatches += 1;
  }
  const headingFit = unit.contextStems.size > 0 ? headingMatches / unit.contextStems.size : 0;
  const hasFigure = /\d/.test(unit.text);
  const figureMatch = [...question.figures].some((figure) => unit.stems.has(figure)) ? 0.1 : 0;
  // Documents come best-first; like a reader, lean a little towards the earlier ones.
  const rankPrior = 0.15 / (1 + unit.document.rank);
  const quantity = question.asksQuantity && hasFigure ? 0.1 : 0;
  // A rate per the unit the question asks it in ("how much per mile": "Rate per business mile: 45p").
  const perUnit = question.perUnits.size > 0 && hasFigure && [...perUnitsOf(unit)].some((unitStem) => question.perUnits.has(unitStem)) ? 0.1 : 0;
  // A sentence that only introduces a list says little until its items are added.
  const listIntro = unit.introducesList ? 0.05 : 0;
  // A figure of the question inside the sentence's condition ("£2,500" in "£1,000 or more") is
  // strong evidence that it is the rule that applies; a condition it breaks, the opposite.
  const fit = conditionFit(question.figureList, unit.conditions);
  const agreement = figureAgreement(question.figureList, unit.figures);
  // Stating the question's own figure for the same thing outweighs another condition in the
  // sentence ("20 weeks …, followed by up to 19 weeks").
  const condition = fit === 1 ? 0.35 : agreement === 1 ? 0.05 : fit === -1 ? -0.5 : agreement === -1 ? -0.2 : 0;
  const conflict = (fit === -1 && agreement !== 1) || (agreement === -1 && fit !== 1);
  // A section's first sentence usually states its rule; the rest qualify it.
  const lead = unit.position === 0 ? 0.05 : 0;
  const phrase = question.phrases.length === 0 ? 0 : phrasesIn(unit, question.phrases) / question.phrases.length;
  const score = lead + (own + 0.8 * heading) / total + 0.3 * headingFit + 0.3 * documentCoverage + rankPrior + quantity + perUnit + figureMatch + listIntro + condition;
  return { unit, score, conflict, phrase, fits: fit === 1 };
}

/**
 * Pick the units that answer the question: the best-scoring unit, close runners-up from its
 * document (a table's matching rows, the sentence with the other half of the answer), and units
 * of related documents that cover parts of the question not yet covered (a question in two
 * parts); then the conditions and exceptions that follow a picked sentence, the sentence a
 * picked one refers back to, and whole lists (the sentence introducing a list and every item).
 * Never a unit of a document that covers little of the question's topic.
 */
export function selectUnits(question: WeightedQuestion, sources: readonly Source[], settings: SelectionSettings): SourceUnit[] {
  const total = question.terms.reduce((sum, term) => sum + term.weight, 0);
  if (total === 0) return [];
  const coverage = new Map(sources.map((source) => [source.document, topicCoverage(question, source)]));
  const scored: Scored[] = sources.flatMap((source) => source.units.map((unit) => {
    const scored = scoreUnit(question, unit, total, coverage.get(source.document) ?? 0);
    return settings.meaning ? { ...scored, score: scored.score + (settings.meaningWeight ?? 0) * (settings.meaning.get(unit) ?? 0) } : scored;
  }));
  scored.sort((a, b) => b.score - a.score || a.unit.document.rank - b.unit.document.rank || a.unit.position - b.unit.position);
  // The best unit: among the close ones, the one holding the question's word pairs side by side
  // ("20 weeks of parental leave" for a question about "parental leave", over "share … weeks of
  // leave" under a heading that says it: stemming makes "parental" and "parent" one word). Only
  // the anchor is chosen so; what joins it is measured against its own score, as before.
  const anchor = (candidate: Scored) => candidate.score + PHRASE_WEIGHT * candidate.phrase;
  const best = scored.reduce<Scored | undefined>((leader, candidate) => (leader === undefined || anchor(candidate) > anchor(leader) ? candidate : leader), undefined);
  if (!best) return [];
  const bestCoverage = coverage.get(best.unit.document) ?? 0;
  const related = (unit: SourceUnit) => {
    if (unit.document === best.unit.document) return true;
    // One question, one document: a second one is quoted only for a question in two parts.
    if (!question.multiPart) return false;
    const share = coverage.get(unit.document) ?? 0;
    // Another document must fit nearly as well as the best one, and hold half of the topic itself.
    return share >= settings.relatedShare * bestCoverage && share >= 0.5;
  };
  // When the best unit is a table row picked out by a detail of the question (a place, a day), the
  // other rows must share that detail: "Manchester" wants the "Elsewhere in the UK" row, not London's.
  const rowDetails = best.unit.kind === 'row' ? question.terms.filter((term) => (term.kind === 'region' || term.kind === 'specific') && holds(best.unit.stems, term)) : [];
  const rowFits = (unit: SourceUnit) => unit.kind !== 'row' || rowDetails.length === 0 || rowDetails.some((term) => holds(unit.stems, term));

  const chosen = new Set<SourceUnit>([best.unit]);
  const covered = new Set(question.terms.filter((term) => holds(best.unit.stems, term) || holds(best.unit.contextStems, term)).map((term) => term.stem));
  const gainOf = (unit: SourceUnit) => {
    let gain = 0;
    for (const term of question.terms) if (!covered.has(term.stem) && (holds(unit.stems, term) || holds(unit.contextStems, term))) gain += term.weight;
    return gain / total;
  };
  while (chosen.size < settings.maxSentences) {
    let pick: Scored | undefined;
    let pickValue = 0;
    for (const candidate of scored) {
      if (chosen.has(candidate.unit) || candidate.conflict || !related(candidate.unit) || !rowFits(candidate.unit)) continue;
      const sameDocument = candidate.unit.document === best.unit.document;
      const runnerUp = candidate.score >= best.score * (sameDocument ? 0.8 : 0.92);
      const gain = gainOf(candidate.unit);
      // New ground must be a topic word of the question in the unit's own words, not only in its
      // heading, and not only a detail ("Manchester" in a sentence about fire alarms).
      const ownGain = question.terms.some((term) => term.kind === 'topic' && !covered.has(term.stem) && holds(candidate.unit.stems, term));
      // A sentence of the same document whose condition holds the question's figure states the rule
      // for that figure ("50% for 30 to 59 minutes" for a train 40 minutes late) (2026-12-05).
      const fitsFigure = sameDocument && candidate.fits && candidate.score >= 0.6 * best.score;
      if (!runnerUp && !fitsFigure && !(gain >= 0.2 && ownGain && candidate.score >= 0.6 * best.score)) continue;
      const value = gain + 0.3 * candidate.score;
      if (value > pickValue) {
        pick = candidate;
        pickValue = value;
      }
    }
    if (!pick) break;
    chosen.add(pick.unit);
    for (const term of question.terms) if (holds(pick.unit.stems, term) || holds(pick.unit.contextStems, term)) covered.add(term.stem);
  }
  return withContext([...chosen], sources);
}

/** Add what a picked unit needs to be read right: its condition, its antecedent, its whole list. */
function withContext(chosen: SourceUnit[], sources: readonly Source[]): SourceUnit[] {
  const result = new Set(chosen);
  const unitsOf = new Map(sources.map((source) => [source.document, source.units]));
  for (const unit of chosen) {
    const units = unitsOf.get(unit.document)!;
    const next = units[unit.position + 1];
    if (unit.kind !== 'row' && next && next.kind === 'sentence' && (next.isCondition || next.refersBack)) result.add(next);
    if (unit.refersBack && unit.position > 0) result.add(units[unit.position - 1]!);
    // A list item is read with the sentence that introduces it and the other items.
    let intro: SourceUnit | undefined;
    if (unit.introducesList) intro = unit;
    else if (unit.kind === 'item') {
      for (let position = unit.position - 1; position >= 0; position--) {
        const before = units[position]!;
        if (before.kind === 'item') continue;
        if (before.introducesList) intro = before;
        break;
      }
    }
    if (intro) {
      result.add(intro);
      for (let position = intro.position + 1; position < units.length && units[position]!.kind === 'item'; position++) result.add(units[position]!);
    }
  }
  return [...result];
}
