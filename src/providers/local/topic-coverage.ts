import type { Source } from './prompt-sources.js';
import { holds, type WeightedQuestion } from './question-weights.js';

/**
 * Share of the question's topic weight (see `weighQuestion`) found in one source: in any of its
 * units or its title and section heading. Specifics, regions and generic words do not count, so
 * a detail the documents never repeat ("Portugal", "£29,250") cannot make a question look
 * uncovered, and a matching detail cannot make an uncovered topic look covered.
 */
export function topicCoverage(question: WeightedQuestion, source: Source): number {
  const topic = question.terms.filter((term) => term.kind === 'topic');
  const total = topic.reduce((sum, term) => sum + term.weight, 0);
  if (total === 0) return 0;
  let covered = 0;
  for (const term of topic) {
    if (source.units.some((unit) => holds(unit.stems, term)) || (source.units[0] !== undefined && holds(source.units[0].contextStems, term))) covered += term.weight;
  }
  return covered / total;
}

/**
 * Whether the documents cover the question's topic at all: some one document holds at least
 * `minCoverage` of its topic weight. A question whose asking clause has no topic word (all
 * specifics: "Is it £80?") counts as covered when any document shares a word with it.
 */
export function coversTopic(question: WeightedQuestion, sources: readonly Source[], minCoverage: number): { covered: boolean; best: number } {
  const hasTopic = question.terms.some((term) => term.kind === 'topic');
  if (!hasTopic) {
    const any = sources.some((source) => source.units.some((unit) => question.terms.some((term) => holds(unit.stems, term))));
    return { covered: any, best: any ? 1 : 0 };
  }
  const best = Math.max(0, ...sources.map((source) => topicCoverage(question, source)));
  return { covered: best >= minCoverage, best };
}
