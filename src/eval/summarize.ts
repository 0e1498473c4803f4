import { flagsOf, outcomeNames, outcomeOf, type JudgmentOutcome } from '../contract/outcome.js';
import { summarizePairwise, type PairwiseOutcome } from '../judge/pairwise.js';
import type { FaithfulnessOk, JudgeFailure } from '../judge/types.js';
import { aggregateRetrieval, bootstrapMeanCi, DEFAULT_KS, falseRefusalRate, refusalRate, type Rate } from '../metrics/index.js';
import type { AnswerQualitySummary, CategorySummary, FaithfulnessSummary, JudgeErrorEntry, QuestionResult, RunSummary, SideResult, Spread } from './types.js';

/**
 * Aggregate one run's question results into its metrics. Every rate names its denominator in
 * METHODOLOGY.md ("Eval rules"); questions that could not be run are left out of every rate and
 * listed in `failedQuestions`.
 */
export function summarizeRun(run: number, seed: number, questions: QuestionResult[], durationMs: number): RunSummary {
  const ran = questions.filter((question) => question.status === 'ok');
  const retrieval = aggregateRetrieval(
    ran.map((question) => ({ category: question.category, relevant: question.relevantChunkIds, retrieved: question.retrievedChunkIds, mustRefuse: question.mustRefuse })),
    DEFAULT_KS,
  );
  const refusalItems = ran.map((question) => ({ mustRefuse: question.mustRefuse, refused: question.rag!.refused }));
  const mustRefuse = refusalRate(refusalItems);
  const falseRefusal = falseRefusalRate(refusalItems);
  const mustRefuseValues = ran.filter((question) => question.mustRefuse).map((question) => (question.rag!.refused ? 1 : 0));

  const rag = summarizeFaithfulness(ran.map((question) => question.rag!), seed);
  const norag = summarizeFaithfulness(noragSides(ran), seed);
  const outcomes = ran.map((question) => question.pairwise).filter((outcome): outcome is PairwiseOutcome => outcome !== null);
  const pairwise = summarizePairwise(outcomes, { seed });
  const keywordHitRate = meanKeywordShare(ran, 'rag');
  const judgeErrors = collectJudgeErrors(ran);
  const answerQuality = summarizeAnswerQuality(ran);

  const metrics: Record<string, number | null> = {
    hallucinationRate: rag.hallucinationRate.rate,
    noragHallucinationRate: norag.hallucinationRate.rate,
    refusalRate: mustRefuse.rate,
    falseRefusalRate: falseRefusal.rate,
    keywordHitRate,
    noragKeywordHitRate: meanKeywordShare(ran, 'norag'),
    pairwiseWinRate: pairwise.winRate,
    positionConsistency: pairwise.positionConsistency,
    judgeErrorRate: judgeErrors.rate,
    mrr: retrieval.overall.mrr,
    ...Object.fromEntries(Object.entries(answerQuality.rates).map(([name, rate]) => [name, rate.rate])),
    ...Object.fromEntries(Object.entries(answerQuality.means).map(([name, entry]) => [name, entry.mean])),
    ...answerRates(ran),
  };
  for (const k of DEFAULT_KS) {
    metrics[`recall@${k}`] = retrieval.overall.recall[k] ?? null;
    metrics[`precision@${k}`] = retrieval.overall.precision[k] ?? null;
    metrics[`hit@${k}`] = retrieval.overall.hit[k] ?? null;
    metrics[`ndcg@${k}`] = retrieval.overall.ndcg[k] ?? null;
  }

  return {
    run,
    seed,
    questions,
    metrics,
    retrieval,
    refusal: { mustRefuse, falseRefusal, mustRefuseCi: bootstrapMeanCi(mustRefuseValues, { seed }) },
    faithfulness: { rag, norag },
    answerQuality,
    pairwise,
    keywordHitRate,
    byCategory: summarizeCategories(ran, retrieval.byCategory, seed),
    judgeErrors,
    failedQuestions: questions.filter((question) => question.status === 'error').map((question) => ({ questionId: question.id, error: question.error ?? 'unknown error' })),
    durationMs,
  };
}

/**
 * Hallucination rate = answers with a hallucinated claim / answers judged ok that are not refusals
 * and make at least one checkable claim. Judge errors, refusals and claim-less answers are counted
 * on their own, never folded into the rate.
 */
export function summarizeFaithfulness(sides: SideResult[], seed: number): FaithfulnessSummary {
  let errors = 0;
  let refusals = 0;
  let undetermined = 0;
  const values: number[] = [];
  const verdicts = { verified: 0, contradicted: 0, absent: 0 };
  const outcomes = Object.fromEntries(outcomeNames().map((outcome) => [outcome, 0])) as Record<JudgmentOutcome, number>;
  for (const side of sides) {
    const judgment = side.judgment;
    outcomes[outcomeOf(flagsOf(judgment))] += 1;
    if (judgment.status === 'error') {
      errors += 1;
      continue;
    }
    verdicts.verified += judgment.counts.verified;
    verdicts.contradicted += judgment.counts.contradicted;
    verdicts.absent += judgment.counts.absent;
    // `faithful` is null for refusals and for answers without a checkable claim (deriveFaithfulness).
    if (judgment.faithful === null) {
      if (judgment.refused || side.refused) refusals += 1;
      else undetermined += 1;
      continue;
    }
    values.push(judgment.faithful ? 0 : 1);
  }
  const hallucinated = values.filter((value) => value === 1).length;
  return {
    judged: sides.length,
    errors,
    refusals,
    undetermined,
    checkable: values.length,
    hallucinated,
    hallucinationRate: { rate: values.length === 0 ? null : hallucinated / values.length, count: hallucinated, n: values.length },
    hallucinationCi: bootstrapMeanCi(values, { seed }),
    verdicts,
    outcomes,
  };
}

/**
 * The judgment-v2 measures of the RAG-on answers (METHODOLOGY.md, "Eval rules"), over the
 * questions whose RAG-on judgment is ok:
 * - correctAnswerRate = outcome `correct` / answerable questions; incompleteRate = `incomplete` / answerable;
 * - rightOutcomeRate = outcome `correct` on an answerable question, or `correct_refusal` on a must-refuse question / all;
 * - answerRelevanceRate = relevance `answers` / answers that are not refusals;
 * - offTopicRate, overRefusalRate, shouldHaveRefusedRate = that outcome / all;
 * - contextSufficiencyRate = some chunk `answers` / questions with chunks;
 * - contextPrecision, referenceRecall = means over the judgments that have one.
 */
export function summarizeAnswerQuality(questions: readonly QuestionResult[]): AnswerQualitySummary {
  const judged = questions
    .map((question) => ({ question, judgment: question.rag!.judgment }))
    .filter((entry): entry is { question: QuestionResult; judgment: FaithfulnessOk } => entry.judgment.status === 'ok');
  const rate = (pool: typeof judged, hit: (entry: (typeof judged)[number]) => boolean): Rate => {
    const count = pool.filter(hit).length;
    return { rate: pool.length === 0 ? null : count / pool.length, count, n: pool.length };
  };
  const mean = (values: (number | null)[]) => {
    const present = values.filter((value): value is number => value !== null);
    return { mean: present.length === 0 ? null : present.reduce((sum, value) => sum + value, 0) / present.length, n: present.length };
  };
  const outcome = (entry: (typeof judged)[number]) => outcomeOf(flagsOf(entry.judgment));
  const answerable = judged.filter((entry) => !entry.question.mustRefuse);
  return {
    rates: {
      correctAnswerRate: rate(answerable, (entry) => outcome(entry) === 'correct'),
      incompleteRate: rate(answerable, (entry) => outcome(entry) === 'incomplete'),
      // The suite knows which questions are answerable: a refusal of one is no right outcome, even
      // where the judge, seeing only what retrieval returned (nothing, once gated), calls it a correct refusal;
      // and an answer to a must-refuse one is none, even where the judge, finding the question's words
      // in a chunk ("Bristol" and "office" for a parking space at the Bristol office), calls it correct.
      rightOutcomeRate: rate(judged, (entry) => (entry.question.mustRefuse ? outcome(entry) === 'correct_refusal' : outcome(entry) === 'correct')),
      answerRelevanceRate: rate(judged.filter((entry) => !entry.judgment.refused), (entry) => entry.judgment.answerRelevance === 'answers'),
      offTopicRate: rate(judged, (entry) => outcome(entry) === 'off_topic'),
      overRefusalRate: rate(judged, (entry) => outcome(entry) === 'over_refusal'),
      shouldHaveRefusedRate: rate(judged, (entry) => outcome(entry) === 'should_have_refused'),
      contextSufficiencyRate: rate(judged.filter((entry) => entry.judgment.contexts.length > 0), (entry) => entry.judgment.contextSufficient),
    },
    means: {
      contextPrecision: mean(judged.map((entry) => entry.judgment.contextPrecision)),
      referenceRecall: mean(judged.map((entry) => entry.judgment.referenceRecall)),
    },
  };
}

/** Judge errors / judge calls: two faithfulness judgments per question plus every pairwise trial. */
function collectJudgeErrors(questions: QuestionResult[]): RunSummary['judgeErrors'] {
  const list: JudgeErrorEntry[] = [];
  let calls = 0;
  const add = (questionId: string, call: string, judgment: { status: 'ok' } | JudgeFailure) => {
    calls += 1;
    if (judgment.status === 'error') list.push({ questionId, call, judge: judgment.judge, error: judgment.error, attempts: judgment.attempts });
  };
  for (const question of questions) {
    add(question.id, 'rag', question.rag!.judgment);
    if (question.norag) add(question.id, 'norag', question.norag.judgment);
    for (const trial of question.pairwise?.trials ?? []) add(question.id, `pairwise:${trial.order}`, trial.judgment);
  }
  return { calls, errors: list.length, rate: calls === 0 ? null : list.length / calls, list };
}

/** The RAG-off sides that exist (a target without a RAG-off mode has none). */
function noragSides(questions: QuestionResult[]): SideResult[] {
  return questions.map((question) => question.norag).filter((side): side is SideResult => side !== null);
}

/** Mean share of expected keywords found, over answerable questions that list keywords. */
function meanKeywordShare(questions: QuestionResult[], which: 'rag' | 'norag'): number | null {
  const shares = questions
    .filter((question) => !question.mustRefuse && question[which] !== null)
    .map((question) => question[which]!.keywords.share)
    .filter((share): share is number => share !== null);
  return shares.length === 0 ? null : shares.reduce((sum, share) => sum + share, 0) / shares.length;
}

function summarizeCategories(questions: QuestionResult[], retrievalByCategory: RunSummary['retrieval']['byCategory'], seed: number): CategorySummary[] {
  const categories = [...new Set(questions.map((question) => question.category))];
  return categories.map((category) => {
    const inCategory = questions.filter((question) => question.category === category);
    const refusalItems = inCategory.map((question) => ({ mustRefuse: question.mustRefuse, refused: question.rag!.refused }));
    const outcomes = inCategory.map((question) => question.pairwise).filter((outcome): outcome is PairwiseOutcome => outcome !== null);
    const pairwise = summarizePairwise(outcomes, { seed });
    return {
      category,
      questions: inCategory.length,
      recallAt5: retrievalByCategory[category]?.recall[5] ?? null,
      refusalRate: refusalRate(refusalItems).rate,
      falseRefusalRate: falseRefusalRate(refusalItems).rate,
      hallucinationRate: summarizeFaithfulness(inCategory.map((question) => question.rag!), seed).hallucinationRate.rate,
      noragHallucinationRate: summarizeFaithfulness(noragSides(inCategory), seed).hallucinationRate.rate,
      keywordHitRate: meanKeywordShare(inCategory, 'rag'),
      pairwise: { wins: pairwise.wins, ties: pairwise.ties, losses: pairwise.losses, errors: pairwise.errors, winRate: pairwise.winRate },
    };
  });
}

/**
 * Mean, min, max and sample standard deviation of each headline metric across runs. Runs where a
 * metric was not measured are left out of its statistics (and show as `null` in `values`).
 */
export function spreadAcrossRuns(runs: RunSummary[]): Record<string, Spread> {
  const names = [...new Set(runs.flatMap((run) => Object.keys(run.metrics)))];
  return Object.fromEntries(
    names.map((name) => {
      const values = runs.map((run) => run.metrics[name] ?? null);
      const measured = values.filter((value): value is number => value !== null);
      if (measured.length === 0) return [name, { mean: null, min: null, max: null, sd: null, values }];
      const mean = measured.reduce((sum, value) => sum + value, 0) / measured.length;
      const sd = measured.length < 2 ? null : Math.sqrt(measured.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (measured.length - 1));
      return [name, { mean, min: Math.min(...measured), max: Math.max(...measured), sd, values }];
    }),
  );
}

/**
 * Rates of what the answerer did, beyond right and wrong:
 * - `noragAnswerRate`: RAG-off answers that are not refusals / answerable questions (offline, the
 *   RAG-off side is a simulated stale memory: fixtures/memory);
 * - `unrelatedSourceRate`: RAG-on answers to answerable questions that cite a document holding
 *   none of the question's relevant chunks / RAG-on answers to answerable questions that are not
 *   refusals (the answer carries a sentence from an unrelated document);
 * - `gateRate`, `similarityGateRate`, `coverageGateRate`: questions whose relevance gate fired
 *   (either half, the similarity half, the term-coverage half) / questions that ran.
 */
export function answerRates(questions: readonly QuestionResult[]): Record<string, number | null> {
  const answerable = questions.filter((question) => !question.mustRefuse);
  // A target without a RAG-off mode has no RAG-off answers to count.
  const withNorag = answerable.filter((question) => question.norag !== null);
  const noragAnswered = withNorag.filter((question) => !question.norag!.refused).length;
  const answered = answerable.filter((question) => !question.rag!.refused && question.rag!.sources !== undefined);
  const unrelated = answered.filter((question) => question.rag!.sources!.unrelated.length > 0).length;
  const reasons = questions.map((question) => question.rag!.trace.retrieval);
  const gated = (reason?: 'similarity' | 'coverage') =>
    questions.length === 0 ? null : reasons.filter((summary) => summary?.gated && (reason === undefined || (summary.gateReason ?? 'similarity') === reason)).length / questions.length;
  return {
    noragAnswerRate: withNorag.length === 0 ? null : noragAnswered / withNorag.length,
    unrelatedSourceRate: answered.length === 0 ? null : unrelated / answered.length,
    gateRate: gated(),
    similarityGateRate: gated('similarity'),
    coverageGateRate: gated('coverage'),
  };
}
