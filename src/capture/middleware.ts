import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { InvalidInputError } from '../errors.js';
import type { RagTrace } from '../contract/trace.js';
import { createLogger } from './logging.js';
import { createCaptureMetrics, type CaptureMetrics } from './metrics.js';
import { describeOptionValue } from './option-value.js';
import { recordAcceptor } from './record-input.js';
import { createRedactor, redactPersonalData } from './redact.js';
import { RequestContext, type CapturedRequest } from './request-context.js';
import { isSampled } from './sampling.js';
import { DEFAULT_CAPTURE_DB_PATH, openCaptureStore, PostgresCaptureStore } from './store.js';
import { applyLimits, captureFromTrace, DEFAULT_CAPTURE_LIMITS, type CaptureLimits } from './to-capture.js';
import type { Capture, CaptureSink, HttpFacts } from './types.js';

export interface CaptureRagOptions {
  /**
   * Where captures go: a {@link CaptureSink} (a `CaptureStore` or your own), a path of a SQLite
   * capture file, or a `postgres://` URL (`openCaptureStore`). [store='.groundcheck/captures.db']
   */
  store?: CaptureSink | string;
  /** Share of traces kept, 0–1, decided by hashing the trace id (nested across rates). [sampleRate=1] */
  sampleRate?: number;
  /**
   * Applied to every capture before anything is written or logged. `false` stores text as is.
   * [redact=redactPersonalData: masks e-mail addresses, phone-like numbers and long digit runs]
   */
  redact?: ((capture: Capture) => Capture) | false;
  /**
   * The secret the default redaction keys its placeholders with (`[email:3fa2c1d9]`): the same
   * value gets the same token in every capture of the store, and a token reveals nothing without
   * the key. Keep one per store. [redactionKey=the store's `redactionKey` when it has one, else a
   * random key per process (tokens then match only within one process)]
   */
  redactionKey?: string | Uint8Array;
  /** Size caps; captures that hit one are stored marked `truncated` and are not judged. [limits=DEFAULT_CAPTURE_LIMITS] */
  limits?: Partial<CaptureLimits>;
  /** pino logger for the per-capture line and for failures. [logger=createLogger()] */
  logger?: Logger;
  /** Prometheus metrics (share them with the judge worker and `/metrics`). [metrics=createCaptureMetrics()] */
  metrics?: CaptureMetrics;
  /** Captures waiting to be written; beyond it new ones are dropped and counted as failures. [maxQueue=10000] */
  maxQueue?: number;
  /** Called after a batch was written (e.g. to wake an in-process judge worker). */
  onWritten?: (captures: readonly Capture[]) => void;
  /** Clock, for tests. [now=() => new Date()] */
  now?: () => Date;
  /**
   * Your app's refusal sentence, so a plain record (`req.rag.record({ query, chunks, answer })`)
   * that refuses is recognised as a refusal (common paraphrases are recognised anyway).
   * [refusalSentence=REFUSAL_SENTENCE]
   */
  refusalSentence?: string;
}

export interface CaptureRagMiddleware {
  (req: Request, res: Response, next: NextFunction): void;
  readonly store: CaptureSink;
  readonly metrics: CaptureMetrics;
  readonly logger: Logger;
  readonly sampleRate: number;
  /** Captures waiting to be written. */
  readonly queued: number;
  /** Resolves once every capture queued so far has been written (or counted as failed). */
  flush(): Promise<void>;
}

/** Captures queued within this many milliseconds are written in one transaction. */
export const WRITE_BATCH_MS = 100;
/**
 * At most this many captures per transaction; when this many are waiting, they are written at
 * once (after pending I/O) instead of at the end of the window. Bounds how long one write holds
 * the event loop (a few milliseconds at this size) however busy the app is.
 */
export const MAX_WRITE_BATCH = 64;

/**
 * Express middleware that records RAG traces per request and persists them after the response
 * finishes: the exact chunks (ids, hashes, text, scores), the answer, refusal, models, usage and
 * HTTP facts. Writes are batched (one transaction per {@link WRITE_BATCH_MS} ms) after the
 * response, never on the request path; a failing store is counted
 * (`groundcheck_capture_failures_total`) and logged, never thrown.
 *
 * @example
 * const capture = captureRag({ store: openCaptureStore({ path: '.groundcheck/captures.db' }), sampleRate: 0.5 });
 * app.use(capture);
 * app.post('/chat', express.json(), async (req, res) => {
 *   const trace = await pipeline.ask(req.body.message);
 *   req.rag?.record(trace);
 *   res.json(toAnswerPayload(trace));
 * });
 */
export function captureRag(options: CaptureRagOptions = {}): CaptureRagMiddleware {
  const config = normalizeOptions(options);
  const { store, metrics, logger, redact, limits, sampleRate, maxQueue, now } = config;

  const acceptRecord = recordAcceptor({ metrics, logger, now, refusalSentence: config.refusalSentence });
  const queue: Capture[] = [];
  let timer: NodeJS.Timeout | null = null;
  let writeSoon = false;
  let writing: Promise<void> = Promise.resolve();

  function enqueue(context: RequestContext, traces: readonly RagTrace[]): void {
    const { req, res } = context;
    const finishedAt = performance.now();
    // The same for every trace of the request: built once, at the first trace that is kept.
    let http: HttpFacts | undefined;
    for (const trace of traces) {
      // Runs in the response's 'close' listener or in record(): nothing may escape into the app.
      try {
        if (!isSampled(trace.id, sampleRate)) {
          metrics.sampledOut.inc();
          continue;
        }
        if (queue.length >= maxQueue) {
          metrics.captureFailures.inc({ reason: 'queue_full' });
          logger.error({ event: 'rag.capture.dropped', traceId: trace.id, maxQueue }, 'capture dropped: the write queue is full (the store is too slow or failing)');
          continue;
        }
        http ??= {
          requestId: requestIdOf(req),
          capturedAt: now().toISOString(),
          route: routeOf(req),
          method: req.method,
          status: res.statusCode,
          latencyMs: roundMs(finishedAt - context.startedAt),
          aborted: context.aborted,
          firstTokenMs: context.firstTokenAt === null ? null : roundMs(context.firstTokenAt - context.startedAt),
        };
        queue.push(captureFromTrace(trace, http));
      } catch (error) {
        metrics.captureFailures.inc({ reason: 'build' });
        logger.error({ event: 'rag.capture.failed', err: error }, 'capture failed: the recorded value is not a RagTrace');
      }
    }
    if (queue.length >= MAX_WRITE_BATCH) scheduleWrite(true);
    else if (queue.length > 0) scheduleWrite(false);
  }

  /**
   * Write on a timer: after the response has been handed to the socket, never inside the request,
   * gathering the captures of WRITE_BATCH_MS into one transaction (each commit writes the pages it
   * touched, whatever their number of captures; bench:middleware), or at once when a full batch
   * is waiting.
   */
  function scheduleWrite(now: boolean): void {
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

  async function writeBatch(): Promise<void> {
    const batch = queue.splice(0, MAX_WRITE_BATCH);
    // More waiting than one transaction takes: the rest goes in the next one, after pending I/O.
    if (queue.length > 0) scheduleWrite(queue.length >= MAX_WRITE_BATCH);
    if (batch.length === 0) return;
    if (!(await storeReady(batch))) return;
    // Each capture on its own: one that the redaction or the caps choke on is lost alone.
    const prepared: Capture[] = [];
    for (const capture of batch) {
      try {
        prepared.push(applyLimits(redact ? redact(capture) : capture, limits));
      } catch (error) {
        metrics.captureFailures.inc({ reason: 'build' });
        logger.error({ event: 'rag.capture.failed', err: error, traceId: capture.traceId }, 'capture failed: redact threw; the capture is lost');
      }
    }
    if (prepared.length === 0) return;
    const written = await writeIsolated(prepared);
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
   * A store that connects first (Postgres) knows its redaction key once it is ready: wait for it
   * before redacting. When it cannot start, the batch is lost like any failed write.
   */
  async function storeReady(batch: Capture[]): Promise<boolean> {
    if (!(store instanceof PostgresCaptureStore)) return true;
    try {
      await store.ready();
      return true;
    } catch (error) {
      failedWrites(batch.map((capture) => ({ capture, error })), batch.length);
      return false;
    }
  }

  /**
   * Write the batch in one call; when that fails, write each capture alone, so a capture the
   * store refuses (a value its schema rejects) never takes the valid ones of its batch with it.
   * The SQLite store writes a batch in one transaction, so a failed batch wrote nothing and the
   * retries cannot duplicate; a sink of your own should ignore a trace id it already holds.
   * Returns the captures that were written.
   */
  async function writeIsolated(prepared: Capture[]): Promise<Capture[]> {
    let batchError: unknown;
    try {
      await store.writeCaptures(prepared);
      return prepared;
    } catch (error) {
      batchError = error;
    }
    if (prepared.length === 1) {
      failedWrites([{ capture: prepared[0]!, error: batchError }], 1);
      return [];
    }
    const written: Capture[] = [];
    const failed: { capture: Capture; error: unknown }[] = [];
    for (const capture of prepared) {
      try {
        await store.writeCaptures([capture]);
        written.push(capture);
      } catch (error) {
        failed.push({ capture, error });
      }
    }
    failedWrites(failed, prepared.length);
    return written;
  }

  function failedWrites(failed: readonly { capture: Capture; error: unknown }[], batchSize: number): void {
    if (failed.length === 0) return;
    metrics.captureFailures.inc({ reason: 'store' }, failed.length);
    if (failed.length === batchSize) {
      // The store refuses everything (closed, disk full, locked): one line, not one per capture.
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

  function captureRagMiddleware(req: Request, res: Response, next: NextFunction): void {
    const context = new RequestContext(req as CapturedRequest, res, enqueue, acceptRecord);
    req.rag = context;
    // 'close' comes once per response, after 'finish' when it completed, or alone when the
    // connection ended first: one listener, never removed (it goes with the response).
    res.on('close', context.done);
    next();
  }

  return Object.defineProperties(captureRagMiddleware, {
    store: { value: store, enumerable: true },
    metrics: { value: metrics, enumerable: true },
    logger: { value: logger, enumerable: true },
    sampleRate: { value: sampleRate, enumerable: true },
    queued: { get: () => queue.length, enumerable: true },
    flush: {
      value: async () => {
        // Drain whatever is queued now, without waiting for the batch timer.
        for (;;) {
          if (timer !== null) {
            clearTimeout(timer);
            timer = null;
          }
          if (queue.length > 0) writing = writing.then(writeBatch);
          await writing;
          if (queue.length === 0) return;
        }
      },
    },
  }) as CaptureRagMiddleware;
}

interface NormalizedOptions {
  store: CaptureSink;
  metrics: CaptureMetrics;
  logger: Logger;
  redact: ((capture: Capture) => Capture) | false;
  limits: CaptureLimits;
  sampleRate: number;
  maxQueue: number;
  now: () => Date;
  onWritten: ((captures: readonly Capture[]) => void) | undefined;
  refusalSentence: string | undefined;
}

/**
 * Keyed placeholders under the option's key, else the store's, else the process default. A
 * Postgres store's key is read at the first capture (`storeReady` waited for it).
 */
function defaultRedaction(key: string | Uint8Array | undefined, store: CaptureSink): (capture: Capture) => Capture {
  if (key === undefined && store instanceof PostgresCaptureStore) {
    let redact: ((capture: Capture) => Capture) | undefined;
    return (capture) => (redact ??= createRedactor({ key: store.redactionKey }).redactCapture)(capture);
  }
  key ??= (store as { redactionKey?: string | Uint8Array }).redactionKey;
  if (key === undefined) return redactPersonalData;
  return createRedactor({ key }).redactCapture;
}

function normalizeOptions(options: CaptureRagOptions): NormalizedOptions {
  const invalid = (name: string, value: unknown, expected: string) =>
    new InvalidInputError(`captureRag: option ${name} ${describeOptionValue(value)} is invalid: ${expected}`, { code: 'invalid_option' });

  const sampleRate = options.sampleRate ?? 1;
  if (typeof sampleRate !== 'number' || !Number.isFinite(sampleRate) || sampleRate < 0 || sampleRate > 1) {
    throw invalid('sampleRate', sampleRate, 'use a number from 0 to 1');
  }
  if (options.redact !== undefined && options.redact !== false && typeof options.redact !== 'function') {
    throw invalid('redact', options.redact, 'use a function (capture) => capture, or false');
  }
  const maxQueue = options.maxQueue ?? 10_000;
  if (!Number.isInteger(maxQueue) || maxQueue < 1) throw invalid('maxQueue', maxQueue, 'use a whole number of at least 1');
  const limits: CaptureLimits = { ...DEFAULT_CAPTURE_LIMITS };
  for (const [key, value] of Object.entries(options.limits ?? {})) {
    if (!(key in DEFAULT_CAPTURE_LIMITS)) throw invalid(`limits.${key}`, value, `known limits are ${Object.keys(DEFAULT_CAPTURE_LIMITS).join(', ')}`);
    if (value === undefined) continue;
    if (!Number.isInteger(value) || (value as number) < 1) throw invalid(`limits.${key}`, value, 'use a whole number of at least 1');
    limits[key as keyof CaptureLimits] = value as number;
  }
  let store: CaptureSink;
  if (options.store === undefined || typeof options.store === 'string') {
    store = openCaptureStore({ path: options.store ?? DEFAULT_CAPTURE_DB_PATH });
  } else if (typeof (options.store as CaptureSink | null)?.writeCaptures === 'function') {
    store = options.store;
  } else {
    throw invalid('store', options.store, 'use a path or an object with writeCaptures(captures)');
  }
  if (options.onWritten !== undefined && typeof options.onWritten !== 'function') throw invalid('onWritten', options.onWritten, 'use a function');
  if (options.refusalSentence !== undefined && (typeof options.refusalSentence !== 'string' || options.refusalSentence.trim() === '')) {
    throw invalid('refusalSentence', options.refusalSentence, 'use a non-empty string');
  }
  return {
    store,
    metrics: options.metrics ?? createCaptureMetrics(),
    logger: options.logger ?? createLogger(),
    redact: options.redact === false ? false : (options.redact ?? defaultRedaction(options.redactionKey, store)),
    limits,
    sampleRate,
    maxQueue,
    now: options.now ?? (() => new Date()),
    onWritten: options.onWritten,
    refusalSentence: options.refusalSentence,
  };
}


const SAFE_REQUEST_ID = /^[\w.:-]{1,128}$/;

function requestIdOf(req: CapturedRequest): string {
  if (typeof req.id === 'string' || typeof req.id === 'number') return String(req.id);
  const header = req.headers['x-request-id'];
  if (typeof header === 'string' && SAFE_REQUEST_ID.test(header)) return header;
  const generated = randomUUID();
  req.id = generated;
  return generated;
}

function routeOf(req: Request): string {
  const pattern = (req.route as { path?: unknown } | undefined)?.path;
  if (typeof pattern === 'string') return `${req.baseUrl ?? ''}${pattern}`;
  const url = req.originalUrl ?? req.url ?? '';
  const queryAt = url.indexOf('?');
  return queryAt === -1 ? url : url.slice(0, queryAt);
}

function roundMs(milliseconds: number): number {
  return Math.round(milliseconds * 1000) / 1000;
}

function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}
