import type { ConfidenceInterval } from '../metrics/index.js';
import type { EvalResults } from './types.js';

/** Formatting shared by the terminal summary, the Markdown summary and the HTML report. */

/** `0.123` → `12.3%`; `null` → `n/a`. */
export function percent(value: number | null | undefined, digits = 1): string {
  return value === null || value === undefined || Number.isNaN(value) ? 'n/a' : `${(value * 100).toFixed(digits)}%`;
}

/** `0.1234` → `0.123`; `null` → `n/a`. */
export function decimal(value: number | null | undefined, digits = 3): string {
  return value === null || value === undefined || Number.isNaN(value) ? 'n/a' : value.toFixed(digits);
}

/** `[10.2%, 18.4%]`, or `''` when there is no interval. */
export function interval(ci: ConfidenceInterval | null | undefined, asPercent = true): string {
  if (!ci) return '';
  const show = asPercent ? percent : decimal;
  return `[${show(ci.lower)}, ${show(ci.upper)}]`;
}

/** Dollars, or `unknown` when any call's price was unknown (never a made-up 0). */
export function dollars(value: number | null): string {
  if (value === null) return 'unknown';
  return value === 0 ? '$0' : value < 0.01 ? `$${value.toFixed(5)}` : `$${value.toFixed(4)}`;
}

export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** Rates shown as percentages; the rest (mrr, ndcg) as decimals. */
export function isRate(metric: string): boolean {
  return !/^(mrr|ndcg@\d+|contextPrecision|referenceRecall)$/.test(metric);
}

/** The headline metrics, in the order reports show them, with a short label. */
export const HEADLINE_METRICS: readonly { metric: string; label: string; better: 'higher' | 'lower' }[] = [
  { metric: 'correctAnswerRate', label: 'Correct answers (RAG on, answerable)', better: 'higher' },
  { metric: 'rightOutcomeRate', label: 'Right outcome: correct answer, or correct refusal of a must-refuse question (RAG on)', better: 'higher' },
  { metric: 'answerRelevanceRate', label: 'Answer relevance (RAG on, non-refusals)', better: 'higher' },
  { metric: 'offTopicRate', label: 'Off-topic answers (RAG on)', better: 'lower' },
  { metric: 'overRefusalRate', label: 'Over-refusals (RAG on)', better: 'lower' },
  { metric: 'shouldHaveRefusedRate', label: 'Should have refused (RAG on)', better: 'lower' },
  { metric: 'referenceRecall', label: 'Reference-claim recall (RAG on)', better: 'higher' },
  { metric: 'contextPrecision', label: 'Context precision (rank-weighted)', better: 'higher' },
  { metric: 'hallucinationRate', label: 'Hallucination rate (RAG on)', better: 'lower' },
  { metric: 'refusalRate', label: 'Refusal rate on must-refuse questions', better: 'higher' },
  { metric: 'falseRefusalRate', label: 'False refusal rate (answerable)', better: 'lower' },
  { metric: 'recall@5', label: 'Recall@5', better: 'higher' },
  { metric: 'mrr', label: 'MRR', better: 'higher' },
  { metric: 'keywordHitRate', label: 'Keyword hit rate (RAG on)', better: 'higher' },
  { metric: 'pairwiseWinRate', label: 'Pairwise win rate, RAG on vs off', better: 'higher' },
  { metric: 'positionConsistency', label: 'Pairwise position consistency', better: 'higher' },
  { metric: 'judgeErrorRate', label: 'Judge error rate', better: 'lower' },
  { metric: 'noragHallucinationRate', label: 'Hallucination rate (RAG off)', better: 'lower' },
  { metric: 'unrelatedSourceRate', label: 'Answers citing an unrelated document', better: 'lower' },
  { metric: 'noragAnswerRate', label: 'RAG-off answer rate (answerable)', better: 'higher' },
  { metric: 'gateRate', label: 'Relevance gate fired (all questions)', better: 'lower' },
];

export function formatMetric(metric: string, value: number | null | undefined): string {
  return isRate(metric) ? percent(value) : decimal(value);
}

/** A metric's value as `mean` for one run, or `mean (min–max, sd x)` across runs. */
export function formatSpread(results: EvalResults, metric: string): string {
  const spread = results.aggregate[metric];
  if (!spread) return 'n/a';
  const show = (value: number | null) => formatMetric(metric, value);
  if (results.runs.length === 1 || spread.mean === null) return show(spread.mean);
  return `${show(spread.mean)} (${show(spread.min)}–${show(spread.max)}, sd ${spread.sd === null ? 'n/a' : show(spread.sd)})`;
}

/** What answered the questions, for report headers: groundcheck's generator and embedder, or the target. */
export function answeredBy(results: EvalResults): { label: string; value: string }[] {
  if (results.target.kind !== 'groundcheck') return [{ label: 'target', value: results.target.name }];
  return [
    { label: 'generator', value: results.config.generator ?? 'unknown' },
    { label: 'embedder', value: results.config.embedder ?? 'unknown' },
  ];
}

/** A claim judged against the evidence that a person may want to read, with the passage it cites. */
export interface FlaggedClaim {
  run: number;
  questionId: string;
  category: string;
  side: 'rag' | 'norag';
  question: string;
  answer: string;
  claim: string;
  verdict: 'contradicted' | 'absent';
  note: string;
  evidenceId: string | null;
  evidenceText: string | null;
  /** Every passage this answer was judged against, the cited one first. */
  passages: { id: string; text: string }[];
}

/** Every contradicted or absent claim of RAG-on (and, with `includeNorag`, RAG-off) answers. */
export function flaggedClaims(results: EvalResults, options: { includeNorag?: boolean; run?: number } = {}): FlaggedClaim[] {
  const flagged: FlaggedClaim[] = [];
  const runs = options.run === undefined ? results.runs : results.runs.filter((run) => run.run === options.run);
  for (const run of runs) {
    for (const question of run.questions) {
      for (const side of options.includeNorag ? (['rag', 'norag'] as const) : (['rag'] as const)) {
        const judgment = question[side]?.judgment;
        if (!judgment || judgment.status !== 'ok') continue;
        for (const claim of judgment.claims) {
          if (claim.verdict === 'verified') continue;
          const passage = claim.evidenceChunkId ? question.evidence.find((entry) => entry.id === claim.evidenceChunkId) : undefined;
          const judgedAgainst = question[side]!.judgedAgainst;
          const passages = question.evidence
            .filter((entry) => judgedAgainst.includes(entry.id))
            .sort((a, b) => Number(b.id === claim.evidenceChunkId) - Number(a.id === claim.evidenceChunkId))
            .map((entry) => ({ id: entry.id, text: entry.text }));
          flagged.push({
            run: run.run,
            questionId: question.id,
            category: question.category,
            side,
            question: question.question,
            answer: question[side]!.answer,
            claim: claim.text,
            verdict: claim.verdict,
            note: claim.note,
            evidenceId: claim.evidenceChunkId,
            evidenceText: passage?.text ?? null,
            passages,
          });
        }
      }
    }
  }
  return flagged;
}

/** The cache line of a report: hits and misses, `off`, or why nothing went through it. */
export function cacheText(results: EvalResults): string {
  const cache = results.usage.cache;
  if (!cache) return 'cache off';
  if (cache.hits + cache.misses === 0) return 'cache unused (offline models compute their answers; only model calls are cached)';
  return `cache ${cache.hits} hits / ${cache.misses} misses`;
}
