import type { Logger } from 'pino';
import type { CaptureMetrics } from './metrics.js';
import { degradedHealth, isRetryableStoreError, reasonOfStoreError, STORE_OK, type StoreHealth } from './store-health.js';
import { applyLimits, exceedsLimits, type CaptureLimits } from './to-capture.js';
import { errorFromPlain, type RawWriteOptions, type RawWriteResult } from './sqlite-store/raw-write.js';
import type { Capture, CaptureSink } from './types.js';

/**
 * The middleware's write side: the bounded in-memory window of captures not yet written, the
 * batching, the retries while the store is unavailable, and closing without losing captures
 * silently. `middleware.ts` builds captures and hands them here.
 */

/** Captures queued within this many milliseconds are written in one transaction. */
export const WRITE_BATCH_MS = 100;
/**
 * At most this many captures per transaction; when this many are waiting, they are written at
 * once (after pending I/O) instead of at the end of the window. Bounds how long one write holds
 * the event loop (a few milliseconds at this size) however busy the app is.
 */
export const MAX_WRITE_BATCH = 64;
/** Retrying while the store is unavailable: first after this long, doubling up to {@link MAX_RETRY_DELAY_MS}. */
export const FIRST_RETRY_DELAY_MS = 100;
export const MAX_RETRY_DELAY_MS = 5000;
/** How long `close()` waits for the queue to drain before it counts what is left as lost. */
export const DEFAULT_CLOSE_TIMEOUT_MS = 5000;

/** What `captureRag`'s `health()` says: the store's health (as the middleware saw it) and the captures waiting. */
export interface CaptureHealth extends StoreHealth {
  /** Captures waiting to be written (in the batch window or for a retry). */
  queued: number;
}

/** Levels the per-capture `rag.capture` line may be logged at (`silent`: none). */
export const CAPTURE_LOG_LEVELS = ['trace', 'debug', 'info', 'silent'] as const;
export type CaptureLogLevel = (typeof CAPTURE_LOG_LEVELS)[number];

export interface CaptureWriterConfig {
  store: CaptureSink & { health?(): StoreHealth };
  metrics: CaptureMetrics;
  logger: Logger;
  /** The level of the per-capture `rag.capture` line. */
  captureLogLevel: CaptureLogLevel;
  redact: ((capture: Capture) => Capture) | false;
  /**
   * Set when `redact` is the default redaction: its key (`undefined`: the store's). A store that
   * prepares captures itself (`writeRawCaptures`: the SQLite store, on its writer thread) then
   * redacts and caps them there, and `redact` is not called.
   */
  defaultRedaction?: { key: string | Uint8Array | undefined };
  limits: CaptureLimits;
  maxQueue: number;
  onWritten: ((captures: readonly Capture[]) => void) | undefined;
}

export interface CaptureWriter {
  readonly queued: number;
  /** Captures handed to the store and not yet written (a batch in flight, e.g. on the store's writer thread). */
  readonly writing: number;
  /** Queue a capture (dropped and counted when the window is full or the writer closed). */
  enqueue(captures: readonly Capture[]): void;
  /** Write these captures now, outside the batch window; resolves once they are written or failed (a retryable failure queues them for a retry). */
  writeNow(captures: readonly Capture[]): Promise<void>;
  flush(): Promise<void>;
  close(timeoutMs: number): Promise<{ lost: number }>;
  health(): CaptureHealth;
}

/** A store that redacts, caps and writes captures itself (the SQLite store). */
interface PreparingSink {
  writeRawCaptures(captures: readonly Capture[], options: RawWriteOptions): Promise<RawWriteResult>;
  redactionKey?: string | Uint8Array;
}

/** A capture written, with what its log line and `onWritten` need of the stored form. */
interface Written {
  capture: Capture;
  truncated: boolean;
  answerLength: number;
  /** The capture as stored, when known (`onWritten` receives these). */
  stored: Capture | null;
}

export function createCaptureWriter(config: CaptureWriterConfig): CaptureWriter {
  const { store, metrics, logger, redact, limits, maxQueue, captureLogLevel } = config;
  const preparing = typeof (store as Partial<PreparingSink>).writeRawCaptures === 'function' ? (store as CaptureSink & PreparingSink) : null;
  /** Whether the store redacts and caps (else they run here, before the captures are handed over). */
  const storeKey = config.defaultRedaction?.key ?? preparing?.redactionKey;
  const storePrepares = preparing !== null && (redact === false || (config.defaultRedaction !== undefined && storeKey !== undefined));
  /** `onWritten` declares a parameter: it receives the captures as stored (a copy back from the writer thread). */
  const wantsStored = config.onWritten !== undefined && config.onWritten.length > 0;
  /** Captures as recorded, not yet redacted. */
  const queue: Capture[] = [];
  /** Captures whose write failed with a retryable error, oldest first, as handed to the store (redacted here unless the store redacts). */
  const retrying: Capture[] = [];
  let timer: NodeJS.Timeout | null = null;
  let writeSoon = false;
  let writing: Promise<void> = Promise.resolve();
  let retryTimer: NodeJS.Timeout | null = null;
  let retryDelayMs = 0;
  /** Resolves when the pending retry has run (or was cancelled by close). */
  let retryDone: Promise<void> = Promise.resolve();
  let resolveRetry: () => void = () => {};
  let closed = false;
  /** The store's health as last seen (from `store.health()` or, without one, from the last write). */
  let observed: StoreHealth = STORE_OK;
  let healthFromWrites: StoreHealth = STORE_OK;

  const size = () => queue.length + retrying.length;
  /** Captures in `persist`, between leaving the queue and being written, failed or queued again. */
  let inFlight = 0;

  function drop(traceIds: readonly string[], reason: 'queue_full' | 'shutdown'): void {
    if (traceIds.length === 0) return;
    metrics.captureFailures.inc({ reason }, traceIds.length);
    if (reason === 'queue_full') {
      logger.error({ event: 'rag.capture.dropped', traceIds, maxQueue, store: observed }, `${traceIds.length} capture(s) dropped: ${maxQueue} are waiting to be written already (the store is too slow or unavailable)`);
    } else {
      logger.error({ event: 'rag.capture.lost_at_shutdown', traceIds, store: observed }, `${traceIds.length} capture(s) lost: still unwritten when the capture middleware closed`);
    }
  }

  function enqueue(captures: readonly Capture[]): void {
    if (closed) {
      drop(captures.map((capture) => capture.traceId), 'shutdown');
      return;
    }
    // Allocated only when the window is full: enqueue runs once per captured request.
    let dropped: string[] | null = null;
    for (const capture of captures) {
      if (size() >= maxQueue) (dropped ??= []).push(capture.traceId);
      else queue.push(capture);
    }
    if (dropped !== null) drop(dropped, 'queue_full');
    if (queue.length >= MAX_WRITE_BATCH) scheduleWrite(true);
    else if (queue.length > 0) scheduleWrite(false);
  }

  /**
   * Write on a timer: after the response has been handed to the socket, never inside the request,
   * gathering the captures of WRITE_BATCH_MS into one transaction (each commit writes the pages it
   * touched, whatever their number of captures; bench:middleware), or at once when a full batch
   * is waiting. While a retry is pending, it writes everything queued.
   */
  function scheduleWrite(now: boolean): void {
    if (retryTimer !== null) return;
    if (now) {
      if (writeSoon) return;
      writeSoon = true;
      if (timer !== null) clearTimeout(timer);
      timer = null;
      setImmediate(() => {
        writeSoon = false;
        writing = writing.then(writeBatch);
      });
      return;
    }
    if (timer !== null || writeSoon) return;
    timer = setTimeout(() => {
      timer = null;
      writing = writing.then(writeBatch);
    }, WRITE_BATCH_MS);
  }

  function scheduleRetry(): void {
    if (retryTimer !== null || closed) return;
    if (timer !== null) clearTimeout(timer);
    timer = null;
    retryDelayMs = Math.min(Math.max(retryDelayMs * 2, FIRST_RETRY_DELAY_MS), MAX_RETRY_DELAY_MS);
    retryDone = new Promise((resolve) => (resolveRetry = resolve));
    retryTimer = setTimeout(() => {
      retryTimer = null;
      writing = writing.then(writeBatch).finally(resolveRetry);
    }, retryDelayMs);
  }

  /** Redaction and caps, each capture on its own: one that they choke on is lost alone. Nothing here when the store prepares them. */
  function prepare(captures: readonly Capture[]): Capture[] {
    if (storePrepares) return captures as Capture[];
    const prepared: Capture[] = [];
    for (const capture of captures) {
      try {
        const redacted = redact ? redact(capture) : capture;
        // Nothing to cut (the common case): the capture goes on as it is, not copied once more.
        prepared.push(exceedsLimits(redacted, limits) ? applyLimits(redacted, limits) : redacted);
      } catch (error) {
        buildFailed(capture, error);
      }
    }
    return prepared;
  }

  /** A capture that redaction or the caps choked on (here or in the store): counted and logged, lost alone. */
  function buildFailed(capture: Capture, error: unknown): void {
    metrics.captureFailures.inc({ reason: 'build' });
    logger.error({ event: 'rag.capture.failed', err: error, traceId: capture.traceId }, 'capture failed: redact threw; the capture is lost');
  }

  /**
   * A store that connects first (`ready()`: Postgres) knows its redaction key only once it is
   * ready, so nothing is redacted before. When it cannot start, the captures stay queued, the store
   * shows degraded (`unreachable`) and the write is tried again with backoff.
   */
  async function storeReady(): Promise<boolean> {
    const ready = (store as { ready?: () => Promise<void> }).ready;
    if (typeof ready !== 'function') return true;
    try {
      await ready.call(store);
      return true;
    } catch (error) {
      if (closed) {
        drop(retrying.splice(0).concat(queue.splice(0)).map((capture) => capture.traceId), 'shutdown');
        return false;
      }
      healthFromWrites = degradedHealth(healthFromWrites, 'unreachable', (error as Error | undefined)?.message ?? 'the capture store cannot be reached');
      observeStore();
      scheduleRetry();
      return false;
    }
  }

  async function writeBatch(): Promise<void> {
    if (!(await storeReady())) return;
    const batch = retrying.length > 0 ? retrying.splice(0, MAX_WRITE_BATCH) : prepare(queue.splice(0, MAX_WRITE_BATCH));
    await persist(batch);
    // More waiting than one transaction takes: the rest goes in the next one, after pending I/O
    // (unless the write failed and a retry is pending: it writes them).
    if (size() > 0) scheduleWrite(size() >= MAX_WRITE_BATCH || retrying.length > 0);
  }

  /** Write prepared captures and do the bookkeeping: counted, logged, `onWritten`; a retryable failure goes back in line. */
  async function persist(prepared: Capture[]): Promise<void> {
    if (prepared.length === 0) return;
    inFlight += prepared.length;
    let result: Awaited<ReturnType<typeof writeIsolated>>;
    try {
      result = preparing === null ? await writeIsolated(prepared) : await writeThroughStore(preparing, prepared);
    } finally {
      inFlight -= prepared.length;
    }
    const { written, retry, retryError } = result;
    if (retry.length > 0) {
      if (closed) drop(retry.map((capture) => capture.traceId), 'shutdown');
      else {
        const room = Math.max(0, maxQueue - size());
        retrying.unshift(...retry.slice(0, room));
        drop(retry.slice(room).map((capture) => capture.traceId), 'queue_full');
        scheduleRetry();
      }
      healthFromWrites = degradedHealth(healthFromWrites, reasonOfStoreError(retryError), (retryError as Error | undefined)?.message ?? 'the capture store is unavailable');
    } else {
      retryDelayMs = 0;
      healthFromWrites = STORE_OK;
    }
    // A write that went through on a store seen ok changes nothing: the store checked its file
    // around that write, so asking its health() again (a stat and access checks) would only repeat it.
    if (retry.length > 0 || observed.status !== 'ok') observeStore();
    if (written.length === 0) return;
    metrics.captures.inc(written.length);
    // Nothing is built for a line the logger would drop.
    if (captureLogLevel !== 'silent' && logger.isLevelEnabled(captureLogLevel)) for (const entry of written) logCapture(entry, captureLogLevel);
    try {
      if (wantsStored) config.onWritten!(written.map((entry) => entry.stored ?? entry.capture));
      else if (config.onWritten) (config.onWritten as () => void)();
    } catch (error) {
      logger.error({ err: error }, 'captureRag onWritten callback threw');
    }
  }

  /**
   * Write the batch in one call; when that fails, write each capture alone, so a capture the
   * store refuses (a value its schema rejects) never takes the valid ones of its batch with it.
   * A retryable failure (the store is unavailable: locked, its file gone or read-only) is not the
   * captures' fault: they go back in line whole. The SQLite store writes a batch in one
   * transaction, so a failed batch wrote nothing and the retries cannot duplicate; a sink of your
   * own should ignore a trace id it already holds.
   */
  async function writeIsolated(prepared: Capture[]): Promise<{ written: Written[]; retry: Capture[]; retryError?: unknown }> {
    let batchError: unknown;
    try {
      await store.writeCaptures(prepared);
      return { written: prepared.map(asWritten), retry: [] };
    } catch (error) {
      if (isRetryableStoreError(error)) return { written: [], retry: prepared, retryError: error };
      batchError = error;
    }
    if (prepared.length === 1) {
      failedWrites([{ capture: prepared[0]!, error: batchError }], 1);
      return { written: [], retry: [] };
    }
    const written: Written[] = [];
    const retry: Capture[] = [];
    let retryError: unknown;
    const failed: { capture: Capture; error: unknown }[] = [];
    for (const capture of prepared) {
      try {
        await store.writeCaptures([capture]);
        written.push(asWritten(capture));
      } catch (error) {
        if (isRetryableStoreError(error)) {
          retry.push(capture);
          retryError = error;
        } else failed.push({ capture, error });
      }
    }
    failedWrites(failed, prepared.length);
    return { written, retry, retryError };
  }

  /**
   * Hand the batch to a store that prepares captures itself: it redacts and caps them (unless
   * that was done here), writes them in one transaction, and says what became of each. A batch
   * it cannot take now (unavailable) goes back in line whole, as recorded.
   */
  async function writeThroughStore(sink: PreparingSink, handed: Capture[]): Promise<{ written: Written[]; retry: Capture[]; retryError?: unknown }> {
    const options: RawWriteOptions = storePrepares
      ? { redactionKey: redact === false ? null : storeKey!, limits, returnStored: wantsStored }
      : { redactionKey: null, limits: null, returnStored: false };
    let result: RawWriteResult;
    try {
      result = await sink.writeRawCaptures(handed, options);
    } catch (error) {
      if (isRetryableStoreError(error)) return { written: [], retry: handed, retryError: error };
      failedWrites(handed.map((capture) => ({ capture, error })), handed.length);
      return { written: [], retry: [] };
    }
    const written: Written[] = [];
    const retry: Capture[] = [];
    const failed: { capture: Capture; error: unknown }[] = [];
    result.outcomes.forEach((outcome, index) => {
      const capture = handed[index]!;
      if (outcome.kind === 'written') written.push({ capture, truncated: outcome.truncated, answerLength: outcome.answerLength, stored: outcome.stored ?? (storePrepares ? null : capture) });
      else if (outcome.kind === 'retry') retry.push(capture);
      else if (outcome.kind === 'refused') failed.push({ capture, error: errorFromPlain(outcome.error) });
      else buildFailed(capture, new Error(outcome.message));
    });
    failedWrites(failed, handed.length);
    const retryError = result.retryError === null ? undefined : errorFromPlain(result.retryError, { isRetryable: true });
    return { written, retry, retryError };
  }

  function failedWrites(failed: readonly { capture: Capture; error: unknown }[], batchSize: number): void {
    if (failed.length === 0) return;
    metrics.captureFailures.inc({ reason: 'store' }, failed.length);
    if (failed.length === batchSize) {
      // The store refuses everything (closed, a sink that throws): one line, not one per capture.
      logger.error(
        { event: 'rag.capture.failed', err: failed[0]!.error, traceIds: failed.map(({ capture }) => capture.traceId) },
        `capture store write failed; ${failed.length} capture(s) lost`,
      );
      return;
    }
    for (const { capture, error } of failed) {
      logger.error({ event: 'rag.capture.failed', err: error, traceId: capture.traceId }, 'capture store refused this capture; the others of its batch were written');
    }
  }

  /** Count and log each change of the store's health as the middleware sees it. */
  function observeStore(): StoreHealth {
    let health = healthFromWrites;
    if (store.health) {
      try {
        const reported = store.health();
        // A write just failed retryably but the store already says ok (it recovered meanwhile): the failure counts.
        health = reported.status === 'ok' && healthFromWrites.status === 'degraded' && observed.status === 'ok' ? healthFromWrites : reported;
      } catch {
        // A store whose health() throws is judged by its writes.
      }
    }
    const previous = observed;
    observed = health;
    if (health.status === previous.status && health.reason === previous.reason) return health;
    if (health.status === 'degraded') {
      metrics.storeDegraded.inc({ reason: health.reason ?? 'io_error' });
      logger.error(
        { event: 'rag.capture.store_degraded', reason: health.reason, storeMessage: health.message, queued: size() },
        `capture store degraded (${health.reason}): ${health.message}; captures stay queued (at most ${maxQueue}) and are written when it recovers`,
      );
    } else {
      logger.info({ event: 'rag.capture.store_recovered', after: previous.reason, queued: size() }, `capture store recovered from ${previous.reason}; writing the ${size()} queued capture(s)`);
    }
    return health;
  }

  /**
   * The per-capture line. The trace and request ids are top-level fields; the rest sits in one
   * `capture` object, with the chunk ids and their scores as two arrays in the same order (no
   * object per chunk). One object rather than ten fields because a logger with wildcard redaction
   * paths (`createLogger`'s `*.apiKey`, …) runs its redaction once per top-level field: nested,
   * the line costs about a third less (bench:middleware).
   */
  function logCapture({ capture, truncated, answerLength }: Written, level: Exclude<CaptureLogLevel, 'silent'>): void {
    const chunkIds: string[] = new Array(capture.chunks.length);
    const scores: number[] = new Array(capture.chunks.length);
    for (let index = 0; index < capture.chunks.length; index++) {
      chunkIds[index] = capture.chunks[index]!.chunkId;
      scores[index] = round(capture.chunks[index]!.score);
    }
    logger[level](
      {
        event: 'rag.capture',
        traceId: capture.traceId,
        requestId: capture.requestId,
        capture: {
          route: capture.route,
          status: capture.status,
          mode: capture.mode,
          chunkIds,
          scores,
          refused: capture.refused,
          answerLength,
          latencyMs: capture.latencyMs,
          truncated,
          aborted: capture.aborted,
        },
      },
      'rag capture',
    );
  }

  async function flush(): Promise<void> {
    // Drain whatever is queued now without waiting for the batch timer; a pending retry keeps its
    // backoff (writing at once would spin against a store that fails fast).
    for (;;) {
      if (retryTimer !== null) {
        await retryDone;
        continue;
      }
      if (timer !== null) {
        clearTimeout(timer);
        timer = null;
      }
      if (size() > 0) writing = writing.then(writeBatch);
      await writing;
      if (size() === 0 && retryTimer === null) return;
    }
  }

  async function close(timeoutMs: number): Promise<{ lost: number }> {
    let deadline: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => (deadline = setTimeout(() => resolve('timeout'), timeoutMs)));
    const outcome = await Promise.race([flush().then(() => 'drained' as const), timedOut]);
    clearTimeout(deadline);
    closed = true;
    if (outcome === 'drained') return { lost: 0 };
    if (timer !== null) clearTimeout(timer);
    if (retryTimer !== null) clearTimeout(retryTimer);
    timer = null;
    retryTimer = null;
    resolveRetry();
    const left = [...retrying.splice(0), ...queue.splice(0)].map((capture) => capture.traceId);
    drop(left, 'shutdown');
    return { lost: left.length };
  }

  return {
    get queued() {
      return size();
    },
    get writing() {
      return inFlight;
    },
    enqueue,
    writeNow: async (captures) => {
      if (closed) {
        enqueue(captures);
        return;
      }
      if (!(await storeReady())) {
        enqueue(captures);
        return;
      }
      await persist(prepare(captures));
    },
    flush,
    close,
    health: () => ({ ...observeStore(), queued: size() }),
  };
}

function asWritten(capture: Capture): Written {
  return { capture, truncated: capture.truncated, answerLength: capture.answer.length, stored: capture };
}

function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}
