import { questionTerms, type QuestionTerm } from '../../text/question-terms.js';
import { PLACE_REGIONS } from '../../text/specifics.js';
import type { SourceUnit } from './prompt-sources.js';

/** One question stem with the weight it carries in matching sentences. */
export interface WeightedTerm {
  stem: string;
  word: string;
  kind: QuestionTerm['kind'] | 'region';
  asking: boolean;
  weight: number;
  /** Found in some unit or heading of the prompt. */
  found: boolean;
}

/** The question as the answerer matches it: weighted stems and what kind of answer it wants. */
export interface WeightedQuestion {
  terms: WeightedTerm[];
  /** Asks for a figure ("how much", "what's the rate", "how many weeks"). */
  asksQuantity: boolean;
  /** Digits the question itself states ("£2,500", "20 weeks"): a sentence stating them fits it. */
  figures: ReadonlySet<string>;
}

/**
 * How much each kind of word counts. Topic words of the asking clause decide; the scenario's
 * topic words help; specifics (figures, dates, places, people) help pick the right sentence but
 * never decide on their own; words like "OK" or "quickly" barely count. Region words of a place
 * ("Hamburg" → "Europe") count like a specific that policies name.
 */
const KIND_FACTOR = { asking: 1, context: 0.7, specific: 0.45, region: 0.8, generic: 0.1 } as const;

const QUANTITY = /\b(?:how (?:long|much|many|often|far|soon|old|quickly|fast)|what(?:'s| is| are) the (?:rate|limit|cap|maximum|minimum|most|amount|allowance|deadline|excess)|the most|maximum|minimum|limit|cap|rate|allowance|percentage|per (?:night|mile|head|day|month|year))\b/i;

/**
 * Weigh the question's words against the units in front of the answerer: an inverse document
 * frequency over units (a word in few sentences is distinctive), times the kind of word it is.
 * A topic word of the asking clause that no unit contains weighs as much as the rarest word that
 * is found: it may be exactly what is asked about, and then no sentence answers the question.
 */
export function weighQuestion(question: string, units: readonly SourceUnit[]): WeightedQuestion {
  const analysed = questionTerms(question.replace(/\bhow (long|much|many|often|far|soon|old)\b/gi, 'how'));
  const expanded: { term: QuestionTerm | null; stem: string; word: string; kind: WeightedTerm['kind']; asking: boolean }[] = [];
  const seen = new Set<string>();
  for (const term of analysed) {
    if (!seen.has(term.stem)) {
      seen.add(term.stem);
      expanded.push({ term, stem: term.stem, word: term.word, kind: term.kind, asking: term.asking });
    }
    for (const region of PLACE_REGIONS.get(term.word) ?? []) {
      if (seen.has(region)) continue;
      seen.add(region);
      expanded.push({ term: null, stem: region, word: region, kind: 'region', asking: term.asking });
    }
  }
  const frequency = new Map<string, number>();
  for (const unit of units) {
    for (const entry of expanded) if (unit.stems.has(entry.stem) || unit.contextStems.has(entry.stem)) frequency.set(entry.stem, (frequency.get(entry.stem) ?? 0) + 1);
  }
  const idf = (count: number) => Math.log(1 + units.length / (1 + count));
  const foundWeights = [...frequency.values()].map(idf);
  const rarest = foundWeights.length === 0 ? 1 : Math.max(...foundWeights);
  const terms: WeightedTerm[] = expanded.map((entry) => {
    const count = frequency.get(entry.stem) ?? 0;
    const factor = entry.kind === 'topic' ? (entry.asking ? KIND_FACTOR.asking : KIND_FACTOR.context) : KIND_FACTOR[entry.kind];
    const found = count > 0;
    // Missing specifics and regions are details the documents need not repeat; a missing topic
    // word of the asking clause is what may make the question unanswerable.
    const weight = found ? idf(count) * factor : entry.kind === 'topic' && entry.asking ? rarest * factor : 0;
    return { stem: entry.stem, word: entry.word, kind: entry.kind, asking: entry.asking, weight, found };
  });
  const figures = new Set(analysed.filter((term) => /^\d/.test(term.word)).map((term) => term.word));
  return { terms: terms.filter((term) => term.weight > 0), asksQuantity: QUANTITY.test(question), figures };
}
