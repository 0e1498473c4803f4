import { acronymTable, spellOutAcronyms } from '../../text/acronyms.js';
import { expandCasual } from '../../text/casual.js';
import { PARTICLES, questionTerms, type QuestionTerm } from '../../text/question-terms.js';
import { adjacentPairs, stem, STOPWORDS, words } from '../../text/text.js';
import { joinPhrasalVerbs, writtenApartAs } from '../../text/compounds.js';
import { ALSO_WRITTEN_AS, DAY_GROUPS, IRREGULAR_STEMS, PLACE_REGIONS } from '../../text/specifics.js';
import { questionFigures, type Figure } from './figures.js';
import { countedStemsOf, perUnitsIn, type SourceUnit } from './prompt-sources.js';

/** One question stem with the weight it carries in matching sentences. */
export interface WeightedTerm {
  stem: string;
  word: string;
  kind: QuestionTerm['kind'] | 'region';
  asking: boolean;
  weight: number;
  /** Found in some unit or heading of the prompt. */
  found: boolean;
  /** The prompt's stems that count as this word: itself, its close forms, compounds ending in it. */
  matches: ReadonlySet<string>;
  /** Reads as a verb ("can I return…"; `QuestionTerm.verbLike`). */
  verbLike?: boolean;
  /** Reads as a verb after the question's subject ("does a filling cost"; `QuestionTerm.verbAfterSubject`): no part of a phrase. */
  verbAfterSubject?: boolean;
  /**
   * The thing a "how many" question counts ("how many days holiday", "how many counselling
   * sessions"), when some unit of the prompt states a number of it: only such a unit holds it.
   */
  counted?: boolean;
  /**
   * For a region word: the forms of the question's places or days it stands for ("london" for
   * "uk", "sunday" for "weekend"). A unit naming one of them is in the region, as much as one
   * naming the region itself: the London row of a table, not only the "Elsewhere in the UK" row.
   */
  places?: ReadonlySet<string>;
}

/** Whether a set of stems holds the term (in any of its matching forms). */
export function holds(stems: ReadonlySet<string>, term: WeightedTerm): boolean {
  for (const form of term.matches) if (stems.has(form)) return true;
  return false;
}

/**
 * Whether a unit's own words hold the term as the question means it: a region where they name a
 * place in it ("London" for "UK"); a thing a "how many" question counts only where they state a
 * number of it ("25 days of annual leave", not "another day off").
 */
export function unitHolds(unit: SourceUnit, term: WeightedTerm): boolean {
  if (term.places && holdsAny(unit.stems, term.places)) return true;
  return holds(term.counted ? countedStemsOf(unit) : unit.stems, term);
}

/**
 * Whether a unit's title and section heading hold the term as the question means it: a region
 * where they name a place in it; never a thing a "how many" question counts (a heading states no
 * number of it).
 */
export function headingHolds(unit: SourceUnit, term: WeightedTerm): boolean {
  if (term.places && holdsAny(unit.contextStems, term.places)) return true;
  return !term.counted && holds(unit.contextStems, term);
}

function holdsAny(stems: ReadonlySet<string>, forms: ReadonlySet<string>): boolean {
  for (const form of forms) if (stems.has(form)) return true;
  return false;
}

/** The question as the answerer matches it: weighted stems and what kind of answer it wants. */
export interface WeightedQuestion {
  terms: WeightedTerm[];
  /** Asks for a figure ("how much", "what's the rate", "how many weeks"). */
  asksQuantity: boolean;
  /** Digits the question itself states ("£2,500", "20 weeks"): a sentence stating them fits it. */
  figures: ReadonlySet<string>;
  /** The question's figures with what they count, for matching sentences' conditions. */
  figureList: Figure[];
  /** Asks two things ("…, and what happens to my holiday?", "both monthly and for furniture"). */
  multiPart: boolean;
  /**
   * Pairs of content words the question puts side by side ("parental leave", "birth parent"), as
   * stems: a sentence holding the same pairs side by side talks about the same thing, where one
   * holding the words apart ("share … weeks of leave … the birth parent's") may not.
   */
  phrases: readonly (readonly [string, string])[];
  /**
   * The units a "how much … per X" question asks a rate in ("per mile", "per night"), as stems
   * (`local-extractive-v33`): a sentence or row stating a figure per that unit ("Rate per business
   * mile: 45p", "£160 per night") states such a rate.
   */
  perUnits: ReadonlySet<string>;
}

/** A question in two parts: joined by "and", "also", "both", "as well as", "plus", or two question marks. */
const MULTI_PART = /\b(?:and|also|both|as well as|plus)\b|\?[^?]+\?/i;

/**
 * How much each kind of word counts. Topic words of the asking clause decide; the scenario's
 * topic words help; specifics (figures, dates, places, people) help pick the right sentence but
 * never decide on their own; words like "OK" or "quickly" barely count. Region words of a place
 * ("Hamburg" → "Europe") count like a specific that policies name.
 */
const KIND_FACTOR = { asking: 1, context: 0.4, specific: 0.45, region: 0.8, generic: 0.1, verb: 0.6 } as const;

/** "How many" and the words after it, up to a stopword: the thing counted is the first plural among them. */
const HOW_MANY = /\bhow many\s+((?:[\p{L}-]+\s*){1,3})/iu;

const QUANTITY = /\b(?:how (?:long|much|many|often|far|soon|old|quickly|fast)|what(?:'s| is| are) the (?:rate|limit|cap|maximum|minimum|most|amount|allowance|deadline|excess)|what time|by when|what date|the most|maximum|minimum|limit|cap|rate|allowance|percentage|per (?:night|mile|head|day|month|year))\b/i;

/**
 * Weigh the question's words against the units in front of the answerer: an inverse document
 * frequency over units (a word in few sentences is distinctive), times the kind of word it is.
 * A topic word of the asking clause that no unit contains weighs as much as the rarest word that
 * is found: it may be exactly what is asked about, and then no sentence answers the question.
 */
export function weighQuestion(question: string, units: readonly SourceUnit[]): WeightedQuestion {
  const heldByUnits = (wordStem: string) => units.some((unit) => unit.stems.has(wordStem) || unit.contextStems.has(wordStem));
  // The question as retrieval read it: chat spellings, acronyms and compounds as the documents write them.
  const casual = expandCasual(question);
  const asRead = joinPhrasalVerbs(withCompoundsWrittenApart(withAcronymsSpelledOut(casual, units), units, heldByUnits), heldByUnits);
  const analysed = questionTerms(asRead.replace(/\bhow (long|much|many|often|far|soon|old)\b/gi, 'how').replace(/\b(what|which) (time|day|date)\b/gi, '$1'));
  const expanded: { term: QuestionTerm | null; stem: string; word: string; kind: WeightedTerm['kind']; asking: boolean; strictlyAsking?: boolean; verbLike?: boolean; verbAfterSubject?: boolean; places?: string[] }[] = [];
  const seen = new Set<string>();
  for (const term of analysed) {
    if (!seen.has(term.stem)) {
      seen.add(term.stem);
      expanded.push({ term, stem: term.stem, word: term.word, kind: term.kind, asking: term.focus, strictlyAsking: term.asking, verbLike: term.verbLike, verbAfterSubject: term.verbAfterSubject });
    }
    for (const region of [...(PLACE_REGIONS.get(term.word) ?? []), ...(DAY_GROUPS.get(term.word) ?? [])]) {
      if (seen.has(region)) {
        // "London or Manchester": the region stands for both.
        expanded.find((entry) => entry.stem === region && entry.kind === 'region')?.places?.push(term.stem);
        continue;
      }
      seen.add(region);
      expanded.push({ term: null, stem: region, word: region, kind: 'region', asking: term.focus, places: [term.stem] });
    }
  }
  const vocabulary = new Set<string>();
  for (const unit of units) for (const set of [unit.stems, unit.contextStems]) for (const item of set) vocabulary.add(item);
  const matchesOf = new Map(expanded.map((entry) => {
    const forms = formsOf(entry.stem, vocabulary, IRREGULAR_STEMS.get(entry.word));
    // A noun's other name in documents ("fine": "penalty", "charge"), for a topic word only.
    if (entry.kind === 'topic') for (const other of ALSO_WRITTEN_AS.get(entry.word) ?? []) for (const form of formsOf(other, vocabulary)) forms.add(form);
    return [entry.stem, forms];
  }));
  // Document frequency over the prompt's documents, not its sentences: the document that answers
  // a question tends to repeat its key word ("TOIL" five times in the TOIL section), which must
  // not make that word look common next to a word that one unrelated sentence happens to hold.
  const documents = [...new Set(units.map((unit) => unit.document))];
  const frequency = new Map<string, number>();
  for (const document of documents) {
    const inDocument = units.filter((unit) => unit.document === document);
    for (const entry of expanded) {
      const forms = matchesOf.get(entry.stem)!;
      if (inDocument.some((unit) => [...forms].some((form) => unit.stems.has(form) || unit.contextStems.has(form)))) frequency.set(entry.stem, (frequency.get(entry.stem) ?? 0) + 1);
    }
  }
  const idf = (count: number) => Math.log(1 + documents.length / (1 + count));
  const foundWeights = [...frequency.values()].map(idf);
  const rarest = foundWeights.length === 0 ? 1 : Math.max(...foundWeights);
  const terms: WeightedTerm[] = expanded.map((entry) => {
    const count = frequency.get(entry.stem) ?? 0;
    // A verb ("can I build up…") says less about the topic than a noun; it still counts.
    const factor = (entry.kind === 'topic' ? (entry.asking ? KIND_FACTOR.asking : KIND_FACTOR.context) : KIND_FACTOR[entry.kind]) * (entry.verbLike ? KIND_FACTOR.verb : 1);
    const found = count > 0;
    // Missing specifics and regions are details the documents need not repeat; a missing noun of
    // the asking clause itself is what may make the question unanswerable. A missing verb ("can I
    // reply?", "when does breakfast finish?") or scenario word ("a dodgy-looking email…") is more often the asker's own wording.
    // An adverb particle ("how far ahead…") never makes it unanswerable by being missing (2026-12-05).
    // (Not every form word: "old" in "my 9 yr old" names the child.)
    const missingMatters = entry.kind === 'topic' && entry.strictlyAsking && !entry.verbLike && !entry.verbAfterSubject && !PARTICLES.has(entry.word);
    const weight = found ? idf(count) * factor : missingMatters ? rarest * factor : 0;
    const places = entry.places?.flatMap((place) => [...(matchesOf.get(place) ?? [])]);
    return { stem: entry.stem, word: entry.word, kind: entry.kind, asking: entry.asking, weight, found, matches: matchesOf.get(entry.stem)!, ...(entry.verbLike ? { verbLike: true } : {}), ...(entry.verbAfterSubject ? { verbAfterSubject: true } : {}), ...(places ? { places: new Set(places) } : {}) };
  });
  // What a "how many" question counts is held only where a number of it is stated, once some unit
  // states one: "days" of "how many days holiday" is then not held by "another day off" (v26).
  const countedStem = countedNoun(asRead);
  const countedTerm = terms.find((term) => term.stem === countedStem && units.some((unit) => holds(countedStemsOf(unit), term)));
  if (countedTerm) countedTerm.counted = true;
  const figures = new Set(analysed.filter((term) => /^\d/.test(term.word)).map((term) => term.word));
  return {
    terms: terms.filter((term) => term.weight > 0),
    asksQuantity: QUANTITY.test(question),
    figures,
    figureList: questionFigures(casual),
    multiPart: MULTI_PART.test(question),
    phrases: adjacentPairs(question),
    perUnits: QUANTITY.test(question) ? perUnitsIn(casual) : new Set(),
  };
}

/**
 * The stem of the thing a "how many" question counts: the first plural among the words after
 * "how many", before a stopword ("how many days holiday": `dai`; "how many paid volunteering
 * days": `dai`), or `null`.
 */
function countedNoun(question: string): string | null {
  const after = HOW_MANY.exec(question)?.[1];
  if (after === undefined) return null;
  for (const word of words(after)) {
    if (STOPWORDS.has(word)) break;
    if (/(?:[^su]s|ies)$/.test(word)) return stem(word);
  }
  return null;
}

/**
 * The question with each acronym its documents do not hold replaced by the words they spell it
 * out with (`acronymTable`: "SPL" → "shared parental leave"), as retrieval read it.
 */
function withAcronymsSpelledOut(question: string, units: readonly SourceUnit[]): string {
  return spellOutAcronyms(question, {
    written: (keys) => new Set(keys.filter((key) => units.some((unit) => unit.stems.has(stem(key)) || unit.contextStems.has(stem(key))))),
    spellings: () => {
      const documents = new Map<SourceUnit['document'], string[]>();
      for (const unit of units) documents.set(unit.document, [...(documents.get(unit.document) ?? []), unit.text]);
      return acronymTable([...documents].map(([document, texts]) => ({ heading: document.section, text: texts.join(' ') })));
    },
  });
}

/**
 * The question with each closed compound that no unit holds, but some unit writes apart, written
 * apart as that unit does ("when's payday?": "when's pay day?" for "on the normal pay day"), as
 * retrieval searched it (`withCloseForms`) (2026-12-05).
 */
function withCompoundsWrittenApart(question: string, units: readonly SourceUnit[], held: (wordStem: string) => boolean): string {
  return question.replace(/\p{L}{4,}/gu, (word) => {
    if (held(stem(word.toLowerCase()))) return word;
    for (const unit of units) {
      const parts = writtenApartAs(word, `${unit.document.section}\n${unit.text}`);
      if (parts !== null) return parts.join(' ');
    }
    return word;
  });
}

/**
 * The stems of `vocabulary` that count as `stem`: itself; a close form (the same first five
 * letters, at most two letters longer or shorter: "nightli" for "night"); a compound ending in it
 * ("bicycl" for "cycl", "motorcycl" for "cycl").
 */
function formsOf(stem: string, vocabulary: ReadonlySet<string>, irregular?: string): Set<string> {
  const forms = new Set([stem, ...(irregular ? [irregular] : [])]);
  if (/^\d/.test(stem)) return forms;
  for (const candidate of vocabulary) {
    if (candidate === stem || /^\d/.test(candidate)) continue;
    const close = stem.length >= 5 && candidate.length >= 5 && candidate.slice(0, 5) === stem.slice(0, 5) && Math.abs(candidate.length - stem.length) <= 2;
    const compound = stem.length >= 4 && candidate.endsWith(stem) && candidate.length - stem.length <= 5;
    // "fulli" for "full": the word with an ending the stemmer kept.
    const ending = candidate.length >= 4 && stem.startsWith(candidate) && stem.length - candidate.length <= 2;
    // "scanner" for "scan", "printer" for "print", "driver" for "drive": the one who does it, or the machine (2026-12-05).
    const agent = stem.length >= 3 && /^[a-z]+$/.test(stem) && (candidate === `${stem}er` || candidate === `${stem}${stem.at(-1)}er` || (stem.endsWith('e') && candidate === `${stem}r`));
    if (close || compound || ending || agent) forms.add(candidate);
  }
  return forms;
}
