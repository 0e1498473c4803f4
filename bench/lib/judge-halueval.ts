import { createHeuristicFaithfulnessJudge } from '../../src/judge/heuristic-judge.js';
import { createHeuristicPairwiseJudge } from '../../src/judge/pairwise-heuristic.js';
import { judgePair, summarizePairwise, type PairwiseOutcome } from '../../src/judge/pairwise-protocol.js';
import type { EvidencePassage, FaithfulnessJudgment } from '../../src/judge/types.js';
import { seededRng } from '../../src/metrics/random.js';
import type { HaluEvalFile } from './judge-data.js';
import { HEURISTIC_JUDGE_VERSION } from '../../src/judge/heuristic-judge.js';
import { HEURISTIC_PAIRWISE_VERSION } from '../../src/judge/pairwise-heuristic.js';
import { naiveContentWords, naiveMissingWords } from './judge-naive.js';
import { addCounts, detectionFigures, emptyCounts, type AnswerOutcome, type DetectionFigures, type OutcomeCounts } from './judge-scores.js';
import { round } from './stats.js';
import { formatTable } from './table.js';

/**
 * The HaluEval part of `bench:judge`: the offline judges on HaluEval QA, with the naive
 * content-word rule as the baseline in the same run (wiring in bench/judge.ts).
 */

export interface FileResult {
  name: string;
  judge: { right: OutcomeCounts; hallucinated: OutcomeCounts };
  naive: { right: OutcomeCounts; hallucinated: OutcomeCounts };
  pairwise: PairwiseOutcome[];
  judgeMs: number;
}

function judgeOutcome(judgment: FaithfulnessJudgment): AnswerOutcome {
  if (judgment.status !== 'ok') return 'error';
  if (judgment.hallucinated) return 'flagged';
  if (judgment.refused) return 'refused';
  if (judgment.undetermined || judgment.claims.length === 0) return 'undetermined';
  return 'accepted';
}

function naiveOutcome(knowledge: string, answer: string): AnswerOutcome {
  if (naiveContentWords(answer).length === 0) return 'undetermined';
  return naiveMissingWords(knowledge, answer).length > 0 ? 'flagged' : 'accepted';
}

export async function runFile(file: HaluEvalFile, seed: number): Promise<FileResult> {
  const judge = createHeuristicFaithfulnessJudge();
  const pairwiseJudge = createHeuristicPairwiseJudge();
  const rng = seededRng(seed);
  const result: FileResult = {
    name: file.name,
    judge: { right: emptyCounts(), hallucinated: emptyCounts() },
    naive: { right: emptyCounts(), hallucinated: emptyCounts() },
    pairwise: [],
    judgeMs: 0,
  };
  for (const [index, item] of file.items.entries()) {
    const evidence: EvidencePassage[] = [{ id: 'knowledge', text: item.knowledge, kind: 'chunk' }];
    const started = performance.now();
    const right = await judge.judge({ question: item.question, evidence, answer: item.rightAnswer });
    const hallucinated = await judge.judge({ question: item.question, evidence, answer: item.hallucinatedAnswer });
    result.judgeMs += performance.now() - started;
    result.judge.right[judgeOutcome(right)] += 1;
    result.judge.hallucinated[judgeOutcome(hallucinated)] += 1;
    result.naive.right[naiveOutcome(item.knowledge, item.rightAnswer)] += 1;
    result.naive.hallucinated[naiveOutcome(item.knowledge, item.hallucinatedAnswer)] += 1;
    result.pairwise.push(
      await judgePair({
        judge: pairwiseJudge,
        questionId: `${file.name}#${index + 1}`,
        question: item.question,
        evidence,
        sides: {
          rag: item.rightAnswer,
          norag: item.hallucinatedAnswer,
          judgmentRag: right,
          judgmentNorag: hallucinated,
        },
        rng,
      }),
    );
  }
  return result;
}

export interface PairwiseFigures {
  pairs: number;
  /** Pairs the right answer won in both orders / pairs. */
  accuracy: number;
  tieShare: number;
  /** Pairs the hallucinated answer won in both orders / pairs. */
  lossShare: number;
  errors: number;
  positionConsistency: number | null;
  firstPositionWinShare: number | null;
}

function pairwiseFigures(outcomes: readonly PairwiseOutcome[]): PairwiseFigures {
  const summary = summarizePairwise(outcomes);
  return {
    pairs: summary.pairs,
    accuracy: summary.wins / summary.pairs,
    tieShare: summary.ties / summary.pairs,
    lossShare: summary.losses / summary.pairs,
    errors: summary.errors,
    positionConsistency: summary.positionConsistency,
    firstPositionWinShare: summary.firstPositionWinShare,
  };
}

export interface Figures {
  items: number;
  judge: DetectionFigures;
  naive: DetectionFigures;
  pairwise: PairwiseFigures;
}

export function figures(results: readonly FileResult[]): Figures {
  const sum = (pick: (result: FileResult) => OutcomeCounts) => results.map(pick).reduce(addCounts, emptyCounts());
  const judge = detectionFigures(sum((result) => result.judge.right), sum((result) => result.judge.hallucinated));
  return {
    items: judge.items,
    judge,
    naive: detectionFigures(sum((result) => result.naive.right), sum((result) => result.naive.hallucinated)),
    pairwise: pairwiseFigures(results.flatMap((result) => result.pairwise)),
  };
}

export const percent = (value: number | null) => (value === null ? 'n/a' : `${(100 * value).toFixed(1)}%`);
export const decimal = (value: number | null) => (value === null ? 'n/a' : value.toFixed(3));

export function roundAll<T>(value: T): T {
  return JSON.parse(JSON.stringify(value, (_key, entry: unknown) => (typeof entry === 'number' ? round(entry) : entry))) as T;
}


/** HaluEval paper (Li et al., 2023): ChatGPT's accuracy at recognising hallucinated QA answers. */
const CHATGPT_HALUEVAL_QA_ACCURACY = 0.6259;

/** Run every file, print the HaluEval tables, and return the figures for the JSON line. */
export async function haluEvalSection(files: readonly HaluEvalFile[], seed: number): Promise<Record<string, unknown>> {
  const results: FileResult[] = [];
  for (const file of files) results.push(await runFile(file, seed));
  const rows: { label: string; figures: Figures }[] = results.map((result) => ({ label: result.name, figures: figures([result]) }));
  if (results.length > 1) rows.push({ label: 'combined', figures: figures(results) });

  process.stdout.write(`bench:judge — HaluEval QA, faithfulness judge ${HEURISTIC_JUDGE_VERSION}, pairwise judge ${HEURISTIC_PAIRWISE_VERSION}, seed ${seed}\n`);
  for (const file of files) process.stdout.write(`  ${file.name}: ${file.items.length} items (${file.path})\n`);

  process.stdout.write('\nDetecting the hallucinated answer (each answer judged alone; positive = "hallucinated")\n');
  const detectionRows = rows.flatMap(({ label, figures: entry }) =>
    (['judge', 'naive'] as const).map((method) => {
      const figure = entry[method];
      return [
        label,
        method === 'judge' ? 'heuristic judge' : 'naive rule',
        percent(figure.balancedAccuracy),
        percent(figure.rightAccepted),
        percent(figure.hallucinatedFlagged),
        decimal(figure.precision),
        decimal(figure.recall),
        decimal(figure.f1),
        `${figure.undetermined} / ${figure.refused} / ${figure.errors}`,
        percent(figure.balancedAccuracyUndeterminedAsAccepted),
      ];
    }),
  );
  process.stdout.write(
    `${formatTable(
      ['file', 'method', 'balanced acc.', 'right accepted', 'halluc. flagged', 'precision', 'recall', 'F1', 'undet. / refused / errors', 'BA, undet. right = accepted'],
      detectionRows,
    )}\n`,
  );

  process.stdout.write('\nPairwise: right vs hallucinated answer, judged in both orders\n');
  process.stdout.write(
    `${formatTable(
      ['file', 'pairs', 'accuracy (right wins)', 'ties', 'hallucinated wins', 'errors', 'position consistency', 'first-position win share'],
      rows.map(({ label, figures: entry }) => [
        label,
        entry.pairwise.pairs,
        percent(entry.pairwise.accuracy),
        percent(entry.pairwise.tieShare),
        percent(entry.pairwise.lossShare),
        entry.pairwise.errors,
        decimal(entry.pairwise.positionConsistency),
        decimal(entry.pairwise.firstPositionWinShare),
      ]),
    )}\n`,
  );

  const overall = rows.at(-1)!.figures;
  const judgeMs = results.reduce((sum, result) => sum + result.judgeMs, 0);
  process.stdout.write(
    [
      '',
      `Baseline, same run: heuristic judge ${percent(overall.judge.balancedAccuracy)} vs naive rule ${percent(overall.naive.balancedAccuracy)} balanced accuracy ` +
        `(${overall.judge.balancedAccuracy > overall.naive.balancedAccuracy ? 'beats' : 'does NOT beat'} the baseline); pairwise position consistency ${decimal(overall.pairwise.positionConsistency)} (target 1.0).`,
      `Reference: ChatGPT recognised ${percent(CHATGPT_HALUEVAL_QA_ACCURACY)} of HaluEval QA samples in the HaluEval paper (own prompt, full QA set): a rough reference, not the same items or protocol.`,
      `Faithfulness judging: ${(judgeMs / (2 * overall.items)).toFixed(2)} ms per answer (${2 * overall.items} answers).`,
      'Undetermined (no checkable claim, e.g. "Yes"), refused and error outcomes are scored as wrong; the last detection column counts undetermined right answers as accepted instead.',
      '',
    ].join('\n'),
  );

  const json = {
    judge: overall.judge,
    naive: overall.naive,
    pairwise: overall.pairwise,
    items: overall.items,
    files: Object.fromEntries(rows.filter((row) => row.label !== 'combined').map((row) => [row.label, { judge: row.figures.judge, naive: row.figures.naive, pairwise: row.figures.pairwise }])),
    reference: { chatgptHaluEvalQaAccuracy: CHATGPT_HALUEVAL_QA_ACCURACY },
    versions: { judge: HEURISTIC_JUDGE_VERSION, pairwise: HEURISTIC_PAIRWISE_VERSION },
    seed,
  };
  return json;
}
