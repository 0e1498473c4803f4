import { isAbsolute, join, resolve } from 'node:path';
import type { Logger } from 'pino';
import type { Request } from 'express';
import { InvalidInputError } from '../errors.js';
import type { ChatModel, EmbeddingModel } from '../providers/spec.js';
import type { Explanation } from './explain.js';
import type { SourceRetrievalOptions } from './retrieve-source.js';
import type { TruncationStrategy } from './truncate.js';

/** Options of {@link explainErrors} (src/explain/middleware.ts); every one is listed in the README. */
export interface ExplainErrorsOptions {
  /**
   * Turn it on or off explicitly. By default it is on only when `NODE_ENV` is exactly
   * `development`; anywhere else it only passes the error on with `next(err)` (and says so once).
   * [enabled=env.NODE_ENV === 'development']
   */
  enabled?: boolean;
  /** Where `NODE_ENV` and the model settings are read. [env=process.env] */
  env?: Record<string, string | undefined>;
  /** The app's root: frames in it are the app's own, its source is indexed, nothing outside it is read. [root=process.cwd()] */
  root?: string;
  /** Retrieve the app's own source for the model (RAG on); `false` explains from the stack alone. [rag=true] */
  rag?: boolean;
  /** The source index file. [indexPath=<root>/.groundcheck/source-index.db] */
  indexPath?: string;
  /** `lazy`: build the index on the first error and refresh it incrementally; `never`: only use what `groundcheck index-source` built. [buildIndex='lazy'] */
  buildIndex?: 'lazy' | 'never';
  /** Refresh the index at most this often, in ms (checks every file's content). [refreshMs=2000] */
  refreshMs?: number;
  /** More folder names or root-relative paths to leave out of the index (node_modules, dist, build, .git and dot-files always are). [exclude=[]] */
  exclude?: string[];
  /** The model. [chat=the configured provider (modelsFromEnv); offline, the extractive explainer] */
  chat?: ChatModel;
  /** The source index's embedder. [embedder=the configured provider's (modelsFromEnv)] */
  embedder?: EmbeddingModel;
  /** Frames kept in the trimmed stack; the app's own frames are always kept. [maxFrames=10] */
  maxFrames?: number;
  /** `app-frames` keeps every app frame; `tail` keeps the last frames only (a baseline for evals, not for use). [truncation='app-frames'] */
  truncation?: TruncationStrategy;
  /** `Error.stackTraceLimit` is raised to at least this while active. [stackTraceLimit=50] */
  stackTraceLimit?: number;
  /** Source lines on each side of the innermost app frame that go into the retrieval query. [contextLines=3] */
  contextLines?: number;
  /** Retrieval caps: `topK` (6), `candidates` (20), `maxChunksPerFile` (2), `maxChars` (8000), `minSimilarity` (0). */
  retrieval?: SourceRetrievalOptions;
  /** Longest explanation asked for, in words. [wordCap=250] */
  wordCap?: number;
  /** Longest the model may take, in ms. [timeoutMs=30000] */
  timeoutMs?: number;
  /** At most `max` explanations per `windowMs`; over it the page shows the stack without one. `false`: no limit. [rateLimit={ max: 10, windowMs: 60000 }] */
  rateLimit?: { max: number; windowMs: number } | false;
  /** Where the console copy of each explanation goes; `false` for none. [print=writes to stderr] */
  print?: ((text: string) => void) | false;
  /** pino logger for the one line said when inactive, and for failures. [logger=createLogger()] */
  logger?: Logger;
  /** Called with every explanation (after it is recorded on `req.rag`, before the response). */
  onExplanation?: (explanation: Explanation, req: Request) => void;
  /** Clock, for tests. [now=() => new Date()] */
  now?: () => Date;
  /** Trace ids. [generateId=crypto.randomUUID] */
  generateId?: () => string;
}

/** The options after validation, with every default filled in (models excepted: they are resolved only when active). */
export interface NormalizedExplainOptions {
  root: string;
  rag: boolean;
  indexPath: string;
  buildIndex: 'lazy' | 'never';
  refreshMs: number;
  exclude: string[];
  maxFrames: number;
  truncation: TruncationStrategy;
  stackTraceLimit: number;
  contextLines: number;
  retrieval: SourceRetrievalOptions;
  wordCap: number;
  timeoutMs: number;
  rateLimit: { max: number; windowMs: number } | false;
}

/**
 * Check every option once, at construction, naming the option in the error.
 *
 * @throws InvalidInputError `invalid_option`.
 */
export function normalizeExplainOptions(options: ExplainErrorsOptions): NormalizedExplainOptions {
  if (options === null || typeof options !== 'object') throw invalid('options', options, 'an object');
  if (options.enabled !== undefined && typeof options.enabled !== 'boolean') throw invalid('enabled', options.enabled, 'true or false');
  if (options.rag !== undefined && typeof options.rag !== 'boolean') throw invalid('rag', options.rag, 'true or false');
  if (options.root !== undefined && (typeof options.root !== 'string' || options.root === '')) throw invalid('root', options.root, 'a folder path');
  const root = resolve(options.root ?? process.cwd());
  if (options.indexPath !== undefined && (typeof options.indexPath !== 'string' || options.indexPath === '')) throw invalid('indexPath', options.indexPath, 'a file path');
  const indexPath = options.indexPath === undefined ? join(root, '.groundcheck', 'source-index.db') : isAbsolute(options.indexPath) ? options.indexPath : resolve(root, options.indexPath);
  const buildIndex = options.buildIndex ?? 'lazy';
  if (buildIndex !== 'lazy' && buildIndex !== 'never') throw invalid('buildIndex', buildIndex, "'lazy' or 'never'");
  const truncation = options.truncation ?? 'app-frames';
  if (truncation !== 'app-frames' && truncation !== 'tail') throw invalid('truncation', truncation, "'app-frames' or 'tail'");
  if (options.exclude !== undefined && (!Array.isArray(options.exclude) || options.exclude.some((entry) => typeof entry !== 'string'))) throw invalid('exclude', options.exclude, 'a list of folder names or paths');
  let rateLimit: NormalizedExplainOptions['rateLimit'] = { max: 10, windowMs: 60_000 };
  if (options.rateLimit === false) rateLimit = false;
  else if (options.rateLimit !== undefined) {
    if (typeof options.rateLimit !== 'object' || options.rateLimit === null) throw invalid('rateLimit', options.rateLimit, '{ max, windowMs } or false');
    rateLimit = { max: integer('rateLimit.max', options.rateLimit.max, 1, 1_000_000), windowMs: integer('rateLimit.windowMs', options.rateLimit.windowMs, 1, 86_400_000) };
  }
  for (const name of ['chat', 'embedder'] as const) {
    const value = options[name];
    if (value !== undefined && (typeof value !== 'object' || value === null)) throw invalid(name, value, name === 'chat' ? 'a ChatModel' : 'an EmbeddingModel');
  }
  if (options.print !== undefined && options.print !== false && typeof options.print !== 'function') throw invalid('print', options.print, 'a function or false');
  const retrieval = options.retrieval ?? {};
  return {
    root,
    rag: options.rag ?? true,
    indexPath,
    buildIndex,
    refreshMs: integer('refreshMs', options.refreshMs ?? 2000, 0, 86_400_000),
    exclude: options.exclude ?? [],
    maxFrames: integer('maxFrames', options.maxFrames ?? 10, 1, 1000),
    truncation,
    stackTraceLimit: integer('stackTraceLimit', options.stackTraceLimit ?? 50, 10, 10_000),
    contextLines: integer('contextLines', options.contextLines ?? 3, 0, 50),
    retrieval: {
      topK: integer('retrieval.topK', retrieval.topK ?? 6, 1, 50),
      candidates: integer('retrieval.candidates', retrieval.candidates ?? 20, 1, 500),
      maxChunksPerFile: integer('retrieval.maxChunksPerFile', retrieval.maxChunksPerFile ?? 2, 1, 50),
      maxChars: integer('retrieval.maxChars', retrieval.maxChars ?? 8000, 200, 1_000_000),
      minSimilarity: number('retrieval.minSimilarity', retrieval.minSimilarity ?? 0, -1, 1),
    },
    wordCap: integer('wordCap', options.wordCap ?? 250, 20, 5000),
    timeoutMs: integer('timeoutMs', options.timeoutMs ?? 30_000, 1, 3_600_000),
    rateLimit,
  };
}

function integer(name: string, value: unknown, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) throw invalid(name, value, `an integer from ${min} to ${max}`);
  return value;
}

function number(name: string, value: unknown, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) throw invalid(name, value, `a number from ${min} to ${max}`);
  return value;
}

function invalid(name: string, value: unknown, expected: string): InvalidInputError {
  let shown: string;
  try {
    shown = typeof value === 'function' ? 'a function' : JSON.stringify(value) ?? String(value);
  } catch {
    shown = String(value);
  }
  return new InvalidInputError(`option ${name} ${shown} is invalid: use ${expected}`, { code: 'invalid_option' });
}
