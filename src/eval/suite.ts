import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { z } from 'zod';
import { InvalidInputError } from '../errors.js';
import { parseGateConfig, type Gate } from './gates.js';
import { overrideTarget, parseTargetField } from './targets/target-spec.js';
import type { TargetSpec } from './targets/types.js';

/**
 * An eval suite: which corpus, which questions, retrieval settings and default gates. Written as a
 * small JSON file (`evals/suites/handbook.json`); a bare `.jsonl` question file is a suite too.
 */

export interface EvalSuite {
  /** Used in output file names and index file names: letters, digits, `-`, `_`, `.`. */
  name: string;
  description: string | null;
  /** Absolute path of the corpus folder; `null` when the target is not groundcheck and the suite names none. */
  corpusDir: string | null;
  /** Absolute path of the `.jsonl` question set. */
  questionsFile: string;
  /** Chunks handed to the model. [topK=8] */
  topK: number;
  /** Relevance gate override; `null` uses the embedder's suggestion. */
  minSimilarity: number | null;
  /**
   * What the questions are about ("an employee handbook"): the closed-book prompt and the LLM
   * judges' prompts name it. `null`: the prompts' neutral default ("a collection of documents").
   */
  domain: string | null;
  /** The suite's default gates (flags and `--gates` files override them). */
  gates: Gate[];
  /** Where the suite came from (a suite file, or the question file itself). */
  source: string;
  /** What is evaluated: groundcheck's pipeline (default), an HTTP endpoint or a module. */
  target: TargetSpec;
  /** The sentence the app refuses with, for refusal detection and the judges; `null`: groundcheck's `REFUSAL_SENTENCE` (paraphrases are recognised either way). */
  refusal: string | null;
}

export const DEFAULT_CORPUS_DIR = 'fixtures/corpus';
export const DEFAULT_TOP_K = 8;

const suiteFileSchema = z
  .object({
    name: z.string().regex(/^[A-Za-z0-9._-]+$/, 'use letters, digits, ".", "-" and "_" only').optional(),
    description: z.string().optional(),
    /** Relative to the suite file's folder. Required for the groundcheck target. */
    corpus: z.string().min(1).optional(),
    /** Relative to the suite file's folder. */
    questions: z.string().min(1),
    topK: z.number().int().min(1).max(100).optional(),
    minSimilarity: z.number().min(-1).max(1).optional(),
    domain: z.string().trim().min(1).max(200).regex(/^[^\r\n]*$/, 'use one line').optional(),
    gates: z.unknown().optional(),
    /** `"groundcheck"` (default), an http(s) URL, a module path, or `{ "url": … }` / `{ "module": … }` (targets/target-spec.ts). */
    target: z.unknown().optional(),
    /** The sentence the app refuses with. */
    refusal: z.string().trim().min(1).optional(),
  })
  .strict();

export interface LoadSuiteOptions {
  /** Corpus folder for a bare `.jsonl` question file (relative to `cwd`). [corpus='fixtures/corpus'] */
  corpus?: string;
  /** Base for relative paths given on the command line. [cwd=process.cwd()] */
  cwd?: string;
  /** `--target`: overrides the suite's target (a URL keeps the suite's HTTP mapping). */
  target?: string;
}

/**
 * Load a suite from a `.json` suite file (paths inside are relative to the file) or from a bare
 * `.jsonl` question file (the suite is named after the file; the corpus comes from `options.corpus`).
 *
 * @throws InvalidInputError `invalid_suite` naming the file and the field, or `not_found`.
 * @example
 * const suite = loadSuite('evals/suites/handbook.json');
 * const adHoc = loadSuite('fixtures/questions/smoke.jsonl', { corpus: 'fixtures/corpus' });
 */
export function loadSuite(path: string, options: LoadSuiteOptions = {}): EvalSuite {
  const cwd = options.cwd ?? process.cwd();
  const file = resolve(cwd, path);
  if (!existsSync(file) || statSync(file).isDirectory()) {
    throw new InvalidInputError(`suite ${path} not found: give a suite .json file or a question .jsonl file`, { code: 'not_found' });
  }
  if (file.endsWith('.jsonl')) {
    const target = options.target !== undefined ? overrideTarget(options.target, { kind: 'groundcheck' }, cwd) : ({ kind: 'groundcheck' } as const);
    let corpusDir: string | null = null;
    if (target.kind === 'groundcheck') {
      corpusDir = resolve(cwd, options.corpus ?? DEFAULT_CORPUS_DIR);
      checkCorpus(corpusDir, options.corpus ?? DEFAULT_CORPUS_DIR, '--corpus');
    } else if (options.corpus !== undefined) {
      throw new InvalidInputError(`--corpus applies to the groundcheck target; ${options.target} answers from its own documents`, { code: 'usage' });
    }
    return {
      name: safeName(basename(file, '.jsonl')),
      description: null,
      corpusDir,
      questionsFile: file,
      topK: DEFAULT_TOP_K,
      minSimilarity: null,
      domain: null,
      gates: [],
      source: path,
      target,
      refusal: null,
    };
  }
  if (options.corpus !== undefined) {
    throw new InvalidInputError(`--corpus applies to a bare .jsonl question file; ${path} names its own corpus`, { code: 'usage' });
  }
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new InvalidInputError(`${path}: not valid JSON (${(error as Error).message})`, { code: 'invalid_suite' });
  }
  if ((raw as { kind?: unknown } | null)?.kind === 'explain-errors') {
    throw new InvalidInputError(`${path} is an explain-errors suite: run it with \`groundcheck eval --suite ${path}\` or runExplainEval()`, { code: 'invalid_suite' });
  }
  const parsed = suiteFileSchema.safeParse(raw);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `${path}: ${issue.path.length > 0 ? `${issue.path.join('.')}: ` : ''}${issue.message.replace(/^Invalid input: /, '')}`);
    throw new InvalidInputError(lines.join('\n'), { code: 'invalid_suite' });
  }
  const suite = parsed.data;
  const base = dirname(file);
  const suiteTarget = suite.target === undefined ? ({ kind: 'groundcheck' } as const) : parseTargetField(suite.target, base, `${path}: target`);
  const target = options.target !== undefined ? overrideTarget(options.target, suiteTarget, cwd) : suiteTarget;
  let corpusDir: string | null = null;
  if (suite.corpus !== undefined) {
    corpusDir = resolve(base, suite.corpus);
    checkCorpus(corpusDir, suite.corpus, `${path}: corpus`);
  } else if (target.kind === 'groundcheck') {
    throw new InvalidInputError(`${path}: corpus: missing: the groundcheck target needs a corpus folder (or name another "target")`, { code: 'invalid_suite' });
  }
  const questionsFile = resolve(base, suite.questions);
  if (!existsSync(questionsFile)) throw new InvalidInputError(`${path}: questions: ${suite.questions} not found (paths are relative to the suite file)`, { code: 'invalid_suite' });
  return {
    name: suite.name ?? safeName(basename(file, '.json')),
    description: suite.description ?? null,
    corpusDir,
    questionsFile,
    topK: suite.topK ?? DEFAULT_TOP_K,
    minSimilarity: suite.minSimilarity ?? null,
    domain: suite.domain ?? null,
    gates: parseGateConfig(suite.gates, path),
    source: path,
    target,
    refusal: suite.refusal ?? null,
  };
}

function checkCorpus(directory: string, given: string, where: string): void {
  if (!existsSync(directory) || !statSync(directory).isDirectory()) {
    throw new InvalidInputError(`${where}: corpus folder ${given} not found`, { code: 'invalid_suite' });
  }
}

function safeName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, '-');
}
