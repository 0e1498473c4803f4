/**
 * bench:judge — how well the judges judge, in three parts, each beside a baseline or a reference:
 *
 * 1. HaluEval QA (default, or with --data / --file): can the offline judges tell the hallucinated
 *    answer from the right one, given the knowledge? Baseline in the same run: "every content word
 *    of the answer appears in the knowledge" (bench/lib/judge-naive.ts). Wiring in
 *    bench/lib/judge-halueval.ts and METHODOLOGY.md ("Faithfulness judges").
 * 2. Hand labels (--labels <file>, repeatable): each judge's outcome against a person's label, with
 *    tables, confusion matrices and the figures of METHODOLOGY.md ("Meta-evaluation").
 *    `--judge-provider openai` adds the LLM judges (GROUNDCHECK_JUDGE_* / OPENAI_* variables).
 * 3. SciFact context relevance (--scifact <folder>): the per-chunk verdict on (claim, abstract)
 *    pairs from the qrels against BM25 hard negatives.
 *
 * It ends with one JSON line: `{"halueval": …, "labels": {"<judge>": {…}}, "scifact": {"<judge>": …}}`.
 *
 *   npm run bench:judge
 *   npm run bench:judge -- --labels fixtures/judge-labels/handbook-check.jsonl
 *   npm run bench:judge -- --labels fixtures/judge-labels/handbook-paraphrase.jsonl   (answers in users' own words)
 *   npm run bench:judge -- --labels my-labels.jsonl --judge-provider openai --domain "our product manual"
 *   npm run bench:judge -- --scifact ../shared/data/scifact --scifact-limit 200
 */
import { HEURISTIC_JUDGE_VERSION, createHeuristicFaithfulnessJudge } from '../src/judge/heuristic-judge.js';
import { createLlmFaithfulnessJudge } from '../src/judge/llm-judge.js';
import { FAITHFULNESS_PROMPT_VERSION } from '../src/judge/llm-prompt.js';
import { createHeuristicPairwiseJudge, HEURISTIC_PAIRWISE_VERSION } from '../src/judge/pairwise-heuristic.js';
import { createLlmPairwiseJudge, LLM_PAIRWISE_PROMPT_VERSION } from '../src/judge/pairwise-llm.js';
import type { FaithfulnessJudge, PairwiseJudge } from '../src/judge/types.js';
import type { SentenceEncoder } from '../src/judge/heuristic-encoder.js';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { evalModelsFromEnv } from '../src/eval/models.js';
import { outcomeNames } from '../src/contract/outcome.js';
import { BenchUsageError, DEFAULT_DATA_DIR, REPO_ROOT, runBenchmark } from './lib/args.js';
import { loadBeir, resolveBeirFiles } from './lib/beir.js';
import { loadHaluEvalFile, resolveHaluEvalFiles } from './lib/judge-data.js';
import { haluEvalSection, percent, roundAll } from './lib/judge-halueval.js';
import { judgeItems, labelFigures, pairwiseWins, type LabelFigures } from './lib/judge-label-bench.js';
import { JUDGE_LABELS, loadLabelFile, type LabelledItem } from './lib/judge-labels.js';
import { contextFigures, sciFactPairs, type ContextFigures } from './lib/judge-scifact.js';
import { formatTable } from './lib/table.js';

const USAGE = `usage: npm run bench:judge -- [--data <folder>] [--file <jsonl>]... [--labels <jsonl>]... [--judge-provider local|openai]
                              [--domain <text>] [--scifact <folder>] [--scifact-limit <n> (200)] [--encoder none|use|only] [--reference with|without] [--seed <n> (1)]
  --data            folder holding halueval/*.jsonl (default ../shared/data); HaluEval runs by default, or when --data/--file is given
  --file            a HaluEval QA file {knowledge, question, right_answer, hallucinated_answer} per line; repeatable
  --labels          a hand-label file (fixtures/judge-labels/*.jsonl format); repeatable; items of all files are pooled
  --judge-provider  local: the offline judges only (default); openai: the LLM judges too, on the judge endpoint
  --domain          how the LLM judges' prompts describe the documents (e.g. "an employee handbook")
  --scifact         a BEIR SciFact folder: context relevance of (claim, abstract) pairs against BM25 hard negatives
  --scifact-limit   claims to use (one positive and one hard negative each)
  --encoder         use: also measure the heuristic judge with the local sentence encoder; only: that judge alone
  --reference       with (default): label items are judged with their reference answer, as an offline eval judges them;
                    without: as the live judge does, with no reference (context verdicts from the question's words alone)
  --seed            seed of the pairwise order RNG
`;

interface Options {
  haluEvalFiles: string[] | null;
  labels: string[];
  judgeProvider: 'local' | 'openai';
  domain: string | null;
  scifact: string | null;
  scifactLimit: number;
  seed: number;
  /** `use`: also run the heuristic judge with the local sentence encoder; `only`: that judge alone. */
  encoder: 'none' | 'use' | 'only';
  /** Whether label items are judged with their reference answer (offline eval) or without (live judge). */
  withReference: boolean;
}

const VALUE_FLAGS = ['--data', '--file', '--labels', '--judge-provider', '--domain', '--scifact', '--scifact-limit', '--seed', '--encoder', '--reference'];

function parseArgs(argv: readonly string[]): Options | null {
  const files: string[] = [];
  const labels: string[] = [];
  let data: string | null = null;
  let judgeProvider: Options['judgeProvider'] = 'local';
  let domain: string | null = null;
  let scifact: string | null = null;
  let scifactLimit = 200;
  let seed = 1;
  let encoder: Options['encoder'] = 'none';
  let withReference = true;
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index]!;
    const [flag, inline] = argument.split(/=(.*)/s, 2) as [string, string | undefined];
    if (flag === '--help' || flag === '-h') return null;
    if (!VALUE_FLAGS.includes(flag)) throw new BenchUsageError(`unknown argument ${JSON.stringify(argument)}; flags are ${VALUE_FLAGS.join(', ')}`);
    const value = inline ?? argv[++index];
    if (value === undefined || value.startsWith('--')) throw new BenchUsageError(`flag ${flag} needs a value`);
    const integer = (text: string, min: number) => {
      const number = Number(text);
      if (!Number.isInteger(number) || number < min) throw new BenchUsageError(`flag ${flag} ${text} is invalid: use an integer ≥ ${min}`);
      return number;
    };
    if (flag === '--data') data = value;
    else if (flag === '--file') files.push(value);
    else if (flag === '--labels') labels.push(value);
    else if (flag === '--judge-provider') {
      if (value !== 'local' && value !== 'openai') throw new BenchUsageError(`flag --judge-provider ${value} is invalid: use local or openai`);
      judgeProvider = value;
    } else if (flag === '--domain') domain = value;
    else if (flag === '--scifact') scifact = value;
    else if (flag === '--scifact-limit') scifactLimit = integer(value, 1);
    else if (flag === '--encoder') {
      if (value !== 'none' && value !== 'use' && value !== 'only') throw new BenchUsageError(`flag --encoder ${value} is invalid: use none, use or only`);
      encoder = value;
    } else if (flag === '--reference') {
      if (value !== 'with' && value !== 'without') throw new BenchUsageError(`flag --reference ${value} is invalid: use with or without`);
      withReference = value === 'with';
    }
    else seed = integer(value, 0);
  }
  const haluEval = files.length > 0 || data !== null || (labels.length === 0 && scifact === null);
  return { haluEvalFiles: haluEval ? resolveHaluEvalFiles(files, data, DEFAULT_DATA_DIR) : null, labels, judgeProvider, domain, scifact, scifactLimit, seed, encoder, withReference };
}

interface JudgePair {
  name: string;
  faithfulness: FaithfulnessJudge;
  pairwise: PairwiseJudge;
}

/**
 * The local sentence encoder (`src/providers/local/sentence-encoder.ts`), loaded only when asked
 * for: it is optional, and a checkout without it still runs every other part of the benchmark.
 */
async function loadEncoder(): Promise<SentenceEncoder> {
  const path = join(REPO_ROOT, 'src', 'providers', 'local', 'sentence-encoder.ts');
  if (!existsSync(path)) throw new BenchUsageError(`--encoder needs ${path} (the local sentence encoder), which this checkout does not have`);
  const module = (await import(pathToFileURL(path).href)) as { loadSentenceEncoder: () => Promise<SentenceEncoder> };
  return module.loadSentenceEncoder();
}

async function judgesFor(options: Options): Promise<JudgePair[]> {
  const judges: JudgePair[] = [];
  if (options.encoder !== 'only') judges.push({ name: 'heuristic', faithfulness: createHeuristicFaithfulnessJudge(), pairwise: createHeuristicPairwiseJudge() });
  if (options.encoder !== 'none') {
    judges.push({ name: 'heuristic+encoder', faithfulness: createHeuristicFaithfulnessJudge({ encoder: await loadEncoder() }), pairwise: createHeuristicPairwiseJudge() });
  }
  if (options.judgeProvider === 'openai') {
    const { judgeChat } = evalModelsFromEnv(process.env, { judgeProvider: 'openai' });
    if (!judgeChat) throw new BenchUsageError('--judge-provider openai needs a judge endpoint: set OPENAI_API_KEY (and GROUNDCHECK_JUDGE_MODEL / GROUNDCHECK_JUDGE_BASE_URL as needed)');
    const llm = { chat: judgeChat, ...(options.domain ? { domain: options.domain } : {}) };
    judges.push({ name: `llm:${judgeChat.provider}:${judgeChat.modelId}`, faithfulness: createLlmFaithfulnessJudge(llm), pairwise: createLlmPairwiseJudge(llm) });
  }
  return judges;
}

async function labelSection(judges: readonly JudgePair[], items: readonly LabelledItem[], seed: number, withReference: boolean): Promise<Record<string, LabelFigures>> {
  const figures: Record<string, LabelFigures> = {};
  for (const judge of judges) {
    process.stderr.write(`judging ${items.length} labelled items with ${judge.name}…\n`);
    const judged = await judgeItems(
      judge.faithfulness,
      items,
      (done) => {
        if (done % 50 === 0) process.stderr.write(`  ${done}/${items.length}\n`);
      },
      { withReference },
    );
    figures[judge.name] = labelFigures(judged, await pairwiseWins(judge.pairwise, judged, seed));
  }
  process.stdout.write(`\nHand labels: ${items.length} items, judged ${withReference ? 'with their reference answers (as an offline eval)' : 'without reference answers (as the live judge)'} (${JUDGE_LABELS.map((label) => `${items.filter((item) => item.label === label).length} ${label}`).join(', ')})\n`);
  process.stdout.write(
    `${formatTable(
      ['judge', 'outcome acc.', 'correct BA', 'faithful BA', 'non-answers passed', 'over-refusals credited', 'pairwise correct wins', 'pairs', 'judge errors'],
      Object.entries(figures).map(([name, entry]) => [
        name,
        percent(entry.outcomeAccuracy),
        percent(entry.correctBalancedAccuracy),
        percent(entry.faithfulBalancedAccuracy),
        percent(entry.nonAnswerPassRate),
        percent(entry.overRefusalCreditRate),
        percent(entry.pairwiseCorrectWinRate),
        entry.pairs,
        entry.judgeErrors,
      ]),
    )}\n`,
  );
  const outcomes = outcomeNames();
  for (const [name, entry] of Object.entries(figures)) {
    process.stdout.write(`\nConfusion matrix, ${name} (rows: label; columns: outcome; contradicted and fabricated are right when hallucinated)\n`);
    process.stdout.write(
      `${formatTable(
        ['label', 'n', 'right', ...outcomes, 'read as paraphrase'],
        JUDGE_LABELS.map((label) => [label, entry.byLabel[label]!.items, percent(entry.byLabel[label]!.accuracy), ...outcomes.map((outcome) => entry.confusion[label]![outcome] ?? 0), entry.byLabel[label]!.paraphrase]),
      )}\n`,
    );
    process.stdout.write('"read as paraphrase": answers whose absent claims the paraphrase model verified (heuristic judge, with reference answers); any under a flawed label is a pass it should not have given.\n');
  }
  return figures;
}

async function sciFactSection(judges: readonly JudgePair[], folder: string, limit: number): Promise<Record<string, ContextFigures>> {
  const dataset = loadBeir(resolveBeirFiles(new Map([['data', folder]]), folder));
  process.stderr.write(`SciFact: building the BM25 index over ${dataset.documents.length} abstracts…\n`);
  const pairs = await sciFactPairs(dataset, limit);
  const figures: Record<string, ContextFigures> = {};
  for (const judge of judges) figures[judge.name] = await contextFigures(judge.faithfulness, pairs);
  process.stdout.write(`\nSciFact context relevance: ${pairs.length} (claim, abstract) pairs from ${figures[judges[0]!.name]!.claims} claims (qrels positives against BM25 hard negatives; ${folder})\n`);
  process.stdout.write(
    `${formatTable(
      ['judge', 'balanced acc.', 'relevant kept', 'negatives rejected', 'verdicts on relevant', 'verdicts on negatives'],
      Object.entries(figures).map(([name, entry]) => [
        name,
        percent(entry.balancedAccuracy),
        percent(entry.truePositiveRate),
        percent(entry.trueNegativeRate),
        JSON.stringify(entry.verdicts.relevant),
        JSON.stringify(entry.verdicts.negative),
      ]),
    )}\n`,
  );
  process.stdout.write('Predicted relevant = "answers" or "related"; chance is 50%.\n');
  return figures;
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  if (options === null) {
    process.stdout.write(USAGE);
    return;
  }
  const judges = await judgesFor(options);
  const json: Record<string, unknown> = {};
  if (options.haluEvalFiles) json.halueval = await haluEvalSection(options.haluEvalFiles.map(loadHaluEvalFile), options.seed);
  if (options.labels.length > 0) {
    const items = options.labels.flatMap((path) => loadLabelFile(path).items);
    json.labels = await labelSection(judges, items, options.seed, options.withReference);
    json.labelFiles = options.labels;
    json.labelReference = options.withReference ? 'with' : 'without';
  }
  if (options.scifact) json.scifact = await sciFactSection(judges, options.scifact, options.scifactLimit);
  json.versions = {
    judge: HEURISTIC_JUDGE_VERSION,
    pairwise: HEURISTIC_PAIRWISE_VERSION,
    ...(options.encoder !== 'none' ? { judgeWithEncoder: judges.find((judge) => judge.name === 'heuristic+encoder')!.faithfulness.info.promptVersion } : {}),
    ...(options.judgeProvider === 'openai' ? { llmJudge: FAITHFULNESS_PROMPT_VERSION, llmPairwise: LLM_PAIRWISE_PROMPT_VERSION } : {}),
  };
  json.seed = options.seed;
  process.stdout.write(`\n${JSON.stringify(roundAll(json))}\n`);
}

runBenchmark(main);
