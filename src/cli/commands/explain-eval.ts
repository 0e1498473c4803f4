import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_CACHE_PATH, openLlmCache, type LlmCache } from '../../eval/cache.js';
import { runExplainEval } from '../../eval/explain-runner.js';
import { explainTerminalSummary, writeExplainReports } from '../../eval/explain-report.js';
import { EXPLAIN_GATE_METRICS, loadExplainSuite, suiteKindOf } from '../../eval/explain-suite.js';
import { mergeGates, parseGateExpression, type Gate } from '../../eval/gates.js';
import { evalModelsFromEnv, type EvalEnv } from '../../eval/models.js';
import { createProgress } from '../../eval/progress.js';
import { gatesFile, providerFlag } from '../eval-flags.js';
import { EXIT, integerFlag, UsageError, type CliIO } from '../io.js';
import { explainingModel } from '../../explain/local-explainer.js';

/**
 * `groundcheck eval --suite <explain-errors suite>`: reached from the eval command when the suite
 * file says `"kind": "explain-errors"`. Takes the eval's flags except `--runs` and `--corpus`.
 */

export const EXPLAIN_EVAL_USAGE =
  'groundcheck eval --suite <explain-errors suite.json> [--provider local|openai] [--judge-provider local|openai] [--seed <n>] [--concurrency <n>] ' +
  '[--out <folder>] [--cache <file>] [--no-cache] [--gate <metric<=x|metric>=x>]... [--gates <file.json>] [--no-gates] [--single-order] [--db <file>]';

/** Whether these eval arguments name an explain-errors suite. */
export function isExplainSuiteArgs(args: readonly string[], cwd: string): boolean {
  let suite: string | undefined;
  args.forEach((arg, index) => {
    if (arg === '--suite') suite = args[index + 1];
    else if (arg.startsWith('--suite=')) suite = arg.slice('--suite='.length);
  });
  return suite !== undefined && suiteKindOf(resolve(cwd, suite)) === 'explain-errors';
}

export async function runExplainEvalCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      suite: { type: 'string' },
      provider: { type: 'string' },
      'judge-provider': { type: 'string' },
      seed: { type: 'string', default: '1' },
      concurrency: { type: 'string', default: '4' },
      out: { type: 'string', default: 'evals/results' },
      cache: { type: 'string' },
      'no-cache': { type: 'boolean', default: false },
      gate: { type: 'string', multiple: true, default: [] },
      gates: { type: 'string' },
      'no-gates': { type: 'boolean', default: false },
      'single-order': { type: 'boolean', default: false },
      db: { type: 'string' },
    },
  });
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  const seed = integerFlag(values.seed, '--seed', 0, 0xffffffff);
  const concurrency = integerFlag(values.concurrency, '--concurrency', 1, 256);
  const provider = providerFlag(values.provider, '--provider');
  const judgeProvider = providerFlag(values['judge-provider'], '--judge-provider');
  if (values['no-cache'] && values.cache !== undefined) throw new UsageError('--cache and --no-cache contradict each other');
  if (values['no-gates'] && (values.gate.length > 0 || values.gates !== undefined)) throw new UsageError('--no-gates cannot be combined with --gate or --gates');
  const gates: Gate[] = values['no-gates'] ? [] : mergeGates(values.gates !== undefined ? gatesFile(resolve(io.cwd, values.gates), values.gates, EXPLAIN_GATE_METRICS) : [], values.gate.map((expression) => parseGateExpression(expression, '--gate', EXPLAIN_GATE_METRICS)));
  const suite = loadExplainSuite(values.suite!, { cwd: io.cwd });
  const models = evalModelsFromEnv(io.env as EvalEnv, { ...(provider ? { provider } : {}), ...(judgeProvider ? { judgeProvider } : {}) });
  let cache: LlmCache | null = null;
  if (!values['no-cache']) cache = openLlmCache({ path: resolve(io.cwd, values.cache ?? io.env.GROUNDCHECK_CACHE ?? DEFAULT_CACHE_PATH) });
  // Offline, the extractive explainer explains, not the offline chat model.
  const explainer = explainingModel(models.generator);
  io.stderr.write(`groundcheck eval: explain-errors suite ${suite.name} · explainer ${explainer === models.generator ? models.description.generator : `${explainer.provider}:${explainer.modelId}`} · judge ${models.description.judge}\n`);
  try {
    const results = await runExplainEval({
      suite,
      generator: models.generator,
      embedder: models.embedder,
      judge: models.judgeChat ? { chat: models.judgeChat } : 'heuristic',
      seed,
      concurrency,
      bothOrders: !values['single-order'],
      maxRetries: models.maxRetries,
      cache,
      cacheNamespace: models.cacheNamespace,
      gates,
      useSuiteGates: !values['no-gates'] && values.gates === undefined,
      progress: createProgress(io.stderr),
      cwd: io.cwd,
      ...(values.db !== undefined ? { indexPath: resolve(io.cwd, values.db) } : {}),
    });
    const paths = writeExplainReports(results, resolve(io.cwd, values.out));
    io.stdout.write(`${explainTerminalSummary(results, paths)}\n`);
    return results.passed ? EXIT.ok : EXIT.failure;
  } finally {
    cache?.close();
  }
}
