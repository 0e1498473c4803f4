import { existsSync, readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DEFAULT_CACHE_PATH, openLlmCache, type LlmCache } from '../../eval/cache.js';
import { cacheText, dollars, formatSpread, HEADLINE_METRICS, seconds } from '../../eval/format.js';
import { mergeGates, parseGateExpression, type Gate } from '../../eval/gates.js';
import { gateFiring, gateLine } from '../../eval/gate-report.js';
import { evalModelsFromEnv, type EvalEnv } from '../../eval/models.js';
import type { SentenceEncoder } from '../../judge/heuristic-encoder.js';
import { parseParaphraseModel, type ParaphraseModel } from '../../judge/heuristic-paraphrase.js';
import { createProgress } from '../../eval/progress.js';
import { intervalFor } from '../../eval/report-markdown.js';
import { runEval, type EvalConfig } from '../../eval/runner.js';
import { loadSuite } from '../../eval/suite.js';
import { parseSweepFlag, runSweep } from '../../eval/sweep.js';
import { describeTargetSpec } from '../../eval/targets/target-spec.js';
import type { EvalResults } from '../../eval/types.js';
import { writeReports } from '../../eval/write-reports.js';
import { EXIT, integerFlag, UsageError, type CliIO, type Command } from '../io.js';
import { gatesFile, providerFlag } from '../eval-flags.js';
import { writeEvalOutputs, writeSweepOutputs } from './eval-outputs.js';
import { isExplainSuiteArgs, runExplainEvalCommand } from './explain-eval.js';

export const DEFAULT_SUITE = 'evals/suites/handbook.json';
export const DEFAULT_OUT_DIR = 'evals/results';

/** The example suite shipped inside the package (three folders up from src/cli/commands and dist/cli/commands). */
export const BUNDLED_SUITE = fileURLToPath(new URL('../../../evals/suites/handbook.json', import.meta.url));

/**
 * `--paraphrase-model`: `off` (none), or a JSON file holding a model fitted by `npm run
 * bench:paraphrase` (the model object, or the bench's last line).
 */
function paraphraseModelFlag(value: string, cwd: string): ParaphraseModel | null {
  if (value === 'off') return null;
  const path = resolve(cwd, value);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(`--paraphrase-model ${value} cannot be read (${(error as Error).message}); give a JSON file from npm run bench:paraphrase, or off`);
  }
  try {
    return parseParaphraseModel(text);
  } catch (error) {
    throw new UsageError(`--paraphrase-model ${value} ${(error as Error).message}`);
  }
}

/** The offline judge's config: plain, or with the sentence encoder and/or a paraphrase model other than the shipped one. */
function heuristicJudge(encoder: SentenceEncoder | null, paraphraseModel: ParaphraseModel | null | undefined): EvalConfig['judge'] {
  if (!encoder && paraphraseModel === undefined) return 'heuristic';
  return { heuristic: { ...(encoder ? { encoder } : {}), ...(paraphraseModel !== undefined ? { paraphraseModel } : {}) } };
}

export const evalCommand: Command = {
  name: 'eval',
  summary: 'Run an eval suite against groundcheck, an HTTP endpoint or a module: retrieval, refusals, faithfulness, blind pairwise; reports and gates',
  usage:
    'groundcheck eval [--suite <suite.json|questions.jsonl>] [--corpus <folder>] [--target groundcheck|<http-url>|<module.ts>] [--refusal <sentence>] ' +
    '[--provider local|openai] [--judge-provider local|openai] [--judge-encoder] [--paraphrase-model <model.json>|off] [--runs <n>] [--seed <n>] [--concurrency <n>] [--out <folder>] [--json <file>] [--junit <file>] ' +
    '[--cache <file>] [--no-cache] [--gate <metric<=x|metric>=x>]... [--gates <file.json>] [--no-gates] [--single-order] [--db <file>] [--sweep <option>=<v1>,<v2>,…]',
  async run(args, io) {
    // A suite file with "kind": "explain-errors" has its own runner (src/eval/explain-runner.ts).
    if (isExplainSuiteArgs(args, io.cwd)) return runExplainEvalCommand(args, io);
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: {
        suite: { type: 'string' },
        corpus: { type: 'string' },
        target: { type: 'string' },
        refusal: { type: 'string' },
        provider: { type: 'string' },
        'judge-provider': { type: 'string' },
        'judge-encoder': { type: 'boolean', default: false },
        'paraphrase-model': { type: 'string' },
        runs: { type: 'string', default: '1' },
        seed: { type: 'string', default: '1' },
        concurrency: { type: 'string', default: '4' },
        out: { type: 'string', default: DEFAULT_OUT_DIR },
        json: { type: 'string' },
        junit: { type: 'string' },
        cache: { type: 'string' },
        'no-cache': { type: 'boolean', default: false },
        gate: { type: 'string', multiple: true, default: [] },
        gates: { type: 'string' },
        'no-gates': { type: 'boolean', default: false },
        'single-order': { type: 'boolean', default: false },
        db: { type: 'string' },
        sweep: { type: 'string' },
      },
    });
    if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"; give the suite with --suite`);
    const runs = integerFlag(values.runs, '--runs', 1, 100);
    const seed = integerFlag(values.seed, '--seed', 0, 0xffffffff);
    const concurrency = integerFlag(values.concurrency, '--concurrency', 1, 256);
    const provider = providerFlag(values.provider, '--provider');
    const judgeProvider = providerFlag(values['judge-provider'], '--judge-provider');
    if (values['no-cache'] && values.cache !== undefined) throw new UsageError('--cache and --no-cache contradict each other');
    if (values['no-gates'] && (values.gate.length > 0 || values.gates !== undefined)) throw new UsageError('--no-gates cannot be combined with --gate or --gates');
    if (values.refusal !== undefined && values.refusal.trim() === '') throw new UsageError('--refusal needs the sentence your app refuses with');
    const sweep = values.sweep !== undefined ? parseSweepFlag(values.sweep) : null;
    if (sweep && values.junit !== undefined) throw new UsageError('--junit writes one testcase per question of one eval; a --sweep runs several: drop one of them');

    // Every flag is checked before anything is read or run.
    const gates: Gate[] = values['no-gates']
      ? []
      : mergeGates(values.gates !== undefined ? gatesFile(resolve(io.cwd, values.gates), values.gates) : [], values.gate.map((expression) => parseGateExpression(expression)));
    const suitePath = values.suite ?? defaultSuite(io);
    const suite = loadSuite(suitePath, { cwd: io.cwd, ...(values.corpus !== undefined ? { corpus: values.corpus } : {}), ...(values.target !== undefined ? { target: values.target } : {}) });
    const external = suite.target.kind !== 'groundcheck';
    if (external && (provider !== undefined || values.db !== undefined)) {
      throw new UsageError(`${provider !== undefined ? '--provider' : '--db'} sets up groundcheck's own pipeline; target ${describeTargetSpec(suite.target)} answers by itself (--judge-provider still chooses the judge)`);
    }
    if (external && sweep) throw new UsageError(`--sweep varies groundcheck's pipeline; target ${describeTargetSpec(suite.target)} answers with its own settings`);
    const models = evalModelsFromEnv(io.env as EvalEnv, { ...(provider ? { provider } : {}), ...(judgeProvider ? { judgeProvider } : {}) });
    if (values['judge-encoder'] && models.judgeChat) throw new UsageError('--judge-encoder gives the offline heuristic judge the sentence encoder; the judge here is the LLM judge (--judge-provider local for the offline one)');
    if (values['paraphrase-model'] !== undefined && models.judgeChat) throw new UsageError('--paraphrase-model sets the offline heuristic judge\'s paraphrase model; the judge here is the LLM judge (--judge-provider local for the offline one)');
    const paraphraseModel = values['paraphrase-model'] === undefined ? undefined : paraphraseModelFlag(values['paraphrase-model'], io.cwd);
    // The same judge as `groundcheck judge-worker --judge heuristic-encoder`, so the dashboard can set the two side by side.
    const encoder = values['judge-encoder'] ? await (await import('../../providers/local/sentence-encoder.js')).loadSentenceEncoder() : null;

    let cache: LlmCache | null = null;
    if (!values['no-cache']) cache = openLlmCache({ path: resolve(io.cwd, values.cache ?? io.env.GROUNDCHECK_CACHE ?? DEFAULT_CACHE_PATH) });
    const progress = createProgress(io.stderr);
    const answeredBy = external ? `target ${describeTargetSpec(suite.target)}` : `generator ${models.description.generator}`;
    const paraphraseNote = paraphraseModel === null ? ', paraphrase model off' : paraphraseModel !== undefined ? `, paraphrase model from ${values['paraphrase-model']}` : '';
    io.stderr.write(`groundcheck eval: suite ${suite.name} · ${answeredBy} · judge ${models.description.judge}${encoder ? ' with the sentence encoder' : ''}${paraphraseNote}\n`);
    const config: EvalConfig = {
      suite,
      ...(external ? {} : { generator: models.generator, embedder: models.embedder }),
      judge: models.judgeChat ? { chat: models.judgeChat } : heuristicJudge(encoder, paraphraseModel),
      runs,
      seed,
      concurrency,
      bothOrders: !values['single-order'],
      maxRetries: models.maxRetries,
      cache,
      cacheNamespace: models.cacheNamespace,
      gates,
      useSuiteGates: !values['no-gates'] && values.gates === undefined,
      progress,
      cwd: io.cwd,
      env: io.env,
      ...(values.refusal !== undefined ? { refusalSentence: values.refusal } : {}),
      ...(values.db !== undefined ? { indexPath: resolve(io.cwd, values.db) } : {}),
    };
    try {
      if (sweep) {
        const results = await runSweep({ ...config, ...sweep, onValue: (value, index) => io.stderr.write(`${sweep.option}=${value} (${index + 1}/${sweep.values.length})\n`) });
        io.stdout.write(`${writeSweepOutputs(results, { outDir: resolve(io.cwd, values.out), json: values.json, io })}\n`);
        return results.results.every((entry) => entry.runs.every((run) => run.failedQuestions.length === 0)) ? EXIT.ok : EXIT.failure;
      }
      const results = await runEval(config);
      const paths = writeReports(results, resolve(io.cwd, values.out));
      const extra = writeEvalOutputs(results, { json: values.json, junit: values.junit, io });
      io.stdout.write(`${terminalSummary(results, paths, io.cwd, extra)}\n`);
      return results.passed ? EXIT.ok : EXIT.failure;
    } finally {
      cache?.close();
    }
  },
};

/**
 * The suite when `--suite` is not given: `evals/suites/handbook.json` in the working folder (a
 * checkout), else the example suite shipped in the package (an install), said on stderr.
 *
 * @throws UsageError saying exactly what to pass when neither exists.
 */
export function defaultSuite(io: CliIO, bundled = BUNDLED_SUITE): string {
  if (existsSync(resolve(io.cwd, DEFAULT_SUITE))) return DEFAULT_SUITE;
  if (existsSync(bundled)) {
    io.stderr.write(
      `groundcheck eval: no --suite given: running the bundled example suite (the handbook, 78 questions, offline) from ${bundled}\n` +
        '  its gates are set for a production model, so the offline run fails some (--no-gates reports only)\n' +
        '  for your own app: --suite <suite.json|questions.jsonl> --target <http-url|module.ts>\n',
    );
    return bundled;
  }
  throw new UsageError(`no --suite given and no ${DEFAULT_SUITE} here: pass --suite <suite.json|questions.jsonl> (with --corpus <folder> for a .jsonl), and --target <http-url|module.ts> to evaluate your own app`);
}

/** The lines printed when a run ends: headline metrics, gates, where the reports are. */
export function terminalSummary(results: EvalResults, paths: { json: string; markdown: string; html: string }, cwd: string, written: string[] = []): string {
  const lines: string[] = [];
  lines.push(`${results.suite.name}: ${results.suite.questions} questions, ${results.runs.length} run(s), ${seconds(results.durationMs)}`);
  for (const { metric, label } of HEADLINE_METRICS) {
    const ci = results.runs.length === 1 ? intervalFor(results, metric) : '';
    lines.push(`  ${label.padEnd(40)} ${formatSpread(results, metric)}${ci ? `  95% CI ${ci}` : ''}`);
  }
  lines.push(`  ${gateLine(gateFiring(results))}`);
  const calls = results.usage.models.reduce((sum, model) => sum + model.calls, 0);
  lines.push(`  model calls ${calls}, ${cacheText(results)}, cost ${dollars(results.usage.totalCostUsd)}`);
  if (results.usage.target) lines.push(`  target ${results.target.name}: ${results.usage.target.calls} answers asked, ${results.usage.target.cacheHits} from the cache, ${results.usage.target.failedCalls} failed attempts`);
  for (const failed of results.runs.flatMap((run) => run.failedQuestions)) lines.push(`  question ${failed.questionId} failed: ${failed.error}`);
  if (results.gates.length > 0) {
    const failedGates = results.gates.filter((gate) => !gate.passed);
    lines.push(failedGates.length === 0 ? `gates: all ${results.gates.length} passed` : `gates: ${failedGates.length} of ${results.gates.length} FAILED`);
    for (const gate of results.gates) lines.push(`  ${gate.passed ? 'pass' : 'FAIL'}  ${gate.message}`);
  } else {
    lines.push('gates: none');
  }
  for (const warning of results.warnings) lines.push(`warning: ${warning}`);
  const show = (path: string) => (relative(cwd, path).startsWith('..') ? path : relative(cwd, path));
  lines.push(`reports: ${[paths.html, paths.markdown, paths.json].map(show).join('  ')}`);
  for (const line of written) lines.push(line);
  lines.push(results.passed ? 'PASSED' : 'FAILED');
  return lines.join('\n');
}
