import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { InvalidInputError } from '../errors.js';
import type { RagTrace } from '../rag/trace.js';
import type { RagRequestContext } from './express-request.js';
import { createLogger } from './logging.js';
import { createCaptureMetrics, type CaptureMetrics } from './metrics.js';
import { redactPersonalData } from './redact.js';
import { isSampled } from './sampling.js';
import { DEFAULT_CAPTURE_DB_PATH, openCaptureStore } from './store.js';
import { applyLimits, captureFromTrace, DEFAULT_CAPTURE_LIMITS, type CaptureLimits } from './to-capture.js';
import type { Capture, CaptureSink } from './types.js';

export interface CaptureRagOptions {
  /**
   * Where captures go: a {@link CaptureSink} (the SQLite `CaptureStore` or your own), or a path of
   * a SQLite capture file. [store='.groundcheck/captures.db']
   */
  store?: CaptureSink | string;
  /** Share of traces kept, 0–1, decided by hashing the trace id (nested across rates). [sampleRate=1] */
  sampleRate?: number;
  /**
   * Applied to every capture before anything is written or logged. `false` stores text as is.
   * [redact=redactPersonalData: masks e-mail addresses, phone-like numbers and long digit runs]
   */
  redact?: ((capture: Capture) => Capture) | false;
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

const STATE = Symbol('groundcheck.capture');

/** Captures queued within this many milliseconds are written in one transaction. */
export const WRITE_BATCH_MS = 20;

interface RequestState {
  startedAt: number;
  traces: RagTrace[];
  finished: boolean;
}

type CapturedRequest = Request & { [STATE]?: RequestState; id?: unknown };

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

  const queue: Capture[] = [];
  let timer: NodeJS.Timeout | null = null;
  let writing: Promise<void> = Promise.resolve();

  function enqueue(req: CapturedRequest, res: Response, state: RequestState, traces: RagTrace[]): void {
    const finishedAt = performance.now();
    for (const trace of traces) {
      if (!isSampled(trace.id, sampleRate)) {
        metrics.sampledOut.inc();
        continue;
      }
      if (queue.length >= maxQueue) {
        metrics.captureFailures.inc({ reason: 'queue_full' });
        logger.error({ event: 'rag.capture.dropped', traceId: trace.id, maxQueue }, 'capture dropped: the write queue is full (the store is too slow or failing)');
        continue;
      }
      try {
        queue.push(
          captureFromTrace(trace, {
            requestId: requestIdOf(req),
            capturedAt: now().toISOString(),
            route: routeOf(req),
            method: req.method,
            status: res.statusCode,
            latencyMs: Math.round((finishedAt - state.startedAt) * 1000) / 1000,
          }),
        );
      } catch (error) {
        metrics.captureFailures.inc({ reason: 'build' });
        logger.error({ event: 'rag.capture.failed', err: error }, 'capture failed: the recorded value is not a RagTrace');
      }
    }
    if (queue.length > 0 && timer === null) {
      // On a timer: after the response has been handed to the socket, never inside the request,
      // and gathering the captures of WRITE_BATCH_MS into one transaction (a commit per capture
      // cost about twice as much per capture under load; bench:middleware).
      timer = setTimeout(() => {
        timer = null;
        writing = writing.then(writeBatch);
      }, WRITE_BATCH_MS);
    }
  }

  async function writeBatch(): Promise<void> {
    const batch = queue.splice(0, queue.length);
    if (batch.length === 0) return;
    let prepared: Capture[];
    try {
      prepared = batch.map((capture) => applyLimits(redact ? redact(capture) : capture, limits));
    } catch (error) {
      metrics.captureFailures.inc({ reason: 'build' }, batch.length);
      logger.error({ event: 'rag.capture.failed', err: error, traceIds: batch.map((capture) => capture.traceId) }, `capture failed: redact threw; ${batch.length} capture(s) lost`);
      return;
    }
    try {
      await store.writeCaptures(prepared);
    } catch (error) {
      metrics.captureFailures.inc({ reason: 'store' }, prepared.length);
      logger.error(
        { event: 'rag.capture.failed', err: error, traceIds: prepared.map((capture) => capture.traceId) },
        `capture store write failed; ${prepared.length} capture(s) lost`,
      );
      return;
    }
    metrics.captures.inc(prepared.length);
    for (const capture of prepared) {
      logger.info(
        {
          event: 'rag.capture',
          traceId: capture.traceId,
          requestId: capture.requestId,
          route: capture.route,
          status: capture.status,
          mode: capture.mode,
          chunks: capture.chunks.map((chunk) => ({ id: chunk.chunkId, score: round(chunk.score) })),
          refused: capture.refused,
          answerLength: capture.answer.length,
          latencyMs: capture.latencyMs,
          truncated: capture.truncated,
        },
        'rag capture',
      );
    }
    try {
      config.onWritten?.(prepared);
    } catch (error) {
      logger.error({ err: error }, 'captureRag onWritten callback threw');
    }
  }

  function captureRagMiddleware(req: Request, res: Response, next: NextFunction): void {
    const request = req as CapturedRequest;
    const state: RequestState = { startedAt: performance.now(), traces: [], finished: false };
    request[STATE] = state;
    request.rag = new RequestContext(state, (traces) => enqueue(request, res, state, traces));

    const onDone = () => {
      res.removeListener('finish', onDone);
      res.removeListener('close', onDone);
      res.removeListener('error', onDone);
      state.finished = true;
      if (state.traces.length > 0) enqueue(request, res, state, state.traces);
    };
    res.on('finish', onDone);
    res.on('close', onDone);
    res.on('error', onDone);
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

class RequestContext implements RagRequestContext {
  constructor(
    private readonly state: RequestState,
    private readonly late: (traces: RagTrace[]) => void,
  ) {}

  get traces(): readonly RagTrace[] {
    return this.state.traces;
  }

  record(trace: RagTrace): void {
    if (this.state.finished) {
      // Recorded after the response ended (e.g. a handler that finishes work later): capture now.
      this.late([trace]);
      return;
    }
    this.state.traces.push(trace);
  }
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
}

function normalizeOptions(options: CaptureRagOptions): NormalizedOptions {
  const invalid = (name: string, value: unknown, expected: string) =>
    new InvalidInputError(`captureRag: option ${name} ${describe(value)} is invalid: ${expected}`, { code: 'invalid_option' });

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
  return {
    store,
    metrics: options.metrics ?? createCaptureMetrics(),
    logger: options.logger ?? createLogger(),
    redact: options.redact === false ? false : (options.redact ?? redactPersonalData),
    limits,
    sampleRate,
    maxQueue,
    now: options.now ?? (() => new Date()),
    onWritten: options.onWritten,
  };
}

function describe(value: unknown): string {
  if (typeof value === 'function') return 'function';
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
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

function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}
