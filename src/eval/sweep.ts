import { InvalidInputError } from '../errors.js';
import { checkPipelineSetting, isPipelineSetting, PIPELINE_SETTINGS, type PipelineSettingName } from './pipeline-settings.js';
import { correctAnswerRate } from './question-checks.js';
import { runEval, type EvalConfig } from './runner.js';
import type { EvalResults, RunSummary } from './types.js';

/**
 * A sweep: the same suite run once per value of one numeric pipeline option (`wordCap`, `topK`,
 * …), to choose the value from a measured trade-off instead of a default. Every value runs through
 * `runEval` with the same cache, so a value run before (in this sweep or an earlier one, with the
 * same models) costs no model call. METHODOLOGY.md ("Sweeps") says how to read one.
 */

/** Bump when the sweep results file changes shape. */
export const SWEEP_FORMAT_VERSION = 1;

/** One value's numbers (means across runs when there are several). */
export interface SweepPoint {
  value: number;
  /** RAG-on answers with a hallucinated claim / checkable RAG-on answers (the judge's, answer level). */
  hallucinationRate: number | null;
  /** Contradicted and absent claims / all judged claims of RAG-on answers (claim level: not inflated by length). */
  claimHallucinationRate: number | null;
  /** Mean share of an answer's content words not found in its evidence (the lexical proxy, inflated by length). */
  unsupportedWordShare: number | null;
  keywordHitRate: number | null;
  /** Correct answers / questions decided (question-checks.ts). */
  correctAnswerRate: number | null;
  /** Mean words of RAG-on answers that are not refusals. */
  meanWords: number | null;
  refusalRate: number | null;
  falseRefusalRate: number | null;
  /** Every gate passed and every question ran at this value. */
  passed: boolean;
  /** No other value has both a lower (or equal) hallucination rate and a higher (or equal) keyword hit rate, one of them strictly. */
  pareto: boolean;
}

export interface SweepResults {
  format: typeof SWEEP_FORMAT_VERSION;
  kind: 'sweep';
  option: PipelineSettingName;
  values: number[];
  suite: EvalResults['suite'];
  target: EvalResults['target'];
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  points: SweepPoint[];
  /** The Pareto-optimal values, in sweep order. */
  paretoValues: number[];
  /** The full results of each value, in sweep order. */
  results: EvalResults[];
  /** Model calls and cache hits over the whole sweep. */
  usage: { modelCalls: number; cacheHits: number; cacheMisses: number; totalCostUsd: number | null };
}

export interface SweepConfig extends EvalConfig {
  /** The pipeline option to vary (a name from `PIPELINE_SETTINGS`). */
  option: string;
  /** Its values, in the order to run them (at least two, no repeats). */
  values: number[];
  /** Called before each value runs (progress). */
  onValue?: (value: number, index: number) => void;
}

/**
 * Run the suite once per value of `option` and summarize the trade-off.
 *
 * @throws InvalidInputError `invalid_option` for an unknown option, a value out of range, repeats,
 *   fewer than two values, or a target that is not groundcheck's pipeline (`runEval` refuses pipeline settings for it before anything runs).
 * @example
 * const sweep = await runSweep({ suite: 'evals/suites/handbook.json', generator, embedder, option: 'wordCap', values: [100, 125, 150, 175] });
 * console.log(sweep.paretoValues);
 */
export async function runSweep(config: SweepConfig): Promise<SweepResults> {
  const values = checkSweep(config.option, config.values);
  const option = config.option as PipelineSettingName;
  const started = performance.now();
  const now = config.now ?? (() => new Date());
  const startedAt = now().toISOString();
  const results: EvalResults[] = [];
  for (const [index, value] of values.entries()) {
    config.onValue?.(value, index);
    const { option: _option, values: _values, onValue: _onValue, ...base } = config;
    results.push(await runEval({ ...base, pipeline: { ...config.pipeline, [option]: value } }));
  }
  const points = markPareto(results.map((entry, index) => sweepPoint(entry, values[index]!)));
  const calls = results.flatMap((entry) => entry.usage.models);
  const costs = results.map((entry) => entry.usage.totalCostUsd);
  return {
    format: SWEEP_FORMAT_VERSION,
    kind: 'sweep',
    option,
    values,
    suite: results[0]!.suite,
    target: results[0]!.target,
    startedAt,
    finishedAt: now().toISOString(),
    durationMs: performance.now() - started,
    points,
    paretoValues: points.filter((point) => point.pareto).map((point) => point.value),
    results,
    usage: {
      modelCalls: calls.reduce((sum, model) => sum + model.calls, 0),
      cacheHits: results.reduce((sum, entry) => sum + (entry.usage.cache?.hits ?? 0), 0),
      cacheMisses: results.reduce((sum, entry) => sum + (entry.usage.cache?.misses ?? 0), 0),
      totalCostUsd: costs.some((cost) => cost === null) ? null : costs.reduce((sum: number, cost) => sum + cost!, 0),
    },
  };
}

/**
 * Parse `name=v1,v2,…` (the `--sweep` flag).
 *
 * @throws InvalidInputError `usage` naming the problem.
 */
export function parseSweepFlag(flag: string): { option: PipelineSettingName; values: number[] } {
  const match = /^([A-Za-z]+)=(.+)$/.exec(flag.trim());
  if (!match) throw new InvalidInputError(`--sweep ${flag}: use name=value,value,… (e.g. wordCap=100,125,150,175)`, { code: 'usage' });
  const [, option, list] = match as unknown as [string, string, string];
  const values = list.split(',').map((text) => {
    const value = Number(text.trim());
    if (text.trim() === '' || !Number.isFinite(value)) throw new InvalidInputError(`--sweep ${flag}: "${text}" is not a number`, { code: 'usage' });
    return value;
  });
  return { option: option as PipelineSettingName, values: checkSweep(option, values, '--sweep', 'usage') };
}

function checkSweep(option: string, values: number[], where = 'option', code = 'invalid_option'): number[] {
  if (!isPipelineSetting(option)) {
    throw new InvalidInputError(`${where} ${option}: not a numeric pipeline option; use one of ${Object.keys(PIPELINE_SETTINGS).join(', ')}`, { code });
  }
  if (values.length < 2) throw new InvalidInputError(`${where} ${option}: give at least two values to compare`, { code });
  const seen = new Set<number>();
  for (const value of values) {
    try {
      checkPipelineSetting(option, value, where);
    } catch (error) {
      throw new InvalidInputError((error as Error).message, { code });
    }
    if (seen.has(value)) throw new InvalidInputError(`${where} ${option}: ${value} is listed twice`, { code });
    seen.add(value);
  }
  return values;
}

/** One value's numbers from its results (each a mean over runs where it was measured). */
export function sweepPoint(results: EvalResults, value: number): SweepPoint {
  const perRun = (measure: (run: RunSummary) => number | null) => mean(results.runs.map(measure));
  return {
    value,
    hallucinationRate: results.aggregate.hallucinationRate?.mean ?? null,
    claimHallucinationRate: perRun((run) => {
      const { verified, contradicted, absent } = run.faithfulness.rag.verdicts;
      const claims = verified + contradicted + absent;
      return claims === 0 ? null : (contradicted + absent) / claims;
    }),
    unsupportedWordShare: perRun((run) => mean(answered(run).map((question) => (question.rag!.contentWordOverlap === null ? null : 1 - question.rag!.contentWordOverlap)))),
    keywordHitRate: results.aggregate.keywordHitRate?.mean ?? null,
    correctAnswerRate: perRun(correctAnswerRate),
    meanWords: perRun((run) => mean(answered(run).map((question) => question.rag!.words))),
    refusalRate: results.aggregate.refusalRate?.mean ?? null,
    falseRefusalRate: results.aggregate.falseRefusalRate?.mean ?? null,
    passed: results.passed,
    pareto: false,
  };
}

/**
 * Mark the Pareto-optimal points: lower hallucination and higher keyword hit are both better. A
 * point missing either number is never optimal.
 */
export function markPareto(points: SweepPoint[]): SweepPoint[] {
  const measured = (point: SweepPoint) => point.hallucinationRate !== null && point.keywordHitRate !== null;
  return points.map((point) => {
    if (!measured(point)) return { ...point, pareto: false };
    const dominated = points.some(
      (other) =>
        other !== point &&
        measured(other) &&
        other.hallucinationRate! <= point.hallucinationRate! &&
        other.keywordHitRate! >= point.keywordHitRate! &&
        (other.hallucinationRate! < point.hallucinationRate! || other.keywordHitRate! > point.keywordHitRate!),
    );
    return { ...point, pareto: !dominated };
  });
}

/** RAG-on answers that ran and are not refusals. */
function answered(run: RunSummary) {
  return run.questions.filter((question) => question.status === 'ok' && question.rag !== null && !question.rag.refused);
}

function mean(values: (number | null)[]): number | null {
  const measured = values.filter((value): value is number => value !== null);
  return measured.length === 0 ? null : measured.reduce((sum, value) => sum + value, 0) / measured.length;
}
