import { composeAnswer } from './compose.js';
import { namesSibling, wordsApart } from './phrase-fit.js';
import { asksForPersonalData } from '../../text/personal-data-request.js';
import type { Source, SourceUnit } from './prompt-sources.js';
import { weighQuestion } from './question-weights.js';
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
