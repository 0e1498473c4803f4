/**
 * bench:judge — the offline judges on HaluEval QA: can they tell the hallucinated answer from the
 * right one, given the knowledge? In the same run, the baseline "every content word of the answer
 * appears in the knowledge" (bench/lib/judge-naive.ts).
 *
 * Wiring (METHODOLOGY.md, "Faithfulness judges"; README "Judge accuracy"):
 * - Evidence: the item's `knowledge` as one passage `{ id: 'knowledge', kind: 'chunk' }`. It is the
 *   context the answers were written from, the role a trace's chunk plays; the heuristic judge reads
 *   chunk and reference passages alike, and with a single passage the pairwise judge uses it either
 *   way, so the kind changes no verdict here.
 * - Faithfulness: each answer judged on its own by the heuristic judge (default policy: absent
 *   claims count). `flagged` = `status: 'ok'` and `hallucinated === true`; `accepted` = ok, not
 *   hallucinated, at least one checkable claim, not a refusal. Undetermined answers (nothing
 *   checkable, e.g. "Yes"), refusals and judge errors are counted and shown, and scored as wrong.
 * - Pairwise: `judgePair` with the heuristic pairwise judge, both orders, first order from a seeded
 *   RNG, each side's claims from its faithfulness judgment (`null` after a judge error). The right
 *   answer fills the protocol's `rag` slot and the hallucinated one the `norag` slot; the judge is
 *   blind to the slots. Accuracy = pairs the right answer wins in both orders / pairs; ties and
 *   errors are not correct (and are shown).
 *
 *   npm run bench:judge
 *   npm run bench:judge -- --data ../shared/data
 *   npm run bench:judge -- --file heldout/qa_one-turn.test.jsonl --file heldout/qa_multi-turn.test.jsonl
 */
import { createHeuristicFaithfulnessJudge, HEURISTIC_JUDGE_VERSION } from '../src/judge/heuristic-judge.js';
import { createHeuristicPairwiseJudge, HEURISTIC_PAIRWISE_VERSION } from '../src/judge/pairwise-heuristic.js';
import { judgePair, summarizePairwise, type PairwiseOutcome } from '../src/judge/pairwise-protocol.js';
import type { EvidencePassage, FaithfulnessJudgment } from '../src/judge/types.js';
import { seededRng } from '../src/metrics/random.js';
import { BenchUsageError, DEFAULT_DATA_DIR, runBenchmark } from './lib/args.js';
import { loadHaluEvalFile, resolveHaluEvalFiles, type HaluEvalFile } from './lib/judge-data.js';
import { naiveContentWords, naiveMissingWords } from './lib/judge-naive.js';
import { addCounts, detectionFigures, emptyCounts, type AnswerOutcome, type DetectionFigures, type OutcomeCounts } from './lib/judge-scores.js';
import { round } from './lib/stats.js';
import { formatTable } from './lib/table.js';

const USAGE = `usage: npm run bench:judge -- [--data <folder> (../shared/data)] [--file <jsonl>]... [--seed <n> (1)]
  --data   folder holding halueval/*.jsonl (or the .jsonl files themselves)
  --file   a HaluEval QA file {knowledge, question, right_answer, hallucinated_answer} per line; repeatable; overrides --data
  --seed   seed of the pairwise order RNG
`;

/** HaluEval paper (Li et al., 2023): ChatGPT's accuracy at recognising hallucinated QA answers. */
const CHATGPT_HALUEVAL_QA_ACCURACY = 0.6259;

interface Options {
  files: string[];
  seed: number;
}

function parseArgs(argv: readonly string[]): Options | null {
  const files: string[] = [];
  let data: string | null = null;
  let seed = 1;
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index]!;
    const [flag, inline] = argument.split(/=(.*)/s, 2) as [string, string | undefined];
    if (flag === '--help' || flag === '-h') return null;
    if (!['--data', '--file', '--seed'].includes(flag)) throw new BenchUsageError(`unknown argument ${JSON.stringify(argument)}; flags are --data <folder>, --file <jsonl> (repeatable), --seed <n>`);
    const value = inline ?? argv[++index];
    if (value === undefined || value.startsWith('--')) throw new BenchUsageError(`flag ${flag} needs a value`);
    if (flag === '--data') data = value;
    else if (flag === '--file') files.push(value);
    else {
      seed = Number(value);
      if (!Number.isInteger(seed)) throw new BenchUsageError(`flag --seed ${value} is invalid: use an integer`);
    }
  }
  return { files: resolveHaluEvalFiles(files, data, DEFAULT_DATA_DIR), seed };
}

interface FileResult {
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

async function runFile(file: HaluEvalFile, seed: number): Promise<FileResult> {
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

interface PairwiseFigures {
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

interface Figures {
  items: number;
  judge: DetectionFigures;
  naive: DetectionFigures;
  pairwise: PairwiseFigures;
}

function figures(results: readonly FileResult[]): Figures {
  const sum = (pick: (result: FileResult) => OutcomeCounts) => results.map(pick).reduce(addCounts, emptyCounts());
  const judge = detectionFigures(sum((result) => result.judge.right), sum((result) => result.judge.hallucinated));
  return {
    items: judge.items,
    judge,
    naive: detectionFigures(sum((result) => result.naive.right), sum((result) => result.naive.hallucinated)),
    pairwise: pairwiseFigures(results.flatMap((result) => result.pairwise)),
  };
}

const percent = (value: number | null) => (value === null ? 'n/a' : `${(100 * value).toFixed(1)}%`);
const decimal = (value: number | null) => (value === null ? 'n/a' : value.toFixed(3));

function roundAll<T>(value: T): T {
  return JSON.parse(JSON.stringify(value, (_key, entry: unknown) => (typeof entry === 'number' ? round(entry) : entry))) as T;
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  if (options === null) {
    process.stdout.write(USAGE);
    return;
  }
  const files = options.files.map(loadHaluEvalFile);
  const results: FileResult[] = [];
  for (const file of files) results.push(await runFile(file, options.seed));

  const rows: { label: string; figures: Figures }[] = results.map((result) => ({ label: result.name, figures: figures([result]) }));
  if (results.length > 1) rows.push({ label: 'combined', figures: figures(results) });

  process.stdout.write(`bench:judge — HaluEval QA, faithfulness judge ${HEURISTIC_JUDGE_VERSION}, pairwise judge ${HEURISTIC_PAIRWISE_VERSION}, seed ${options.seed}\n`);
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
    seed: options.seed,
  };
  process.stdout.write(`${JSON.stringify(roundAll(json))}\n`);
}

runBenchmark(main);
