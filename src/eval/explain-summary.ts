import { EXPLANATION_CRITERIA_KEYS, isExplanationJudgment, type ExplanationCriteria } from '../judge/explanation-criteria.js';
import { noFabrication } from '../judge/pairwise-criteria.js';
import { summarizePairwise, type PairwiseOutcome, type PairwiseSide, type PairwiseSummary } from '../judge/pairwise-protocol.js';
import type { FaithfulnessJudgment } from '../judge/types.js';
import type { FailureResult } from './explain-results.js';
import type { FailureGroup } from './explain-suite.js';

/**
 * The numbers of an explain-errors run, per group (every failure, app-code causes, stack-named
 * causes): the blind pairwise win rate of RAG on over RAG off, each explicit criterion's rate per
 * side, judge errors, the truncation effect, and how the judge's evidence changes the
 * fabrication verdict. METHODOLOGY.md ("Explaining errors") defines each one.
 */

export type CriteriaRates = Record<keyof ExplanationCriteria, number | null>;

export interface GroupSummary {
  /** Failures run to the end (with both explanations). */
  failures: number;
  /** Failures that could not be run (the app did not fail, a model call failed). */
  notRun: number;
  pairwise: PairwiseSummary;
  /** Per criterion: the mean over failures of the share of successful trials in which the side met it. */
  rag: CriteriaRates;
  norag: CriteriaRates;
  /** RAG off's fix-location rate with each truncation, from the app-frames-against-tail comparison. */
  truncation: { noragAppFrames: number | null; noragTail: number | null; rag: number | null; leadWithAppFrames: number | null; leadWithTail: number | null };
  /** Share of RAG-on explanations with no fabrication, by what the claim judge was shown. */
  judgeEvidence: { excerpt: number | null; stackOnly: number | null; generatorContext: number | null; n: number };
  judgeCalls: number;
  judgeErrors: number;
  judgeErrorRate: number | null;
}

export interface ExplainSummary {
  groups: Record<'all' | FailureGroup, GroupSummary>;
  /** The gate metrics (EXPLAIN_GATE_METRICS), over every failure. */
  metrics: Record<string, number | null>;
}

/** Summarize failure results (see {@link ExplainSummary}). */
export function summarizeExplainEval(results: readonly FailureResult[], options: { seed?: number } = {}): ExplainSummary {
  const group = (filter: (result: FailureResult) => boolean) => summarizeGroup(results.filter(filter), options.seed ?? 1);
  const groups = { all: group(() => true), 'app-code': group((result) => result.group === 'app-code'), 'stack-named': group((result) => result.group === 'stack-named') };
  const all = groups.all;
  return {
    groups,
    metrics: {
      pairwiseWinRate: all.pairwise.winRate,
      positionConsistency: all.pairwise.positionConsistency,
      judgeErrorRate: all.judgeErrorRate,
      ragFoundCauseRate: all.rag.foundCause,
      noragFoundCauseRate: all.norag.foundCause,
      ragFixLocationRate: all.rag.pointsToFixLocation,
      noragFixLocationRate: all.norag.pointsToFixLocation,
      ragNoFabricationRate: all.rag.noFabrication,
      noragNoFabricationRate: all.norag.noFabrication,
    },
  };
}

function summarizeGroup(results: readonly FailureResult[], seed: number): GroupSummary {
  const ran = results.filter((result) => result.status === 'ok');
  const pairs = ran.map((result) => result.pairwise).filter((pair): pair is PairwiseOutcome => pair !== null);
  const truncations = ran.map((result) => result.truncation).filter((pair): pair is PairwiseOutcome => pair !== null);
  const rag = rates(pairs, 'rag');
  const norag = rates(pairs, 'norag');
  const noragAppFrames = rates(truncations, 'rag').pointsToFixLocation;
  const noragTail = rates(truncations, 'norag').pointsToFixLocation;
  const difference = (a: number | null, b: number | null) => (a === null || b === null ? null : a - b);

  const claimJudgments = ran.flatMap((result) => (result.sides ? [result.sides.rag.claims, result.sides.norag.claims, result.sides.noragTail.claims] : []));
  const trials = [...pairs, ...truncations].flatMap((pair) => pair.trials);
  const judgeCalls = claimJudgments.length + trials.length;
  const judgeErrors = claimJudgments.filter((judgment) => judgment === null || judgment.status === 'error').length + trials.filter((trial) => trial.judgment.status === 'error').length;

  const clean = (judgment: FaithfulnessJudgment | null | undefined, answer: string | null | undefined): boolean | null =>
    judgment?.status === 'ok' && answer != null ? noFabrication(answer, judgment.claims) : null;
  const share = (values: (boolean | null)[]) => {
    const known = values.filter((value): value is boolean => value !== null);
    return known.length === 0 ? null : known.filter(Boolean).length / known.length;
  };
  return {
    failures: ran.length,
    notRun: results.length - ran.length,
    pairwise: summarizePairwise(pairs, { seed }),
    rag,
    norag,
    truncation: { noragAppFrames, noragTail, rag: rag.pointsToFixLocation, leadWithAppFrames: difference(rag.pointsToFixLocation, noragAppFrames), leadWithTail: difference(rag.pointsToFixLocation, noragTail) },
    judgeEvidence: {
      excerpt: share(ran.map((result) => clean(result.sides?.rag.claims, result.sides?.rag.text))),
      stackOnly: share(ran.map((result) => clean(result.evidenceAblation?.stackOnly, result.sides?.rag.text))),
      generatorContext: share(ran.map((result) => clean(result.evidenceAblation?.generatorContext, result.sides?.rag.text))),
      n: ran.length,
    },
    judgeCalls,
    judgeErrors,
    judgeErrorRate: judgeCalls === 0 ? null : judgeErrors / judgeCalls,
  };
}

/** Per criterion, the mean over pairs of the share of the pair's successful trials in which `side` met it. */
function rates(pairs: readonly PairwiseOutcome[], side: PairwiseSide): CriteriaRates {
  const sums = Object.fromEntries(EXPLANATION_CRITERIA_KEYS.map((key) => [key, { total: 0, n: 0 }])) as Record<keyof ExplanationCriteria, { total: number; n: number }>;
  for (const pair of pairs) {
    const judged = pair.trials.flatMap((trial) => {
      if (!isExplanationJudgment(trial.judgment)) return [];
      return [trial.shownAsA === side ? trial.judgment.explanation.a : trial.judgment.explanation.b];
    });
    if (judged.length === 0) continue;
    for (const key of EXPLANATION_CRITERIA_KEYS) {
      sums[key].total += judged.filter((criteria) => criteria[key]).length / judged.length;
      sums[key].n += 1;
    }
  }
  return Object.fromEntries(EXPLANATION_CRITERIA_KEYS.map((key) => [key, sums[key].n === 0 ? null : sums[key].total / sums[key].n])) as CriteriaRates;
}
