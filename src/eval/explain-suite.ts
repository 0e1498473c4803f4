import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { z } from 'zod';
import { InvalidInputError } from '../errors.js';
import type { ExplanationReference } from '../judge/explanation-criteria.js';
import { parseGateConfig, type Gate } from './gates.js';

/**
 * An explain-errors suite (`"kind": "explain-errors"`): an app that can be made to fail, and the
 * failures, each with the request that triggers it, its group, its known cause and fix location.
 * Loaded here, run by `runExplainEval` (src/eval/explain-runner.ts).
 */

/** Metrics an explain-errors gate may name (the Q&A suite's gates are in `GATE_METRICS`). */
export const EXPLAIN_GATE_METRICS: Readonly<Record<string, string>> = {
  pairwiseWinRate: 'RAG-on explanations against RAG-off, ties count half, over failures with a pairwise outcome',
  positionConsistency: 'share of both-order comparisons whose winner did not depend on the order',
  judgeErrorRate: 'judge errors / judge calls (claim judgments and pairwise trials)',
  ragFoundCauseRate: 'share of RAG-on explanations judged to name the cause',
  noragFoundCauseRate: 'the same for RAG-off',
  ragFixLocationRate: 'share of RAG-on explanations judged to point to the fix location',
  noragFixLocationRate: 'the same for RAG-off (app-frame-keeping truncation)',
  ragNoFabricationRate: 'share of RAG-on explanations with no contradicted or absent claim against the excerpt',
  noragNoFabricationRate: 'the same for RAG-off',
};

export type FailureGroup = 'app-code' | 'stack-named';

export interface ExplainFailure {
  id: string;
  group: FailureGroup;
  request: { method: string; path: string; body: string | null; contentType: string | null };
  /** What the judge is told (the fix location's lines are filled in from the app's source by the runner). */
  reference: ExplanationReference;
}

export interface ExplainSuite {
  kind: 'explain-errors';
  name: string;
  description: string | null;
  /** Absolute path of the app's root. */
  appDir: string;
  /** Absolute path of the module that builds the app. */
  moduleFile: string;
  /** Its export that builds the app: `({ errorHandler }) => express app`. */
  createApp: string;
  /** Frame budget of the trimmed stacks. */
  maxFrames: number;
  failures: ExplainFailure[];
  gates: Gate[];
  source: string;
}

const phrases = z.array(z.array(z.string().min(1)).min(1));
const failureSchema = z
  .object({
    id: z.string().regex(/^[A-Za-z0-9._-]+$/),
    group: z.enum(['app-code', 'stack-named']),
    request: z.object({ method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']), path: z.string().startsWith('/'), body: z.string().optional(), contentType: z.string().optional() }).strict(),
    cause: z.string().min(1),
    fix: z.string().min(1),
    fixLocation: z.union([
      z.string().regex(/^[^:]+:.+$/, 'write file:function'),
      z.object({ file: z.string().min(1).nullable(), symbol: z.string().min(1), aliases: z.array(z.string().min(1)).optional() }).strict(),
    ]),
    causeKeywords: phrases,
    fixKeywords: phrases,
  })
  .strict();
const suiteSchema = z
  .object({
    kind: z.literal('explain-errors'),
    name: z.string().regex(/^[A-Za-z0-9._-]+$/, 'use letters, digits, ".", "-" and "_" only').optional(),
    description: z.string().optional(),
    app: z.string().min(1),
    module: z.string().min(1),
    createApp: z.string().min(1).optional(),
    maxFrames: z.number().int().min(1).max(100).optional(),
    gates: z.unknown().optional(),
    failures: z.array(failureSchema).min(1),
  })
  .strict();

/** The `kind` a suite file declares: `explain-errors`, or `qa` (the default) for anything else, including files that do not parse. */
export function suiteKindOf(path: string): 'qa' | 'explain-errors' {
  if (!path.endsWith('.json') || !existsSync(path) || statSync(path).isDirectory()) return 'qa';
  try {
    const raw = JSON.parse(readFileSync(path, 'utf8')) as { kind?: unknown };
    return raw?.kind === 'explain-errors' ? 'explain-errors' : 'qa';
  } catch {
    return 'qa';
  }
}

/**
 * Load an explain-errors suite; paths inside are relative to the suite file.
 *
 * @throws InvalidInputError `invalid_suite` naming the file and field, or `not_found`.
 * @example
 * const suite = loadExplainSuite('evals/suites/explain-errors.json');
 */
export function loadExplainSuite(path: string, options: { cwd?: string } = {}): ExplainSuite {
  const file = resolve(options.cwd ?? process.cwd(), path);
  if (!existsSync(file) || statSync(file).isDirectory()) throw new InvalidInputError(`suite ${path} not found`, { code: 'not_found' });
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new InvalidInputError(`${path}: not valid JSON (${(error as Error).message})`, { code: 'invalid_suite' });
  }
  const parsed = suiteSchema.safeParse(raw);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `${path}: ${issue.path.length > 0 ? `${issue.path.join('.')}: ` : ''}${issue.message.replace(/^Invalid input: /, '')}`);
    throw new InvalidInputError(lines.join('\n'), { code: 'invalid_suite' });
  }
  const suite = parsed.data;
  const base = dirname(file);
  const appDir = resolve(base, suite.app);
  if (!existsSync(appDir) || !statSync(appDir).isDirectory()) throw new InvalidInputError(`${path}: app: folder ${suite.app} not found`, { code: 'invalid_suite' });
  const moduleFile = resolve(appDir, suite.module);
  if (!existsSync(moduleFile)) throw new InvalidInputError(`${path}: module: ${suite.module} not found in ${suite.app}`, { code: 'invalid_suite' });
  const ids = new Set<string>();
  for (const failure of suite.failures) {
    if (ids.has(failure.id)) throw new InvalidInputError(`${path}: failures: duplicate id "${failure.id}"`, { code: 'invalid_suite' });
    ids.add(failure.id);
  }
  return {
    kind: 'explain-errors',
    name: suite.name ?? basename(file, '.json'),
    description: suite.description ?? null,
    appDir,
    moduleFile,
    createApp: suite.createApp ?? 'createApp',
    maxFrames: suite.maxFrames ?? 6,
    gates: parseGateConfig(suite.gates, path, EXPLAIN_GATE_METRICS),
    failures: suite.failures.map((failure) => {
      const location = typeof failure.fixLocation === 'string' ? splitLocation(failure.fixLocation) : { file: failure.fixLocation.file, symbol: failure.fixLocation.symbol, aliases: failure.fixLocation.aliases ?? [] };
      return {
        id: failure.id,
        group: failure.group,
        request: { method: failure.request.method, path: failure.request.path, body: failure.request.body ?? null, contentType: failure.request.contentType ?? null },
        reference: { cause: failure.cause, fix: failure.fix, fixLocation: { ...location, lines: null }, causeKeywords: failure.causeKeywords, fixKeywords: failure.fixKeywords },
      };
    }),
    source: path,
  };
}

function splitLocation(location: string): { file: string; symbol: string; aliases: string[] } {
  const colon = location.indexOf(':');
  return { file: location.slice(0, colon), symbol: location.slice(colon + 1), aliases: [] };
}
