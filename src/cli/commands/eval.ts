import { relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_CACHE_PATH, openLlmCache, type LlmCache } from '../../eval/cache.js';
import { cacheText, dollars, formatSpread, HEADLINE_METRICS, seconds } from '../../eval/format.js';
import { mergeGates, parseGateExpression, type Gate } from '../../eval/gates.js';
import { evalModelsFromEnv, type EvalEnv } from '../../eval/models.js';
import { createProgress } from '../../eval/progress.js';
import { intervalFor } from '../../eval/report-markdown.js';
import { runEval } from '../../eval/runner.js';
import { loadSuite } from '../../eval/suite.js';
import type { EvalResults } from '../../eval/types.js';
import { writeReports } from '../../eval/write-reports.js';
import { EXIT, integerFlag, UsageError, type Command } from '../io.js';
import { gatesFile, providerFlag } from '../eval-flags.js';
import { isExplainSuiteArgs, runExplainEvalCommand } from './explain-eval.js';

export const DEFAULT_SUITE = 'evals/suites/handbook.json';
export const DEFAULT_OUT_DIR = 'evals/results';

export const evalCommand: Command = {
  name: 'eval',
  summary: 'Run an eval suite: retrieval, refusals, faithfulness, blind pairwise; reports and gates',
  usage:
    'groundcheck eval [--suite <suite.json|questions.jsonl>] [--corpus <folder>] [--provider local|openai] [--judge-provider local|openai] ' +
    '[--runs <n>] [--seed <n>] [--concurrency <n>] [--out <folder>] [--cache <file>] [--no-cache] [--gate <metric<=x|metric>=x>]... ' +
    '[--gates <file.json>] [--no-gates] [--single-order] [--db <file>]',
  async run(args, io) {
    // A suite file with "kind": "explain-errors" has its own runner (src/eval/explain-runner.ts).
    if (isExplainSuiteArgs(args, io.cwd)) return runExplainEvalCommand(args, io);
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: {
        suite: { type: 'string', default: DEFAULT_SUITE },
        corpus: { type: 'string' },
        provider: { type: 'string' },
        'judge-provider': { type: 'string' },
        runs: { type: 'string', default: '1' },
        seed: { type: 'string', default: '1' },
        concurrency: { type: 'string', default: '4' },
        out: { type: 'string', default: DEFAULT_OUT_DIR },
        cache: { type: 'string' },
        'no-cache': { type: 'boolean', default: false },
        gate: { type: 'string', multiple: true, default: [] },
        gates: { type: 'string' },
        'no-gates': { type: 'boolean', default: false },
        'single-order': { type: 'boolean', default: false },
        db: { type: 'string' },
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

    // Every flag is checked before anything is read or run.
    const gates: Gate[] = values['no-gates']
      ? []
      : mergeGates(values.gates !== undefined ? gatesFile(resolve(io.cwd, values.gates), values.gates) : [], values.gate.map((expression) => parseGateExpression(expression)));
    const suite = loadSuite(values.suite, { cwd: io.cwd, ...(values.corpus !== undefined ? { corpus: values.corpus } : {}) });
    const models = evalModelsFromEnv(io.env as EvalEnv, { ...(provider ? { provider } : {}), ...(judgeProvider ? { judgeProvider } : {}) });

    let cache: LlmCache | null = null;
    if (!values['no-cache']) cache = openLlmCache({ path: resolve(io.cwd, values.cache ?? io.env.GROUNDCHECK_CACHE ?? DEFAULT_CACHE_PATH) });
    const progress = createProgress(io.stderr);
    io.stderr.write(`groundcheck eval: suite ${suite.name} · generator ${models.description.generator} · judge ${models.description.judge}\n`);
    let results: EvalResults;
    try {
      results = await runEval({
        suite,
        generator: models.generator,
        embedder: models.embedder,
        judge: models.judgeChat ? { chat: models.judgeChat } : 'heuristic',
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
        ...(values.db !== undefined ? { indexPath: resolve(io.cwd, values.db) } : {}),
      });
    } finally {
      cache?.close();
    }
    const paths = writeReports(results, resolve(io.cwd, values.out));
    io.stdout.write(`${terminalSummary(results, paths, io.cwd)}\n`);
    return results.passed ? EXIT.ok : EXIT.failure;
  },
};

/** The lines printed when a run ends: headline metrics, gates, where the reports are. */
export function terminalSummary(results: EvalResults, paths: { json: string; markdown: string; html: string }, cwd: string): string {
  const lines: string[] = [];
  lines.push(`${results.suite.name}: ${results.suite.questions} questions, ${results.runs.length} run(s), ${seconds(results.durationMs)}`);
  for (const { metric, label } of HEADLINE_METRICS) {
    const ci = results.runs.length === 1 ? intervalFor(results, metric) : '';
    lines.push(`  ${label.padEnd(40)} ${formatSpread(results, metric)}${ci ? `  95% CI ${ci}` : ''}`);
  }
  const calls = results.usage.models.reduce((sum, model) => sum + model.calls, 0);
  lines.push(`  model calls ${calls}, ${cacheText(results)}, cost ${dollars(results.usage.totalCostUsd)}`);
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
  lines.push(results.passed ? 'PASSED' : 'FAILED');
  return lines.join('\n');
}
