import { answerForJudging } from '../contract/notes.js';
import { flagsOf, outcomeOf } from '../contract/outcome.js';
import { errorMessage } from '../errors.js';
import { evidenceFromTrace } from '../judge/evidence.js';
import type { FaithfulnessJudgment } from '../judge/types.js';
import { EMPTY_USAGE } from '../providers/spec.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { isRetryableStoreError } from './store-health.js';
import { normalizeOptions, type JudgeWorkerOptions } from './worker-options.js';
import { judgeVersionOf, type Capture, type StoredJudgment } from './types.js';

export type { JudgeWorkerOptions } from './worker-options.js';

/** Storing a judgment while the store is unavailable: first retry after this long, doubling up to STORE_RETRY_MAX_MS. */
const STORE_RETRY_FIRST_MS = 100;
const STORE_RETRY_MAX_MS = 5000;

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
  /** Stop taking work, abort calls in flight, release this run's leases. */
  stop(): Promise<void>;
}

/**
 * The live judge: judges captures out of band with the judge the evals use, giving it what it
 * reads: the capture's question, its chunks as evidence passages (`evidenceFromTrace`, the
 * evidence `judgeTrace` builds from a trace; for a gate refusal, the chunks the gate withheld) and
 * its answer. Its state lives in the capture store (leases, attempts, judgments UNIQUE per
 * capture and judge version), so a killed process loses
 * nothing and never stores a capture's judgment twice; a restarted one resumes, and the store gives
 * back the leases of workers it can tell are gone (the rest expire).
 *
 * @example
 * const worker = createJudgeWorker({ store, judge: createHeuristicFaithfulnessJudge(), settleMs: 2000 });
 * worker.start();
 * app.use(captureRag({ store, onWritten: () => worker.nudge() }));
 */
export function createJudgeWorker(options: JudgeWorkerOptions): JudgeWorker {
  const config = normalizeOptions(options);
  const { store, judge, logger, metrics, now, random } = config;
  const judgeVersion = judgeVersionOf(judge.info);
  /** This run's lease owner; a new one after each stop (the store retires the old one). */
  let owner = store.newLeaseOwner();
  let ownerRetired = false;
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
  let lastReclaim = -Infinity;
  /** The tick running now (store calls may be asynchronous); one at a time, a request meanwhile runs after it. */
  let ticking: Promise<void> | null = null;
  let tickAgain = false;

  metrics.setQueueDepthSource(() => store.pendingCount(judgeVersion));

  function schedule(delayMs: number): void {
    if (!running || stopping) return;
    // When the timer fires, in the timer's own (real, monotonic) time: the injected clock (`now`)
    // says what is due, not when a timer goes off, and comparing the two let a poll keep a long
    // retry timer after the clock had moved past the retry.
    const at = performance.now() + Math.max(0, delayMs);
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
    if (ticking) {
      tickAgain = true;
      return;
    }
    ticking = runTick()
      .catch((error: unknown) => logger.error({ event: 'judge.store_failed', err: error }, 'live judge tick failed; retrying'))
      .finally(() => {
        ticking = null;
        if (tickAgain) {
          tickAgain = false;
          tickOnNextTurn();
        }
      });
  }

  async function runTick(): Promise<void> {
    if (!running || stopping) return;
    if (pauseReason !== null) {
      if (inFlight.size === 0) notifyIdle();
      return;
    }
    const free = config.concurrency - inFlight.size;
    let claimed: Capture[] = [];
    if (free > 0) {
      try {
        await reclaimAbandonedLeases();
        const time = now();
        claimed = await store.claimPending({ judgeVersion, settledBefore: time - config.settleMs, limit: free, owner, leaseMs: config.leaseMs, now: time });
      } catch (error) {
        logger.error({ event: 'judge.store_failed', err: error }, 'live judge could not read the capture store; retrying');
        schedule(config.pollMs);
        return;
      }
    }
    // Stopped while claiming: stop() releases this owner's leases once this tick is over.
    if (stopping) return;
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
      if (free > 0 && (await hasUnqueued())) {
        // A new judge version meeting a large file queues its backlog a batch per claim: go on
        // with the next batch on a later turn of the event loop, not idle and not after a poll.
        tickOnNextTurn();
        return;
      }
      notifyIdle();
      schedule(config.pollMs);
    }
  }

  async function hasUnqueued(): Promise<boolean> {
    try {
      return await store.hasUnqueuedCaptures(judgeVersion);
    } catch {
      return false;
    }
  }

  /** At most once per poll interval: leases of workers the store can tell are gone come back now instead of at expiry. */
  async function reclaimAbandonedLeases(): Promise<void> {
    const time = now();
    if (time - lastReclaim < config.pollMs) return;
    lastReclaim = time;
    for (const { owner: leaseOwner, released } of await store.reclaimAbandonedLeases(time, owner)) {
      logger.warn({ event: 'judge.reclaimed', owner: leaseOwner, released }, `reclaimed ${released} capture(s) leased by a worker that is gone`);
    }
  }

  async function judgeCapture(capture: Capture, signal: AbortSignal): Promise<void> {
    const judgment = await judgmentOf(capture, signal);
    // A store that is unavailable for now (locked by another process, its file being reopened):
    // keep the judgment and store it again with backoff while the lease lasts, instead of judging
    // the capture again after the lease expires.
    const giveUpAt = now() + config.leaseMs / 2;
    for (let delayMs = STORE_RETRY_FIRST_MS; ; delayMs = Math.min(delayMs * 2, STORE_RETRY_MAX_MS)) {
      try {
        await handleJudgment(capture, judgment);
        return;
      } catch (error) {
        if (!isRetryableStoreError(error) || stopping || now() + delayMs > giveUpAt) {
          // The lease expires and another round retries; nothing is lost.
          logger.error({ event: 'judge.store_failed', traceId: capture.traceId, err: error }, 'live judge could not store a judgment; the capture will be retried');
          return;
        }
        logger.warn({ event: 'judge.store_unavailable', traceId: capture.traceId, err: error, retryInMs: delayMs }, 'live judge could not store a judgment yet; retrying');
        // stop() aborts the wait; the next round then gives up and the lease is released.
        await sleep(delayMs, undefined, { signal }).catch(() => undefined);
      }
    }
  }

  async function judgmentOf(capture: Capture, signal: AbortSignal): Promise<FaithfulnessJudgment> {
    // Part of its evidence is missing from the store (a file edited by hand): judged against less
    // than the model saw, a judgment would not be about this answer. A judge error (retried, then
    // stored) says so instead, and the judge is not called.
    if (capture.unreadable !== undefined) return judgeErrorOf(`capture unreadable: ${capture.unreadable}`);
    stats.judgeCalls += 1;
    try {
      // What the judge reads, straight from the capture: the question, the chunks exactly as the
      // generator saw them (title, section and date as fields; for a gate refusal, the chunks the
      // gate withheld), the answer.
      // Notes the pipeline appended (the outdated-document note) are not claims, as in judgeTrace.
      return await judge.judge({ question: capture.query, evidence: evidenceFromTrace(capture), answer: answerForJudging(capture) }, { abortSignal: signal });
    } catch (error) {
      // Judges report failures as values; a throw is a bug or an abort. Either way it is a judge error, never a pass.
      return judgeErrorOf(errorMessage(error), Boolean((error as { isAuthError?: boolean }).isAuthError));
    }
  }

  function judgeErrorOf(error: string, authError = false): FaithfulnessJudgment {
    return { status: 'error', judge: judge.info, error, rawReply: null, attempts: 1, authError, usage: { ...EMPTY_USAGE }, costUsd: null, durationMs: 0 };
  }

  async function handleJudgment(capture: Capture, judgment: FaithfulnessJudgment): Promise<void> {
    if (stopping && judgment.status === 'error') {
      await store.releaseLease(capture.traceId, judgeVersion, owner);
      return;
    }
    if (judgment.status === 'ok') {
      const attempts = (await store.attemptsOf(capture.traceId, judgeVersion)) + 1;
      await save(capture, judgment, attempts);
      return;
    }
    stats.failures += 1;
    if (judgment.authError) {
      metrics.judgeErrors.inc({ kind: 'auth' });
      await store.releaseLease(capture.traceId, judgeVersion, owner);
      pause(judgment.error);
      return;
    }
    const previous = await store.attemptsOf(capture.traceId, judgeVersion);
    const delay = Math.min(config.retryMaxMs, config.retryBaseMs * 2 ** previous) * (0.75 + random() * 0.5);
    const attempts = await store.recordFailure(capture.traceId, judgeVersion, judgment.error, now() + delay);
    if (attempts >= config.maxAttempts) {
      metrics.judgeErrors.inc({ kind: 'final' });
      await save(capture, judgment, attempts);
      return;
    }
    metrics.judgeErrors.inc({ kind: 'retryable' });
    logger.warn(
      { event: 'judge.retry', traceId: capture.traceId, judge: judgeVersion, attempts, retryInMs: Math.round(delay), error: judgment.error },
      `judge attempt ${attempts} of ${config.maxAttempts} failed; retrying`,
    );
    schedule(delay);
  }

  async function save(capture: Capture, judgment: FaithfulnessJudgment, attempts: number): Promise<void> {
    const stored = toStoredJudgment(capture.traceId, judgeVersion, judgment, attempts, new Date(now()).toISOString());
    const inserted = await store.saveJudgment(stored);
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
    get owner() {
      return owner;
    },
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
      if (ownerRetired) {
        owner = store.newLeaseOwner();
        ownerRetired = false;
      }
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
      // A claim in flight finishes first, so its leases are among those given back below.
      while (ticking !== null || inFlight.size > 0) await (ticking ?? new Promise((resolve) => setTimeout(resolve, 5)));
      try {
        await store.releaseLeasesOf(owner);
      } catch {
        // The store may already be closed; the leases expire (or a later worker reclaims them).
      }
      ownerRetired = true;
      running = false;
      metrics.setQueueDepthSource(null);
      notifyIdle();
      logger.info({ event: 'judge.stopped', judge: judgeVersion }, 'live judge stopped');
    },
  };
  return worker;
}

function toStoredJudgment(traceId: string, judgeVersion: string, judgment: FaithfulnessJudgment, attempts: number, judgedAt: string): StoredJudgment {
  const base = {
    traceId,
    judgeVersion,
    judge: judgment.judge,
    attempts,
    usage: judgment.usage,
    costUsd: judgment.costUsd,
    durationMs: judgment.durationMs,
    judgedAt,
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
