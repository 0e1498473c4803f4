import { flagsOf, outcomeNames, outcomeOf, type JudgmentOutcome } from '../../src/contract/outcome.js';
import { readAsParaphrase } from '../../src/judge/heuristic-paraphrase.js';
import { judgePair } from '../../src/judge/pairwise-protocol.js';
import type { EvidencePassage, FaithfulnessJudge, FaithfulnessJudgment, PairwiseJudge } from '../../src/judge/types.js';
import { seededRng } from '../../src/metrics/random.js';
import { fnv1a } from '../../src/text/text.js';
import { expectedOutcome, JUDGE_LABELS, type JudgeLabel, type LabelledItem } from './judge-labels.js';

/**
 * The meta-evaluation of `bench:judge --labels`: one judge's outcomes on hand-labelled items,
 * against the labels (METHODOLOGY.md, "Meta-evaluation"). Each item is judged as an offline eval
 * judges it: the question, the evidence exactly as retrieved, the answer and, for a question that
 * is not must-refuse, the reference answer (for reference-claim recall only). `mustRefuse` is not
 * given to the judge: it must tell from the evidence (and the question) whether refusing was right.
 */

export interface LabelFigures {
  items: number;
  /** Outcome equals the label (`contradicted` and `fabricated` both count as `hallucinated`). */
  outcomeAccuracy: number;
  /** Positive = label `correct`; predicted positive = outcome `correct`. */
  correctBalancedAccuracy: number | null;
  /** Over items with a `faithful` label (non-refusals): predicted faithful = `faithful === true`; undetermined and errors are wrong either way. */
  faithfulBalancedAccuracy: number | null;
  /** Share of `off_topic` and `should_have_refused` items whose outcome is `correct` or `correct_refusal`. */
  nonAnswerPassRate: number | null;
  /** Share of `over_refusal` items whose outcome is `correct_refusal`. */
  overRefusalCreditRate: number | null;
  /** Per question, the correct side against each flawed item, both orders: share the correct side wins both. */
  pairwiseCorrectWinRate: number | null;
  pairs: number;
  judgeErrors: number;
  /**
   * Per label: items, the share judged right, outcomes, and `paraphrase`: items whose claims the
   * heuristic judge's paraphrase model verified (with references only; 0 for other judges), to see
   * which labels the model lets through.
   */
  byLabel: Record<string, { items: number; accuracy: number | null; outcomes: Partial<Record<JudgmentOutcome, number>>; paraphrase: number }>;
  /** label → outcome → count. */
  confusion: Record<string, Record<string, number>>;
}

export interface JudgedItem {
  item: LabelledItem;
  judgment: FaithfulnessJudgment;
  outcome: JudgmentOutcome;
}

/** The evidence of a label item: its passages as retrieval returned them (trace chunks). */
export function labelEvidence(item: LabelledItem): EvidencePassage[] {
  return item.evidence.map((passage) => ({ id: passage.id, text: passage.text, kind: 'chunk' as const }));
}

/**
 * Judge every item (in order; `onProgress` after each). `withReference: false` judges as the live
 * judge does, without the reference answer (no reference-claim recall, and context verdicts from
 * the question's words alone). [withReference=true]
 */
export async function judgeItems(
  judge: FaithfulnessJudge,
  items: readonly LabelledItem[],
  onProgress?: (done: number) => void,
  options: { withReference?: boolean } = {},
): Promise<JudgedItem[]> {
  const judged: JudgedItem[] = [];
  const withReference = options.withReference ?? true;
  for (const item of items) {
    const judgment = await judge.judge({
      question: item.question,
      evidence: labelEvidence(item),
      answer: item.answer,
      reference: item.mustRefuse || !withReference ? null : item.referenceAnswer,
    });
    judged.push({ item, judgment, outcome: outcomeOf(flagsOf(judgment)) });
    onProgress?.(judged.length);
  }
  return judged;
}

const balanced = (truePositive: number, positives: number, trueNegative: number, negatives: number): number | null =>
  positives === 0 || negatives === 0 ? null : (truePositive / positives + trueNegative / negatives) / 2;

const share = (count: number, total: number): number | null => (total === 0 ? null : count / total);

/** The items of a question that stand for the right answer: those labelled `correct`, else `correct_refusal`. */
function correctSide(items: readonly JudgedItem[]): JudgedItem[] {
  const correct = items.filter((entry) => entry.item.label === 'correct');
  return correct.length > 0 ? correct : items.filter((entry) => entry.item.label === 'correct_refusal');
}

/** Pairwise: per question, each correct-side item against each flawed item, judged in both orders. */
export async function pairwiseWins(pairwise: PairwiseJudge, judged: readonly JudgedItem[], seed: number): Promise<{ pairs: number; wins: number }> {
  const byQuestion = new Map<string, JudgedItem[]>();
  for (const entry of judged) byQuestion.set(entry.item.questionId, [...(byQuestion.get(entry.item.questionId) ?? []), entry]);
  let pairs = 0;
  let wins = 0;
  for (const [questionId, entries] of byQuestion) {
    const good = correctSide(entries);
    const flawed = entries.filter((entry) => entry.item.label !== 'correct' && entry.item.label !== 'correct_refusal');
    for (const right of good) {
      for (const wrong of flawed) {
        const outcome = await judgePair({
          judge: pairwise,
          questionId: `${right.item.id}~${wrong.item.id}`,
          question: right.item.question,
          evidence: labelEvidence(right.item),
          sides: { rag: right.item.answer, norag: wrong.item.answer, judgmentRag: right.judgment, judgmentNorag: wrong.judgment },
          rng: seededRng(fnv1a(`${seed}:${questionId}:${right.item.id}:${wrong.item.id}`)),
        });
        pairs += 1;
        if (outcome.outcome === 'rag') wins += 1;
      }
    }
  }
  return { pairs, wins };
}

/** The figures of one judge on the labelled items. */
export function labelFigures(judged: readonly JudgedItem[], pairwise: { pairs: number; wins: number }): LabelFigures {
  const count = (predicate: (entry: JudgedItem) => boolean) => judged.filter(predicate).length;
  const correctPositives = count((entry) => entry.item.label === 'correct');
  const faithfulItems = judged.filter((entry) => entry.item.faithful !== null);
  const faithfulOk = (entry: JudgedItem) => entry.judgment.status === 'ok' && entry.judgment.faithful;
  const nonAnswers = judged.filter((entry) => entry.item.label === 'off_topic' || entry.item.label === 'should_have_refused');
  const overRefusals = judged.filter((entry) => entry.item.label === 'over_refusal');
  const confusion: Record<string, Record<string, number>> = {};
  const byLabel: LabelFigures['byLabel'] = {};
  for (const label of JUDGE_LABELS) {
    const items = judged.filter((entry) => entry.item.label === label);
    const outcomes: Partial<Record<JudgmentOutcome, number>> = {};
    for (const entry of items) outcomes[entry.outcome] = (outcomes[entry.outcome] ?? 0) + 1;
    byLabel[label] = { items: items.length, accuracy: share(items.filter((entry) => entry.outcome === expectedOutcome(label)).length, items.length), outcomes, paraphrase: items.filter((entry) => readAsParaphrase(entry.judgment)).length };
    confusion[label] = Object.fromEntries(outcomeNames().map((outcome) => [outcome, outcomes[outcome] ?? 0]));
  }
  return {
    items: judged.length,
    outcomeAccuracy: count((entry) => entry.outcome === expectedOutcome(entry.item.label as JudgeLabel)) / Math.max(1, judged.length),
    correctBalancedAccuracy: balanced(
      count((entry) => entry.item.label === 'correct' && entry.outcome === 'correct'),
      correctPositives,
      count((entry) => entry.item.label !== 'correct' && entry.outcome !== 'correct'),
      judged.length - correctPositives,
    ),
    faithfulBalancedAccuracy: balanced(
      faithfulItems.filter((entry) => entry.item.faithful === true && faithfulOk(entry) === true).length,
      faithfulItems.filter((entry) => entry.item.faithful === true).length,
      faithfulItems.filter((entry) => entry.item.faithful === false && entry.judgment.status === 'ok' && entry.judgment.faithful === false).length,
      faithfulItems.filter((entry) => entry.item.faithful === false).length,
    ),
    nonAnswerPassRate: share(nonAnswers.filter((entry) => entry.outcome === 'correct' || entry.outcome === 'correct_refusal').length, nonAnswers.length),
    overRefusalCreditRate: share(overRefusals.filter((entry) => entry.outcome === 'correct_refusal').length, overRefusals.length),
    pairwiseCorrectWinRate: share(pairwise.wins, pairwise.pairs),
    pairs: pairwise.pairs,
    judgeErrors: count((entry) => entry.judgment.status === 'error'),
    byLabel,
    confusion,
  };
}
