import type { Logger } from 'pino';
import { InvalidInputError } from '../errors.js';
import type { FaithfulnessJudge } from '../judge/types.js';
import type { JudgeQueue } from './capture-store.js';
import { createLogger } from './logging.js';
import { createCaptureMetrics, type CaptureMetrics } from './metrics.js';
import type { Capture, StoredJudgment } from './types.js';

/** The live judge worker's options and their validation (`worker.ts` runs the worker). */

export interface JudgeWorkerOptions {
  /** The capture store to read captures from and write judgments to (its judge queue: any `CaptureStore`). */
  store: JudgeQueue;
  /** The faithfulness judge: the same one the evals use (`createHeuristicFaithfulnessJudge()`, `createLlmFaithfulnessJudge()`). */
  judge: FaithfulnessJudge;
  /** A capture is judged only this long after it was made. [settleMs=3000] */
  settleMs?: number;
  /** Judge calls in flight at once. [concurrency=2] */
  concurrency?: number;
  /** How often an idle worker looks for new captures. [pollMs=1000] */
  pollMs?: number;
  /** Attempts per capture before the failure is stored as a judge error. [maxAttempts=4] */
  maxAttempts?: number;
  /** First retry delay; doubles per attempt, with jitter. [retryBaseMs=2000] */
  retryBaseMs?: number;
  /** Longest retry delay. [retryMaxMs=60000] */
  retryMaxMs?: number;
  /** After pausing on an authentication or billing error, try again after this long. [authRetryMs=300000] */
  authRetryMs?: number;
  /** How long a leased capture stays reserved for this worker; must exceed a judge call. [leaseMs=120000] */
  leaseMs?: number;
  /** [logger=createLogger()] */
  logger?: Logger;
  /** [metrics=createCaptureMetrics()] */
  metrics?: CaptureMetrics;
  /**
   * Called after each judgment this worker stored (not for a duplicate it kept out), e.g. to
   * export it over OTLP (`createOtlpExporter().onJudged`). A throw is logged, never retried.
   */
  onJudged?: (capture: Capture, judgment: StoredJudgment) => void;
  /** Keep the process alive while the worker waits (a standalone worker process). [keepAlive=false] */
  keepAlive?: boolean;
  /** Clock in ms: settle delays, leases, backoff and each judgment's `judgedAt`. [now=Date.now] */
  now?: () => number;
  /** Random numbers in [0, 1) for the retry jitter. [random=Math.random] */
  random?: () => number;
}

/** Validate the options once, at construction, naming the option that is wrong. */
export function normalizeOptions(options: JudgeWorkerOptions) {
  const invalid = (name: string, value: unknown, expected: string) =>
    new InvalidInputError(`createJudgeWorker: option ${name} ${JSON.stringify(value)} is invalid: ${expected}`, { code: 'invalid_option' });
  if (!options.store || typeof options.store.claimPending !== 'function' || typeof options.store.newLeaseOwner !== 'function') {
    throw invalid('store', typeof options.store, 'use openCaptureStore() or another CaptureStore');
  }
  if (options.random !== undefined && typeof options.random !== 'function') throw invalid('random', typeof options.random, 'use a function returning numbers in [0, 1)');
  if (options.now !== undefined && typeof options.now !== 'function') throw invalid('now', typeof options.now, 'use a function returning ms since epoch');
  if (!options.judge || typeof options.judge.judge !== 'function' || !options.judge.info) throw invalid('judge', typeof options.judge, 'use a FaithfulnessJudge');
  const number = (name: keyof JudgeWorkerOptions, fallback: number, min: number) => {
    const value = (options[name] as number | undefined) ?? fallback;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < min) throw invalid(name, value, `use a number of at least ${min}`);
    return value;
  };
  const concurrency = number('concurrency', 2, 1);
  if (!Number.isInteger(concurrency)) throw invalid('concurrency', concurrency, 'use a whole number');
  const maxAttempts = number('maxAttempts', 4, 1);
  if (options.onJudged !== undefined && typeof options.onJudged !== 'function') throw invalid('onJudged', typeof options.onJudged, 'use a function (capture, judgment) => void');
  return {
    store: options.store,
    judge: options.judge,
    settleMs: number('settleMs', 3000, 0),
    concurrency,
    pollMs: number('pollMs', 1000, 1),
    maxAttempts: Math.floor(maxAttempts),
    retryBaseMs: number('retryBaseMs', 2000, 0),
    retryMaxMs: number('retryMaxMs', 60_000, 0),
    authRetryMs: number('authRetryMs', 300_000, 1),
    leaseMs: number('leaseMs', 120_000, 1),
    logger: options.logger ?? createLogger(),
    metrics: options.metrics ?? createCaptureMetrics(),
    onJudged: options.onJudged,
    keepAlive: options.keepAlive ?? false,
    now: options.now ?? Date.now,
    random: options.random ?? Math.random,
  };
}
