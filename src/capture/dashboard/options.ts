import { resolve } from 'node:path';
import type { Request } from 'express';
import type { JudgeInfo } from '../../contract/judgment.js';
import { InvalidInputError } from '../../errors.js';
import { openResultsFolder, type ResultsFolder } from '../../eval/results-folder.js';
import type { CaptureStore } from '../store.js';
import { describeOptionValue } from '../option-value.js';
import type { HomeLink } from './pages.js';
import type { FailureLimitOptions } from './rate-limit.js';
import { isProductionEnv, resolveDashboardToken } from './token-policy.js';
import type { ChunkHashSource } from './views.js';

/** What the dashboard reads from a capture store (any `CaptureStore` has it). */
export type DashboardStore = Pick<CaptureStore, 'getCapture' | 'listCaptures' | 'outcomeCounts'>;

export interface GroundcheckDashboardOptions {
  /** The capture store to show: the one `captureRag` writes to, or the path of its file (opened here; `dashboard.close()` closes it). */
  store: DashboardStore | string;
  /**
   * The token people and scripts must present. `undefined` reads `env.GROUNDCHECK_DASHBOARD_TOKEN`;
   * `null` (or `''`) leaves the dashboard open, which is refused in production. In production a
   * token under 16 characters, or one character repeated, is refused.
   * [token=env.GROUNDCHECK_DASHBOARD_TOKEN]
   */
  token?: string | null;
  /** Read for `NODE_ENV` (`production`, `Production`, `prod` all count) and the token. [env=process.env] */
  env?: Record<string, string | undefined>;
  /**
   * The in-process live judge (`createJudgeWorker`): its judge version picks the judgments shown,
   * and its paused state shows as a banner.
   */
  worker?: { readonly judgeVersion: string; readonly paused: boolean; readonly pauseReason: string | null };
  /** The live judge's identity, shown in the top bar (e.g. `judge.info` of the judge the worker runs). */
  judge?: { readonly info: JudgeInfo };
  /** Show judgments of this judge version only. [judgeVersion=worker.judgeVersion, else the newest judgment of any version] */
  judgeVersion?: string;
  /**
   * Whether a live judge is running (here or as `groundcheck judge-worker`): unjudged captures
   * show as `pending` rather than `not judged`. [judging=true when worker or judgeVersion is given]
   */
  judging?: boolean;
  /** Current chunk hashes, to badge captures whose evidence changed since (a groundcheck index fits). [index=none: no drift shown] */
  index?: ChunkHashSource;
  /**
   * The folder of eval results (`groundcheck eval --out`) whose newest run graded by the live
   * judge's version is shown beside the live rates; relative to the working folder. `false`: no
   * offline rates. [evalResults='evals/results']
   */
  evalResults?: string | false;
  /**
   * Whether `dashboard.traceApi` (the trace API you mount for your pages, e.g. at `/api/traces`)
   * needs the token too. It exposes users' questions and answers to anyone with a trace id.
   * The dashboard's own `<mount>/api/traces/:id` always needs it. [protectTraceApi=true in production, false otherwise]
   */
  protectTraceApi?: boolean;
  /**
   * The `captureRag` middleware writing into this store. A trace the trace API does not find while
   * it still has captures waiting in its write window or being written, or while the response that
   * recorded it has not closed yet, is looked up again once they are written (at most {@link PENDING_WRITE_WAIT_MS}),
   * so a page that polls for a verdict just after its answer gets the capture rather than a 404.
   * [capture=none: a miss is a 404 at once]
   */
  capture?: PendingCaptures;
  /** How long a sign-in lasts. [sessionTtlMs=43200000] (12 hours) */
  sessionTtlMs?: number;
  /** Wrong-token attempts per client before it is refused for the rest of the window; `false` turns it off. [rateLimit={ maxFailures: 10, windowMs: 900000 }] */
  rateLimit?: FailureLimitOptions | false;
  /**
   * What tells clients apart for the rate limit. Behind a proxy, set Express's `trust proxy` so
   * `req.ip` is the client's address, or every client shares one limit. [clientKey=(req) => req.ip]
   */
  clientKey?: (req: Request) => string;
  /** A link back to your app in the top bar, e.g. `{ href: '/', label: 'Chat' }`. [homeLink=none] */
  homeLink?: HomeLink;
  /** Told about weak tokens accepted outside production and clients that hit the rate limit. [logger=none] */
  logger?: { warn(object: object, message: string): void };
  /** Clock (ms since epoch), for session expiry and the rate limit. [now=Date.now] */
  now?: () => number;
}

/** What the trace API reads of a `captureRag` middleware: captures not yet written, and a way to wait for them. */
export interface PendingCaptures {
  readonly queued: number;
  /** Captures being written (`captureRag` has it): waited for like queued ones. */
  readonly writing?: number;
  flush(): Promise<void>;
  /** Whether a request recorded this trace and its response has not closed yet (`captureRag` has it): waited for like a queued capture. */
  recording?(traceId: string): boolean;
}

/** Longest wait of the trace API for queued captures to be written before it answers 404. */
export const PENDING_WRITE_WAIT_MS = 2000;

export interface NormalizedDashboardOptions {
  store: DashboardStore | string;
  token: string | null;
  worker: GroundcheckDashboardOptions['worker'];
  judge: GroundcheckDashboardOptions['judge'];
  judgeVersion: string | undefined;
  judging: boolean;
  index: ChunkHashSource | undefined;
  evalResults: { folder: ResultsFolder; label: string } | null;
  protectTraceApi: boolean;
  capture: PendingCaptures | null;
  sessionTtlMs: number;
  rateLimit: Required<FailureLimitOptions> | null;
  clientKey: (req: Request) => string;
  homeLink: HomeLink | null;
  logger: GroundcheckDashboardOptions['logger'];
  now: () => number;
}

/** Where `groundcheck eval` writes its reports by default. */
export const DEFAULT_EVAL_RESULTS = 'evals/results';
export const DEFAULT_SESSION_TTL_MS = 12 * 60 * 60 * 1000;
export const DEFAULT_RATE_LIMIT: Required<FailureLimitOptions> = Object.freeze({ maxFailures: 10, windowMs: 15 * 60 * 1000, maxClients: 10_000 });

/** Validate the options once, at construction, naming the option at fault. */
export function normalizeDashboardOptions(options: GroundcheckDashboardOptions): NormalizedDashboardOptions {
  const invalid = (name: string, value: unknown, expected: string) =>
    new InvalidInputError(`groundcheckDashboard: option ${name} ${describeOptionValue(value)} is invalid: ${expected}`, { code: 'invalid_option' });
  if (options === null || typeof options !== 'object') throw invalid('options', options, 'pass { store, token? }');
  const env = options.env ?? process.env;
  const store = options.store;
  if (typeof store !== 'string' && (store === null || typeof store !== 'object' || typeof store.listCaptures !== 'function' || typeof store.getCapture !== 'function' || typeof store.outcomeCounts !== 'function')) {
    throw invalid('store', store, 'use a capture store (openCaptureStore()) or the path of its file');
  }
  const token = resolveDashboardToken({ env, ...(options.token !== undefined ? { token: options.token } : {}), ...(options.logger ? { logger: options.logger } : {}) });
  const positive = (name: string, value: number | undefined, fallback: number) => {
    const chosen = value ?? fallback;
    if (!Number.isInteger(chosen) || chosen < 1) throw invalid(name, value, 'use a whole number of at least 1');
    return chosen;
  };
  const sessionTtlMs = positive('sessionTtlMs', options.sessionTtlMs, DEFAULT_SESSION_TTL_MS);
  let rateLimit: Required<FailureLimitOptions> | null = null;
  if (options.rateLimit !== false) {
    const given = options.rateLimit ?? {};
    if (given === null || typeof given !== 'object') throw invalid('rateLimit', given, 'use { maxFailures, windowMs } or false');
    rateLimit = {
      maxFailures: positive('rateLimit.maxFailures', given.maxFailures, DEFAULT_RATE_LIMIT.maxFailures),
      windowMs: positive('rateLimit.windowMs', given.windowMs, DEFAULT_RATE_LIMIT.windowMs),
      maxClients: positive('rateLimit.maxClients', given.maxClients, DEFAULT_RATE_LIMIT.maxClients),
    };
  }
  for (const name of ['clientKey', 'now'] as const) {
    if (options[name] !== undefined && typeof options[name] !== 'function') throw invalid(name, options[name], 'use a function');
  }
  if (options.index !== undefined && typeof options.index?.chunkHashes !== 'function') throw invalid('index', options.index, 'use an object with chunkHashes(), e.g. a groundcheck index');
  if (options.homeLink !== undefined && (typeof options.homeLink?.href !== 'string' || typeof options.homeLink?.label !== 'string')) {
    throw invalid('homeLink', options.homeLink, 'use { href, label }');
  }
  if (options.protectTraceApi !== undefined && typeof options.protectTraceApi !== 'boolean') throw invalid('protectTraceApi', options.protectTraceApi, 'use true or false');
  if (options.capture !== undefined && (typeof options.capture?.flush !== 'function' || typeof options.capture?.queued !== 'number')) {
    throw invalid('capture', options.capture, 'use the captureRag middleware that writes into the store');
  }
  const evalResults = options.evalResults ?? DEFAULT_EVAL_RESULTS;
  if (evalResults !== false && (typeof evalResults !== 'string' || evalResults.trim() === '')) throw invalid('evalResults', options.evalResults, 'use the path of a folder of eval results, or false');
  const judgeVersion = options.judgeVersion ?? options.worker?.judgeVersion;
  return {
    store,
    token,
    worker: options.worker,
    judge: options.judge,
    judgeVersion,
    judging: options.judging ?? judgeVersion !== undefined,
    index: options.index,
    evalResults: evalResults === false ? null : { folder: openResultsFolder(resolve(evalResults)), label: evalResults },
    protectTraceApi: options.protectTraceApi ?? isProductionEnv(env),
    capture: options.capture ?? null,
    sessionTtlMs,
    rateLimit,
    clientKey: options.clientKey ?? ((req) => req.ip ?? req.socket.remoteAddress ?? 'unknown'),
    homeLink: options.homeLink ?? null,
    logger: options.logger,
    now: options.now ?? Date.now,
  };
}
