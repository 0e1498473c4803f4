import type { Logger } from 'pino';
import type { CaptureMetrics } from './metrics.js';
import { degradedHealth, isRetryableStoreError, reasonOfStoreError, STORE_OK, type StoreHealth } from './store-health.js';
import { applyLimits, exceedsLimits, type CaptureLimits } from './to-capture.js';
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

export interface CaptureWriterConfig {
  store: CaptureSink & { health?(): StoreHealth };
  metrics: CaptureMetrics;
  logger: Logger;
  redact: ((capture: Capture) => Capture) | false;
  limits: CaptureLimits;
  maxQueue: number;
  onWritten: ((captures: readonly Capture[]) => void) | undefined;
}

export interface CaptureWriter {
  readonly queued: number;
  /** Queue a capture (dropped and counted when the window is full or the writer closed). */
  enqueue(captures: readonly Capture[]): void;
  /** Write these captures now, outside the batch window; resolves once they are written or failed (a retryable failure queues them for a retry). */
  writeNow(captures: readonly Capture[]): Promise<void>;
  flush(): Promise<void>;
  close(timeoutMs: number): Promise<{ lost: number }>;
  health(): CaptureHealth;
}

export function createCaptureWriter(config: CaptureWriterConfig): CaptureWriter {
  const { store, metrics, logger, redact, limits, maxQueue } = config;
  /** Captures as recorded, not yet redacted. */
  const queue: Capture[] = [];
  /** Redacted captures whose write failed with a retryable error, oldest first. */
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
    const dropped: string[] = [];
    for (const capture of captures) {
      if (size() >= maxQueue) dropped.push(capture.traceId);
      else queue.push(capture);
    }
    drop(dropped, 'queue_full');
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

  /** Redaction and caps, each capture on its own: one that they choke on is lost alone. */
  function prepare(captures: readonly Capture[]): Capture[] {
    const prepared: Capture[] = [];
    for (const capture of captures) {
      try {
        const redacted = redact ? redact(capture) : capture;
        // Nothing to cut (the common case): the capture goes on as it is, not copied once more.
        prepared.push(exceedsLimits(redacted, limits) ? applyLimits(redacted, limits) : redacted);
      } catch (error) {
        metrics.captureFailures.inc({ reason: 'build' });
        logger.error({ event: 'rag.capture.failed', err: error, traceId: capture.traceId }, 'capture failed: redact threw; the capture is lost');
      }
    }
    return prepared;
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
    const { written, retry, retryError } = await writeIsolated(prepared);
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
    observeStore();
    if (written.length === 0) return;
    metrics.captures.inc(written.length);
    for (const capture of written) logCapture(capture);
    try {
      config.onWritten?.(written);
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
  async function writeIsolated(prepared: Capture[]): Promise<{ written: Capture[]; retry: Capture[]; retryError?: unknown }> {
    let batchError: unknown;
    try {
      await store.writeCaptures(prepared);
      return { written: prepared, retry: [] };
    } catch (error) {
      if (isRetryableStoreError(error)) return { written: [], retry: prepared, retryError: error };
      batchError = error;
    }
    if (prepared.length === 1) {
      failedWrites([{ capture: prepared[0]!, error: batchError }], 1);
      return { written: [], retry: [] };
    }
    const written: Capture[] = [];
    const retry: Capture[] = [];
    let retryError: unknown;
    const failed: { capture: Capture; error: unknown }[] = [];
    for (const capture of prepared) {
      try {
        await store.writeCaptures([capture]);
        written.push(capture);
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
  function logCapture(capture: Capture): void {
    const chunkIds: string[] = new Array(capture.chunks.length);
    const scores: number[] = new Array(capture.chunks.length);
    for (let index = 0; index < capture.chunks.length; index++) {
      chunkIds[index] = capture.chunks[index]!.chunkId;
      scores[index] = round(capture.chunks[index]!.score);
    }
    logger.info(
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
          answerLength: capture.answer.length,
          latencyMs: capture.latencyMs,
          truncated: capture.truncated,
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

function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}
