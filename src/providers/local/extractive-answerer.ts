import { contentStems, STOPWORDS, stem, words } from '../../text/text.js';
import { composeAnswer } from './compose.js';
import { asksForPersonalData } from './guardrail.js';
import type { Source, SourceUnit } from './prompt-sources.js';
import { holds, weighQuestion, type WeightedQuestion, type WeightedTerm } from './question-weights.js';
import { selectUnits } from './sentence-select.js';
import { coversTopic } from './topic-coverage.js';

export interface ExtractiveSettings {
  /** The sentence for "the documents do not cover this". */
  refusal: string;
  /** The sentence for a request for someone's personal or confidential data; `null`: use `refusal`. */
  guardrail: string | null;
  /** Share of the question's topic weight one document must hold before it is answered from. */
  minCoverage: number;
  maxSentences: number;
  wordCap: number;
  /** Cite sources as `(Title, updated date)`. [cite=true] */
  cite?: boolean;
  /** Meaning: each unit's similarity to the question (a sentence encoder's cosine), added to its score. */
  meaning?: ReadonlyMap<SourceUnit, number>;
  /** Weight of `meaning` in a unit's score. [meaningWeight=0.3] */
  meaningWeight?: number;
}

/** An extractive answer and why it is what it is. */
export interface ExtractiveAnswer {
  text: string;
  /** `answered`, `not_covered` (the documents do not cover the question's topic) or `guardrail`. */
  outcome: 'answered' | 'not_covered' | 'guardrail';
}

/**
 * The offline answerer's decision and answer, from the question and the documents of its prompt
 * only: a guardrail refusal for a request for someone's personal data; a refusal when no
 * document covers enough of the question's topic; otherwise sentences quoted verbatim from the
 * documents (see `selectUnits`), cited. Shared by the grounded model and the closed-book memory
 * model, so both answer with the same machinery.
 */
export function answerExtractively(question: string, sources: readonly Source[], settings: ExtractiveSettings): ExtractiveAnswer {
  if (asksForPersonalData(question)) return { text: settings.guardrail ?? settings.refusal, outcome: 'guardrail' };
  const units = sources.flatMap((source) => source.units);
  if (question.trim() === '' || units.length === 0) return { text: settings.refusal, outcome: 'not_covered' };
  const weighted = weighQuestion(question, units);
  if (!coversTopic(weighted, sources, settings.minCoverage).covered) return { text: settings.refusal, outcome: 'not_covered' };
  const picked = selectUnits(weighted, sources, {
    maxSentences: settings.maxSentences,
    relatedShare: 0.8,
    ...(settings.meaning ? { meaning: settings.meaning, meaningWeight: settings.meaningWeight ?? 0.3 } : {}),
  });
  if (picked.length === 0 || wordsApart(question, weighted, picked) || namesSibling(question, weighted, picked)) return { text: settings.refusal, outcome: 'not_covered' };
  return { text: composeAnswer(picked, { wordCap: settings.wordCap, cite: settings.cite ?? true }), outcome: 'answered' };
}

/** How far apart (in content words) two words of a sentence may stand and still be read together. */
const TOGETHER_WINDOW = 3;

/**
 * Whether the answer holds the words of one of the question's phrases ("free lunch", "advance on
 * my salary") only apart (in different sentences, or far apart in one: "lunch-and-learn
 * sessions … free access") and none of its phrases together: it uses the question's words for
 * other things, so it does not answer what is asked.
 */
function wordsApart(question: string, weighted: WeightedQuestion, picked: readonly SourceUnit[]): boolean {
  // Only a question whose whole topic is the phrase (no other topic word, in the asking clause or
  // the scenario before it): other topic words would say which thing it means.
  const asked = new Map(weighted.terms.filter((term) => term.kind === 'topic').map((term) => [term.stem, term]));
  const phrases = questionPhrases(question)
    .filter(([first, second]) => asked.size === 2 && asked.has(first) && asked.has(second))
    .map(([first, second]) => [asked.get(first)!, asked.get(second)!] as const);
  if (phrases.length === 0) return false;
  // A table row states one thing, whatever its column headers put between the words.
  if (picked.some((unit) => unit.kind === 'row' && phrases.some(([first, second]) => holds(unit.stems, first) && holds(unit.stems, second)))) return false;
  const sequences = picked.map((unit) => contentStems(unit.text));
  const together = ([first, second]: readonly [WeightedTerm, WeightedTerm]) => sequences.some((sequence) => {
    const at = (term: WeightedTerm) => sequence.flatMap((item, index) => (term.matches.has(item) ? [index] : []));
    const firstAt = at(first);
    return at(second).some((index) => firstAt.some((other) => Math.abs(other - index) <= TOGETHER_WINDOW));
  });
  if (phrases.some(together)) return false;
  const inAnswer = (term: WeightedTerm) => picked.some((unit) => holds(unit.stems, term));
  return phrases.some(([first, second]) => inAnswer(first) && inAnswer(second));
}

/** Pairs of content words next to each other in the question, at most two stopwords between ("advance on my salary"). */
function questionPhrases(question: string): [string, string][] {
  const pairs: [string, string][] = [];
  let previous: string | null = null;
  let gap = 0;
  for (const word of words(question)) {
    if (STOPWORDS.has(word)) {
      gap += 1;
      continue;
    }
    if (previous !== null && gap <= 2 && !/^\d/.test(word) && !/^\d/.test(previous)) pairs.push([stem(previous), stem(word)]);
    previous = word;
    gap = 0;
  }
  return pairs;
}

/**
 * Whether the answer names a sibling of what is asked: the question's three words in a row ("private
 * dental insurance") stand in the answer with another middle word ("private medical insurance"),
 * and the question's own middle word is in no picked unit. The frame is the same, the thing is not.
 */
function namesSibling(question: string, weighted: WeightedQuestion, picked: readonly SourceUnit[]): boolean {
  const topic = new Map(weighted.terms.filter((term) => term.kind === 'topic').map((term) => [term.stem, term]));
  const tokens = words(question);
  const sequences = picked.map((unit) => contentStems(unit.text));
  for (let index = 0; index + 2 < tokens.length; index++) {
    const triple = tokens.slice(index, index + 3);
    if (triple.some((word) => STOPWORDS.has(word) || /^\d/.test(word))) continue;
    const [first, middle, last] = triple.map((word) => topic.get(stem(word)));
    if (!first || !middle || !last) continue;
    if (picked.some((unit) => holds(unit.stems, middle))) continue;
    const sibling = sequences.some((sequence) => sequence.some((item, at) => at + 2 < sequence.length && first.matches.has(item) && last.matches.has(sequence[at + 2]!) && !middle.matches.has(sequence[at + 1]!)));
    if (sibling) return true;
  }
  return false;
}
