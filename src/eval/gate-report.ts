import type { EvalResults } from './types.js';

/** How often the relevance gate fired in run 1, and at what threshold: what the reports print. */
export interface GateFiring {
  questions: number;
  similarity: number;
  coverage: number;
  /** The similarity threshold the retrievals used (`null` when no question was retrieved). */
  minSimilarity: number | null;
  /** Questions the term-coverage check gated, with the words it found nowhere in the corpus. */
  coverageGated: { questionId: string; mustRefuse: boolean; words: string[] }[];
  /** Gated questions that should have been answered. */
  answerableGated: number;
}

/** Read the gate's decisions off run 1's RAG-on traces. */
export function gateFiring(results: EvalResults): GateFiring {
  const questions = (results.runs[0]?.questions ?? []).filter((question) => question.status === 'ok');
  let similarity = 0;
  let coverage = 0;
  let answerableGated = 0;
  let minSimilarity: number | null = null;
  const coverageGated: GateFiring['coverageGated'] = [];
  for (const question of questions) {
    const summary = question.rag!.trace.retrieval;
    if (!summary) continue;
    minSimilarity ??= summary.minSimilarity;
    if (!summary.gated) continue;
    if (!question.mustRefuse) answerableGated += 1;
    if (summary.gateReason === 'coverage') {
      coverage += 1;
      coverageGated.push({ questionId: question.id, mustRefuse: question.mustRefuse, words: summary.termCoverage?.uncoveredTerms ?? [] });
    } else {
      similarity += 1;
    }
  }
  return { questions: questions.length, similarity, coverage, minSimilarity, coverageGated, answerableGated };
}

/** One line for the terminal. */
export function gateLine(firing: GateFiring): string {
  const threshold = firing.minSimilarity === null ? 'n/a' : String(firing.minSimilarity);
  return (
    `relevance gate: fired on ${firing.similarity + firing.coverage} of ${firing.questions} questions ` +
    `(similarity < ${threshold}: ${firing.similarity}; term coverage: ${firing.coverage}); ${firing.answerableGated} of them answerable`
  );
}

/** The Markdown report's section. */
export function gateSection(firing: GateFiring): string[] {
  const lines = ['## Relevance gate', '', gateLine(firing).replace(/^relevance gate: /, 'The gate '), ''];
  if (firing.coverageGated.length > 0) {
    lines.push('| question | must refuse | words found nowhere in the corpus |', '|---|---|---|');
    for (const entry of firing.coverageGated) lines.push(`| ${entry.questionId} | ${entry.mustRefuse ? 'yes' : '**no**'} | ${entry.words.join(', ')} |`);
    lines.push('');
  }
  return lines;
}
