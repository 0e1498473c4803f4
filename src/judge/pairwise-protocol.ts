import { InvalidInputError, errorMessage } from '../errors.js';
import { bootstrapMeanCi, type ConfidenceInterval } from '../metrics/bootstrap.js';
import { countWords } from '../text/text.js';
import { EMPTY_USAGE } from '../providers/spec.js';
import { scrubModeWords } from './pairwise-scrub.js';
import type { EvidencePassage, FaithfulnessJudgment, JudgeFailure, PairwiseInput, PairwiseJudge, PairwiseJudgment } from './types.js';

/** The two answers to one question, with their judgments from the faithfulness judge. */
export interface PairwiseSides {
  /** The answer with documents (RAG on). */
  rag: string;
  /** The closed-book answer (RAG off). */
  norag: string;
  /** Each side's faithfulness judgment (`null`: none); the judges take answersCorrectly and noFabrication from it. */
  judgmentRag: FaithfulnessJudgment | null;
  judgmentNorag: FaithfulnessJudgment | null;
}

export type PairwiseOrder = 'rag-first' | 'norag-first';
export type PairwiseSide = 'rag' | 'norag';

/** One judge call: which answer was shown as A, what the judge said, and who that makes the winner. */
export interface PairwiseTrialResult {
  order: PairwiseOrder;
  shownAsA: PairwiseSide;
  judgment: PairwiseJudgment;
  /** The judge's verdict mapped back to a side; `null` when the judge failed. */
  winnerSide: PairwiseSide | 'tie' | null;
}

export interface PairwiseOutcome {
  questionId: string;
  /** The order of the first trial, drawn from the seeded RNG. */
  firstOrder: PairwiseOrder;
  /** One trial per order judged, first order first. */
  trials: PairwiseTrialResult[];
  /**
   * Both orders (default): a side wins only when it wins both; anything else is a tie.
   * One order: that trial's verdict. `error` when any trial failed (excluded from rates).
   */
  outcome: PairwiseSide | 'tie' | 'error';
  /** Whether the two orders agreed (both tie counts as agreeing); `null` with one order or an error. */
  consistent: boolean | null;
  /** Answer lengths in words, before scrubbing. */
  answerWords: { rag: number; norag: number };
  /** Exactly the answers the judge was shown (after scrubbing mode words). */
  shown: { rag: string; norag: string };
}

export interface JudgePairArgs {
  judge: PairwiseJudge;
  questionId: string;
  question: string;
  /** The evidence both answers are judged against (normally the RAG trace's exact chunks). */
  evidence: EvidencePassage[];
  sides: PairwiseSides;
  /** Seeded RNG (e.g. `seededRng(seed)`); called exactly once per pair, for the first order. */
  rng: () => number;
  /** Judge both orders. [bothOrders=true] */
  bothOrders?: boolean;
  /** More words to scrub from answers, e.g. the model ids from the traces. */
  scrubTerms?: readonly string[];
  abortSignal?: AbortSignal;
}

/**
 * Judge one question's RAG-on and RAG-off answers blind: mode words scrubbed from both answers
 * (and their claim texts), the side shown as "A" first drawn from `rng`, and by default judged
 * again in the other order. Never throws for a judge failure: a trial that fails (or a judge that
 * throws) makes the pair's outcome `error`.
 *
 * @example
 * const rng = seededRng(7);
 * const outcome = await judgePair({ judge, questionId: 'q001', question, evidence, sides, rng });
 * outcome.outcome // 'rag' | 'norag' | 'tie' | 'error'
 */
export async function judgePair(args: JudgePairArgs): Promise<PairwiseOutcome> {
  const { judge, questionId, question, evidence, sides, rng } = args;
  if (typeof rng !== 'function') throw new InvalidInputError('option rng is required: a seeded RNG such as seededRng(seed)', { code: 'invalid_option' });
  const scrub = (text: string) => scrubModeWords(text, { extraTerms: args.scrubTerms ?? [] });
  const shown = { rag: scrub(sides.rag), norag: scrub(sides.norag) };
  const judgments = { rag: scrubJudgment(sides.judgmentRag, scrub), norag: scrubJudgment(sides.judgmentNorag, scrub) };

  const firstOrder: PairwiseOrder = rng() < 0.5 ? 'rag-first' : 'norag-first';
  const orders: PairwiseOrder[] = args.bothOrders === false ? [firstOrder] : [firstOrder, firstOrder === 'rag-first' ? 'norag-first' : 'rag-first'];

  const trials: PairwiseTrialResult[] = [];
  for (const order of orders) {
    const shownAsA: PairwiseSide = order === 'rag-first' ? 'rag' : 'norag';
    const shownAsB: PairwiseSide = shownAsA === 'rag' ? 'norag' : 'rag';
    const input: PairwiseInput = {
      question,
      evidence,
      answerA: shown[shownAsA],
      answerB: shown[shownAsB],
      judgmentA: judgments[shownAsA],
      judgmentB: judgments[shownAsB],
    };
    const judgment = await safeJudge(judge, input, args.abortSignal);
    const winnerSide = judgment.status !== 'ok' ? null : judgment.winner === 'tie' ? 'tie' : judgment.winner === 'A' ? shownAsA : shownAsB;
    trials.push({ order, shownAsA, judgment, winnerSide });
  }

  let outcome: PairwiseOutcome['outcome'];
  let consistent: boolean | null = null;
  if (trials.some((trial) => trial.winnerSide === null)) outcome = 'error';
  else if (trials.length === 1) outcome = trials[0]!.winnerSide!;
  else {
    const [first, second] = [trials[0]!.winnerSide!, trials[1]!.winnerSide!];
    consistent = first === second;
    outcome = consistent && first !== 'tie' ? first : 'tie';
  }
  return {
    questionId,
    firstOrder,
    trials,
    outcome,
    consistent,
    answerWords: { rag: countWords(sides.rag), norag: countWords(sides.norag) },
    shown,
  };
}

async function safeJudge(judge: PairwiseJudge, input: PairwiseInput, abortSignal: AbortSignal | undefined): Promise<PairwiseJudgment> {
  const started = performance.now();
  try {
    return await judge.judge(input, abortSignal ? { abortSignal } : {});
  } catch (error) {
    // A judge should return a JudgeFailure, but one that throws must not take the run down.
    const failure: JudgeFailure = {
      status: 'error',
      judge: judge.info,
      error: `judge threw: ${errorMessage(error)}`,
      rawReply: null,
      attempts: 1,
      authError: Boolean((error as { isAuthError?: unknown } | null)?.isAuthError),
      usage: { ...EMPTY_USAGE },
      costUsd: null,
      durationMs: performance.now() - started,
    };
    return failure;
  }
}

/** The judgment with mode words scrubbed from its claims' text and notes (what the judge is shown). */
function scrubJudgment(judgment: FaithfulnessJudgment | null, scrub: (text: string) => string): FaithfulnessJudgment | null {
  if (judgment === null || judgment.status !== 'ok') return judgment;
  return { ...judgment, claims: judgment.claims.map((claim) => ({ ...claim, text: scrub(claim.text), note: scrub(claim.note) })) };
}

export interface PairwiseSummary {
  /** All pairs, errors included. */
  pairs: number;
  /** Pairs with a verdict (errors excluded): the denominator of the win rate. */
  n: number;
  /** From the RAG side's point of view. */
  wins: number;
  ties: number;
  losses: number;
  errors: number;
  /** (wins + 0.5 · ties) / n; `null` when n is 0. */
  winRate: number | null;
  /** Percentile bootstrap interval of the win rate (resampling pairs, seeded). */
  winRateCi: ConfidenceInterval | null;
  /** Share of pairs judged in both orders (without error) whose two verdicts agree; `null` when none. */
  positionConsistency: number | null;
  /** Pairs that entered `positionConsistency`. */
  consistencyPairs: number;
  /** Share of decisive (non-tie) trial verdicts won by the answer shown as A; 0.5 means no position bias. */
  firstPositionWinShare: number | null;
  /** Trials that entered `firstPositionWinShare`. */
  decisiveTrials: number;
  /** Mean answer length in words per side, over all pairs (errors included: length does not depend on the judge). */
  meanAnswerWords: { rag: number | null; norag: number | null };
}

/**
 * Summarize pairwise outcomes from the RAG side's point of view. Errored pairs are counted in
 * `errors` and left out of `n`, the win rate and position consistency; their successful trials
 * still count towards `firstPositionWinShare`.
 *
 * @param [options.seed=1] bootstrap seed. @param [options.resamples=2000] bootstrap resamples.
 * @example
 * const summary = summarizePairwise(outcomes, { seed: 7 });
 * console.log(summary.winRate, summary.winRateCi?.lower, summary.winRateCi?.upper);
 */
export function summarizePairwise(outcomes: readonly PairwiseOutcome[], options: { seed?: number; resamples?: number } = {}): PairwiseSummary {
  let wins = 0;
  let ties = 0;
  let losses = 0;
  let errors = 0;
  const scores: number[] = [];
  let consistencyPairs = 0;
  let consistentPairs = 0;
  let decisiveTrials = 0;
  let firstPositionWins = 0;
  for (const outcome of outcomes) {
    if (outcome.outcome === 'error') errors += 1;
    else if (outcome.outcome === 'rag') (wins += 1), scores.push(1);
    else if (outcome.outcome === 'tie') (ties += 1), scores.push(0.5);
    else (losses += 1), scores.push(0);
    if (outcome.consistent !== null) {
      consistencyPairs += 1;
      if (outcome.consistent) consistentPairs += 1;
    }
    for (const trial of outcome.trials) {
      if (trial.winnerSide === null || trial.winnerSide === 'tie') continue;
      decisiveTrials += 1;
      if (trial.winnerSide === trial.shownAsA) firstPositionWins += 1;
    }
  }
  const n = scores.length;
  const mean = (values: number[]) => (values.length === 0 ? null : values.reduce((sum, value) => sum + value, 0) / values.length);
  return {
    pairs: outcomes.length,
    n,
    wins,
    ties,
    losses,
    errors,
    winRate: mean(scores),
    winRateCi: bootstrapMeanCi(scores, { seed: options.seed ?? 1, resamples: options.resamples ?? 2000 }),
    positionConsistency: consistencyPairs === 0 ? null : consistentPairs / consistencyPairs,
    consistencyPairs,
    firstPositionWinShare: decisiveTrials === 0 ? null : firstPositionWins / decisiveTrials,
    decisiveTrials,
    meanAnswerWords: {
      rag: mean(outcomes.map((outcome) => outcome.answerWords.rag)),
      norag: mean(outcomes.map((outcome) => outcome.answerWords.norag)),
    },
  };
}
