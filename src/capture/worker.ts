import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { errorMessage, InvalidInputError } from '../errors.js';
import { judgeTrace } from '../judge/index.js';
import type { FaithfulnessJudge, FaithfulnessJudgment } from '../judge/types.js';
import { EMPTY_USAGE } from '../providers/spec.js';
import { createLogger } from './logging.js';
import { flagsOf, outcomeOf } from '../contract/outcome.js';
import { createCaptureMetrics, type CaptureMetrics } from './metrics.js';
import type { CaptureStore } from './store.js';
import { traceFromCapture } from './trace-from-capture.js';
import { judgeVersionOf, type Capture, type StoredJudgment } from './types.js';

export interface JudgeWorkerOptions {
  /** The capture store to read captures from and write judgments to. */
  store: CaptureStore;
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
  /** Clock in ms, for tests. [now=Date.now] */
  now?: () => number;
}

export interface JudgeWorkerStats {
  /** Calls made to the judge (each attempt counts). */
  judgeCalls: number;
  /** Judgments stored by this worker. */
  stored: number;
  /** Failed attempts (retryable, final and auth). */
  failures: number;
}

export interface JudgeWorker {
  /** `kind:model:promptVersion` of the judge: judgments are unique per capture and this. */
  readonly judgeVersion: string;
  readonly owner: string;
  readonly stats: Readonly<JudgeWorkerStats>;
  readonly paused: boolean;
  /** Why the worker paused (the judge's error), or `null`. */
  readonly pauseReason: string | null;
  readonly running: boolean;
  start(): void;
  /** Look for work soon (new captures were written). */
  nudge(): void;
  /** Leave the pause now instead of waiting `authRetryMs`. */
  resume(): void;
  /** Resolves the next time the worker has nothing it can do now (no settled unjudged capture, nothing in flight). */
  whenIdle(): Promise<void>;
  /** Stop taking work, abort calls in flight, release leases. */
  stop(): Promise<void>;
}

/** Worker instances alive in this process, so a lease of a stopped one can be told from a live one. */
const liveInstances = new Set<string>();

/**
 * The live judge: judges captures out of band with `judgeTrace`, the function the evals use.
 * Its state lives in the capture store (leases, attempts, judgments UNIQUE per capture and judge
 * version), so a killed process loses nothing and never stores a capture's judgment twice; a
 * restarted one resumes, reclaiming leases of dead processes at once.
 *
 * @example
 * const worker = createJudgeWorker({ store, judge: createHeuristicFaithfulnessJudge(), settleMs: 2000 });
 * worker.start();
 * app.use(captureRag({ store, onWritten: () => worker.nudge() }));
 */
export function createJudgeWorker(options: JudgeWorkerOptions): JudgeWorker {
  const config = normalizeOptions(options);
  const { store, judge, logger, metrics, now } = config;
  const judgeVersion = judgeVersionOf(judge.info);
  const instance = randomUUID().slice(0, 8);
  const owner = `${hostname()}:${process.pid}:${instance}`;
  const stats: JudgeWorkerStats = { judgeCalls: 0, stored: 0, failures: 0 };
  const inFlight = new Map<string, AbortController>();
  let running = false;
  let stopping = false;
  /** Why the worker is paused; `null` while it is not (so `paused` is derived, never kept apart from it). */
  let pauseReason: string | null = null;
  let timer: NodeJS.Timeout | null = null;
  let timerAt = Infinity;
  let tickSoon = false;
  let resumeTimer: NodeJS.Timeout | null = null;
  let idleWaiters: (() => void)[] = [];
  let lastReclaim = 0;

  metrics.setQueueDepthSource(() => store.pendingCount(judgeVersion));

  function schedule(delayMs: number): void {
    if (!running || stopping) return;
    const at = now() + Math.max(0, delayMs);
    if (timer && timerAt <= at) return;
    if (timer) clearTimeout(timer);
    timerAt = at;
    timer = setTimeout(() => {
      timer = null;
      timerAt = Infinity;
      tick();
    }, Math.max(0, delayMs));
    if (!config.keepAlive) timer.unref();
  }

  /**
   * One tick on the next turn of the event loop, however many ask for it. Each finished judgment
   * asks; without coalescing, two judgments that settle at once (the heuristic judge never waits)
   * would schedule two ticks, each claiming two more: the ticks doubled every turn and held the
   * event loop for seconds at a time behind a backlog.
   */
  function tickOnNextTurn(): void {
    if (tickSoon) return;
    tickSoon = true;
    setImmediate(() => {
      tickSoon = false;
      tick();
    });
  }

  function notifyIdle(): void {
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  function tick(): void {
    if (!running || stopping) return;
    if (pauseReason !== null) {
      if (inFlight.size === 0) notifyIdle();
      return;
    }
    const free = config.concurrency - inFlight.size;
    let claimed: Capture[] = [];
    if (free > 0) {
      try {
        reclaimDeadLeases();
        const time = now();
        claimed = store.claimPending({ judgeVersion, settledBefore: time - config.settleMs, limit: free, owner, leaseMs: config.leaseMs, now: time });
      } catch (error) {
        logger.error({ event: 'judge.store_failed', err: error }, 'live judge could not read the capture store; retrying');
        schedule(config.pollMs);
        return;
      }
    }
    for (const capture of claimed) {
      const controller = new AbortController();
      inFlight.set(capture.traceId, controller);
      void judgeCapture(capture, controller.signal).finally(() => {
        inFlight.delete(capture.traceId);
        // Next capture on a later turn of the event loop: a judge that settles at once (the
        // heuristic one computes, it never waits) would otherwise chain the whole backlog in
        // microtasks and hold the app's requests until it is done.
        tickOnNextTurn();
      });
    }
    if (claimed.length === 0 && inFlight.size === 0) {
      if (free > 0 && hasUnqueued()) {
        // A new judge version meeting a large file queues its backlog a batch per claim: go on
        // with the next batch on a later turn of the event loop, not idle and not after a poll.
        tickOnNextTurn();
        return;
      }
      notifyIdle();
      schedule(config.pollMs);
    }
  }

  function hasUnqueued(): boolean {
    try {
      return store.hasUnqueuedCaptures(judgeVersion);
    } catch {
      return false;
    }
  }

  function reclaimDeadLeases(): void {
    const time = now();
    if (time - lastReclaim < config.pollMs) return;
    lastReclaim = time;
    const host = hostname();
    for (const leaseOwner of store.leaseOwners(time)) {
      const [ownerHost, pidText, ownerInstance] = leaseOwner.split(':');
      if (ownerHost !== host || leaseOwner === owner) continue;
      const pid = Number(pidText);
      const dead = pid === process.pid ? !liveInstances.has(ownerInstance ?? '') : !processAlive(pid);
      if (dead) {
        const released = store.releaseLeasesOf(leaseOwner);
        if (released > 0) logger.warn({ event: 'judge.reclaimed', owner: leaseOwner, released }, `reclaimed ${released} capture(s) leased by a worker that is gone`);
      }
    }
  }

  async function judgeCapture(capture: Capture, signal: AbortSignal): Promise<void> {
    stats.judgeCalls += 1;
    let judgment: FaithfulnessJudgment;
    try {
      judgment = await judgeTrace(judge, traceFromCapture(capture), { abortSignal: signal });
    } catch (error) {
      // judgeTrace reports failures as values; a throw is a bug or an abort. Either way it is a judge error, never a pass.
      judgment = {
        status: 'error',
        judge: judge.info,
        error: errorMessage(error),
        rawReply: null,
        attempts: 1,
        authError: Boolean((error as { isAuthError?: boolean }).isAuthError),
        usage: { ...EMPTY_USAGE },
        costUsd: null,
        durationMs: 0,
      };
    }
    try {
      handleJudgment(capture, judgment);
    } catch (error) {
      // The lease expires and another round retries; nothing is lost.
      logger.error({ event: 'judge.store_failed', traceId: capture.traceId, err: error }, 'live judge could not store a judgment; the capture will be retried');
    }
  }

  function handleJudgment(capture: Capture, judgment: FaithfulnessJudgment): void {
    if (stopping && judgment.status === 'error') {
      store.releaseLease(capture.traceId, judgeVersion, owner);
      return;
    }
    if (judgment.status === 'ok') {
      const attempts = store.attemptsOf(capture.traceId, judgeVersion) + 1;
      save(capture, judgment, attempts);
      return;
    }
    stats.failures += 1;
    if (judgment.authError) {
      metrics.judgeErrors.inc({ kind: 'auth' });
      store.releaseLease(capture.traceId, judgeVersion, owner);
      pause(judgment.error);
      return;
    }
    const previous = store.attemptsOf(capture.traceId, judgeVersion);
    const delay = Math.min(config.retryMaxMs, config.retryBaseMs * 2 ** previous) * (0.75 + Math.random() * 0.5);
    const attempts = store.recordFailure(capture.traceId, judgeVersion, judgment.error, now() + delay);
    if (attempts >= config.maxAttempts) {
      metrics.judgeErrors.inc({ kind: 'final' });
      save(capture, judgment, attempts);
      return;
    }
    metrics.judgeErrors.inc({ kind: 'retryable' });
    logger.warn(
      { event: 'judge.retry', traceId: capture.traceId, judge: judgeVersion, attempts, retryInMs: Math.round(delay), error: judgment.error },
      `judge attempt ${attempts} of ${config.maxAttempts} failed; retrying`,
    );
    schedule(delay);
  }

  function save(capture: Capture, judgment: FaithfulnessJudgment, attempts: number): void {
    const stored = toStoredJudgment(capture.traceId, judgeVersion, judgment, attempts);
    const inserted = store.saveJudgment(stored);
    if (!inserted) {
      logger.info({ event: 'judge.duplicate', traceId: capture.traceId, judge: judgeVersion }, 'a judgment for this capture and judge version already exists; kept the first');
      return;
    }
    stats.stored += 1;
    const outcome = outcomeOf(flagsOf(judgment));
    metrics.judgments.inc({ outcome });
    const line = {
      event: 'rag.judgment',
      traceId: capture.traceId,
      judge: judgeVersion,
      status: judgment.status,
      outcome,
      attempts,
      costUsd: judgment.costUsd,
      durationMs: Math.round(judgment.durationMs),
      ...(judgment.status === 'ok'
        ? { faithful: judgment.faithful, hallucinated: judgment.hallucinated, refused: judgment.refused, refusalVerdict: judgment.refusalVerdict, answerRelevance: judgment.answerRelevance, counts: judgment.counts }
        : { error: judgment.error }),
    };
    if (judgment.status === 'ok') logger.info(line, 'rag judgment');
    else logger.error(line, 'rag judgment failed after retries; stored as a judge error');
    try {
      config.onJudged?.(capture, stored);
    } catch (error) {
      logger.error({ event: 'judge.on_judged_failed', traceId: capture.traceId, err: error }, 'createJudgeWorker onJudged callback threw');
    }
  }

  function pause(reason: string): void {
    if (pauseReason !== null) return;
    pauseReason = reason;
    metrics.workerPaused.set(1);
    logger.error(
      { event: 'judge.paused', judge: judgeVersion, reason, retryInMs: config.authRetryMs },
      `live judge paused: the judge endpoint refused our credentials or billing (${reason}). ` +
        `Fix the API key or billing; the worker tries again in ${Math.round(config.authRetryMs / 1000)} s. No capture is lost meanwhile.`,
    );
    resumeTimer = setTimeout(() => worker.resume(), config.authRetryMs);
    if (!config.keepAlive) resumeTimer.unref();
  }

  const worker: JudgeWorker = {
    judgeVersion,
    owner,
    stats,
    get paused() {
      return pauseReason !== null;
    },
    get pauseReason() {
      return pauseReason;
    },
    get running() {
      return running;
    },
    start() {
      if (running) return;
      running = true;
      stopping = false;
      liveInstances.add(instance);
      logger.info({ event: 'judge.started', judge: judgeVersion, owner, settleMs: config.settleMs, concurrency: config.concurrency }, 'live judge started');
      schedule(0);
    },
    nudge() {
      schedule(config.settleMs + 5);
    },
    resume() {
      if (resumeTimer) clearTimeout(resumeTimer);
      resumeTimer = null;
      if (pauseReason === null) return;
      pauseReason = null;
      metrics.workerPaused.set(0);
      logger.info({ event: 'judge.resumed', judge: judgeVersion }, 'live judge resumed');
      schedule(0);
    },
    whenIdle() {
      return new Promise<void>((resolve) => {
        idleWaiters.push(resolve);
        schedule(0);
      });
    },
    async stop() {
      if (!running) return;
      stopping = true;
      if (timer) clearTimeout(timer);
      if (resumeTimer) clearTimeout(resumeTimer);
      timer = null;
      resumeTimer = null;
      for (const controller of inFlight.values()) controller.abort();
      while (inFlight.size > 0) await new Promise((resolve) => setTimeout(resolve, 5));
      try {
        store.releaseLeasesOf(owner);
      } catch {
        // The store may already be closed; leases of a stopped instance are reclaimed by the next worker.
      }
      liveInstances.delete(instance);
      running = false;
      metrics.setQueueDepthSource(null);
      notifyIdle();
      logger.info({ event: 'judge.stopped', judge: judgeVersion }, 'live judge stopped');
    },
  };
  return worker;
}

function toStoredJudgment(traceId: string, judgeVersion: string, judgment: FaithfulnessJudgment, attempts: number): StoredJudgment {
  const base = {
    traceId,
    judgeVersion,
    judge: judgment.judge,
    attempts,
    usage: judgment.usage,
    costUsd: judgment.costUsd,
    durationMs: judgment.durationMs,
    judgedAt: new Date().toISOString(),
  };
  if (judgment.status === 'error') {
    return { ...base, status: 'error', claims: [], counts: { verified: 0, contradicted: 0, absent: 0 }, flags: null, error: judgment.error, rawReply: judgment.rawReply };
  }
  return {
    ...base,
    status: 'ok',
    claims: judgment.claims,
    counts: judgment.counts,
    flags: flagsOf(judgment),
    error: null,
    rawReply: null,
  };
}

function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function normalizeOptions(options: JudgeWorkerOptions) {
  const invalid = (name: string, value: unknown, expected: string) =>
    new InvalidInputError(`createJudgeWorker: option ${name} ${JSON.stringify(value)} is invalid: ${expected}`, { code: 'invalid_option' });
  if (!options.store || typeof options.store.claimPending !== 'function') throw invalid('store', typeof options.store, 'use openCaptureStore()');
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
  };
}
