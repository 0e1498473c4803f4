/**
 * bench:paraphrase — fit the heuristic judge's paraphrase model (src/judge/heuristic-paraphrase.ts)
 * on hand labels, show how well it separates, and print the fitted model.
 *
 * Every item is judged with a reference answer by the heuristic judge with the model off
 * (`paraphraseModel: null`). The items the model could act on (an answer, not a refusal, with an
 * absent claim and no contradicted one) get their features (`paraphraseFeatures`); the target is
 * "labelled correct". A class-balanced logistic regression (L2, plain gradient descent, features
 * standardised) is fitted. How well it generalises is read from a cross-validation that holds out
 * whole label files (each fold fits on the other files), so a file's own phrasing never helps its
 * own score; per threshold the table gives the correct answers the model would read as paraphrase
 * against the flawed ones it would wrongly pass, by label. The threshold chosen maximises, over the
 * cross-validation, the correct answers read as paraphrase minus `--wrong-cost` (2) times the
 * flawed ones: a flawed answer passed as correct costs twice a paraphrase left unread. Then the model is fitted on all the
 * training files and, when `--evaluate` names files, measured once on them.
 *
 *   npm run bench:paraphrase                                    # the development files, then the held-out ones
 *   npm run bench:paraphrase -- --labels my-labels.jsonl --evaluate none --wrong-cost 4
 *
 * The last line is JSON: the fitted model (paste it into DEFAULT_PARAPHRASE_MODEL, or pass it to
 * createHeuristicFaithfulnessJudge({ paraphraseModel }) or groundcheck eval --paraphrase-model) and
 * the tables. When no threshold is worth using, `model` is null (`fitted` still shows the weights).
 */
import { readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { createHeuristicFaithfulnessJudge } from '../src/judge/heuristic-judge.js';
import { PARAPHRASE_FEATURES, paraphraseProbability, type ParaphraseModel } from '../src/judge/heuristic-paraphrase.js';
import { benchFlags, BenchUsageError, REPO_ROOT, runBenchmark } from './lib/args.js';
import { labelEvidence } from './lib/judge-label-bench.js';
import { loadLabelFile } from './lib/judge-labels.js';
import { formatTable } from './lib/table.js';
import { fitLogistic } from './lib/logistic.js';

const LABEL_DIR = join(REPO_ROOT, 'fixtures', 'judge-labels');
/** The label files kept out of every choice (METHODOLOGY.md, "Held-out label files"). */
export const HELD_OUT_LABEL_FILES = ['handbook-heldout.jsonl', 'handbook-fresh3.jsonl', 'handbook-fresh5.jsonl', 'handbook-fresh6.jsonl', 'handbook-fresh12.jsonl', 'handbook-fresh14.jsonl', 'handbook-fresh15.jsonl', 'handbook-fresh16.jsonl', 'handbook-fresh18.jsonl', 'handbook-fresh20.jsonl', 'handbook-fresh21.jsonl', 'handbook-fresh26.jsonl', 'handbook-fresh27.jsonl'];
const THRESHOLDS = [0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95];
const FOLDS = 5;
const FLAGS = { labels: true, evaluate: true, l2: true, 'wrong-cost': true, help: false };
const USAGE =
  'usage: npm run bench:paraphrase -- [--labels <files, comma-separated; default: the development files of fixtures/judge-labels>] [--evaluate <files|none; default: the held-out files>] [--l2 <n=1>] [--wrong-cost <n=2>]\n';

interface Example {
  file: string;
  label: string;
  features: number[];
  positive: boolean;
}

async function examples(paths: readonly string[], onFile: (path: string, count: number) => void): Promise<Example[]> {
  let features: readonly number[] | null = null;
  const judge = createHeuristicFaithfulnessJudge({ paraphraseModel: null, onParaphraseFeatures: (found) => (features = found) });
  const found: Example[] = [];
  for (const path of paths) {
    let count = 0;
    for (const item of loadLabelFile(path).items) {
      if (item.mustRefuse || !item.referenceAnswer) continue;
      features = null;
      await judge.judge({ question: item.question, evidence: labelEvidence(item), answer: item.answer, reference: item.referenceAnswer });
      if (features === null) continue;
      found.push({ file: basename(path), label: item.label, features: [...(features as readonly number[])], positive: item.label === 'correct' });
      count++;
    }
    onFile(path, count);
  }
  return found;
}

interface ThresholdRow {
  threshold: number;
  correctRead: number;
  correctTotal: number;
  flawedRead: number;
  flawedTotal: number;
  flawedByLabel: Record<string, number>;
}

function thresholdRows(scored: readonly { example: Example; p: number }[]): ThresholdRow[] {
  const correctTotal = scored.filter(({ example }) => example.positive).length;
  return THRESHOLDS.map((threshold) => {
    const read = scored.filter(({ p }) => p >= threshold);
    const flawedByLabel: Record<string, number> = {};
    for (const { example } of read) if (!example.positive) flawedByLabel[example.label] = (flawedByLabel[example.label] ?? 0) + 1;
    const correctRead = read.filter(({ example }) => example.positive).length;
    return { threshold, correctRead, correctTotal, flawedRead: read.length - correctRead, flawedTotal: scored.length - correctTotal, flawedByLabel };
  });
}

function printRows(title: string, rows: readonly ThresholdRow[]): void {
  console.log(`\n${title}`);
  console.log(
    formatTable(
      ['threshold', 'correct read as paraphrase', 'flawed read as paraphrase', 'flawed, by label'],
      rows.map((row) => [row.threshold.toFixed(2), `${row.correctRead}/${row.correctTotal}`, `${row.flawedRead}/${row.flawedTotal}`, Object.entries(row.flawedByLabel).map(([label, count]) => `${label} ${count}`).join(', ') || '—']),
    ),
  );
}

function labelPaths(value: string | undefined, fallback: () => string[]): string[] {
  if (value === undefined) return fallback();
  if (value === 'none') return [];
  return value.split(',').map((path) => path.trim()).filter(Boolean);
}

async function main(): Promise<void> {
  const flags = benchFlags(FLAGS, USAGE);
  if (!flags) return;
  const all = readdirSync(LABEL_DIR).filter((name) => name.endsWith('.jsonl')).sort();
  const training = labelPaths(flags.get('labels'), () => all.filter((name) => !HELD_OUT_LABEL_FILES.includes(name)).map((name) => join(LABEL_DIR, name)));
  const evaluation = labelPaths(flags.get('evaluate'), () => (flags.has('labels') ? [] : HELD_OUT_LABEL_FILES.map((name) => join(LABEL_DIR, name))));
  const l2 = Number(flags.get('l2') ?? 1);
  if (!(l2 >= 0)) throw new BenchUsageError(`flag --l2 ${flags.get('l2')} is invalid: use a number ≥ 0`);
  const wrongCost = Number(flags.get('wrong-cost') ?? 2);
  if (!(wrongCost >= 0)) throw new BenchUsageError(`flag --wrong-cost ${flags.get('wrong-cost')} is invalid: use a number ≥ 0`);
  if (training.length === 0) throw new BenchUsageError('no training label files: pass --labels <files>');

  const progress = (path: string, count: number) => console.error(`  ${basename(path)}: ${count} answers the model could act on`);
  console.error(`judging ${training.length} training file(s) with the paraphrase model off…`);
  const train = await examples(training, progress);
  const files = [...new Set(train.map((example) => example.file))];
  const folds = Math.min(FOLDS, files.length);
  const crossValidated: { example: Example; p: number }[] = [];
  if (folds >= 2) {
    for (let fold = 0; fold < folds; fold++) {
      const heldFiles = new Set(files.filter((_, index) => index % folds === fold));
      const model = { ...fitLogistic(train.filter((example) => !heldFiles.has(example.file)), l2), features: PARAPHRASE_FEATURES, threshold: 0.5 };
      for (const example of train.filter((candidate) => heldFiles.has(candidate.file))) crossValidated.push({ example, p: paraphraseProbability(model, example.features) });
    }
  }
  const cvRows = thresholdRows(crossValidated);
  // Ties go to the higher threshold; nothing worth reading (every utility ≤ 0) leaves the model off (threshold 1).
  let chosen = 1;
  let best = 0;
  for (const row of cvRows) {
    const utility = row.correctRead - wrongCost * row.flawedRead;
    if (utility > 0 && utility >= best) [chosen, best] = [row.threshold, utility];
  }
  const model: ParaphraseModel = { ...fitLogistic(train, l2), features: PARAPHRASE_FEATURES, threshold: chosen };
  // No threshold worth using: the model would pass as many flawed answers as it reads correct ones.
  const usable = best > 0;
  if (folds >= 2) printRows(`cross-validation over ${files.length} training files (${folds} folds, each file held out once), ${train.length} answers`, cvRows);
  else console.log('\n(one training file: no cross-validation, so no threshold can be chosen; spread the labels over several files)');
  if (usable) console.log(`\nthreshold: ${chosen} (the most correct answers read minus ${wrongCost} × the flawed ones, cross-validated: ${best})`);
  else console.log(`\nno threshold reads more correct answers than ${wrongCost} × the flawed ones it passes: do not use this fit (model: null in the JSON; run the judge with the model off, --paraphrase-model off, or label more answers)`);
  console.log(formatTable(['feature', 'mean', 'scale', 'weight'], PARAPHRASE_FEATURES.map((name, i) => [name, String(model.mean[i]), String(model.scale[i]), String(model.weights[i])])));
  let evaluated: ThresholdRow[] | null = null;
  if (evaluation.length > 0) {
    console.error(`judging ${evaluation.length} evaluation file(s)…`);
    const test = await examples(evaluation, progress);
    evaluated = thresholdRows(test.map((example) => ({ example, p: paraphraseProbability(model, example.features) })));
    printRows(`evaluation files (${evaluation.length}), ${test.length} answers, the model fitted on all training files`, evaluated);
  }
  console.log(JSON.stringify({ bench: 'paraphrase', trainingFiles: training.map((path) => basename(path)), answers: train.length, l2, wrongCost, model: usable ? model : null, fitted: model, crossValidation: cvRows, evaluation: evaluated }));
}

runBenchmark(main);
