import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { InvalidInputError } from '../errors.js';
import type { RagTrace } from '../contract/trace.js';
import { CAPTURE_LOG_LEVELS, createCaptureWriter, DEFAULT_CLOSE_TIMEOUT_MS, type CaptureHealth, type CaptureLogLevel, type CaptureWriterConfig } from './capture-writer.js';
import { ChunkInterner } from './chunk-interner.js';
import { isoTimeFormatter } from './iso-time.js';
import { createLogger } from './logging.js';
import { createCaptureMetrics, type CaptureMetrics } from './metrics.js';
import { describeOptionValue } from './option-value.js';
import { recordAcceptor } from './record-input.js';
import { createRedactor, redactPersonalData } from './redact.js';
import { captureOnClose, RequestContext, type CapturedRequest } from './request-context.js';
import { requestIdFor } from './request-id.js';
import { isSampled } from './sampling.js';
import { DEFAULT_CAPTURE_DB_PATH, openCaptureStore } from './store.js';
import { captureFromTrace, DEFAULT_CAPTURE_LIMITS, type CaptureLimits } from './to-capture.js';
import type { Capture, CaptureSink, HttpFacts } from './types.js';

export interface CaptureRagOptions {
  /**
   * Where captures go: a {@link CaptureSink} (a `CaptureStore` or your own), a path of a SQLite
   * capture file, or a `postgres://` URL (`openCaptureStore`). [store='.groundcheck/captures.db']
   */
  store?: CaptureSink | string;
  /**
   * When `store` is a SQLite path: open it with the store's writer thread, which redacts, caps and
   * writes the captures off the request thread (`writerThread` of `openSqliteCaptureStore`: less
   * request-thread CPU per capture, a little more in all). For a store you open yourself, pass it there.
   * [writerThread=WRITER_THREAD_BY_DEFAULT: on where the process may run on more than one CPU]
   */
  writerThread?: boolean;
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
  /**
   * The level of the per-capture `rag.capture` line. Debug by default: the capture itself is in
   * the store, and the line, at info, cost the request thread about 11 µs per capture, more than
   * half of what capturing costs it with the writer thread (bench:capture-path). Failures,
   * drops and store changes are logged at their own levels whatever this is. `'silent'`: no line.
   * [captureLogLevel='debug']
   */
  captureLogLevel?: CaptureLogLevel;
  /** Prometheus metrics (share them with the judge worker and `/metrics`). [metrics=createCaptureMetrics()] */
  metrics?: CaptureMetrics;
  /**
   * Captures waiting to be written (in the batch window, or for a retry while the store is
   * unavailable); beyond it new ones are dropped and counted (`groundcheck_capture_failures_total{reason="queue_full"}`).
   * [maxQueue=10000]
   */
  maxQueue?: number;
  /**
   * Make each capture durable before its response completes: the response's `end()` waits until
   * the request's captures are written (one transaction per request instead of one per batch
   * window; `npm run bench:middleware -- --durable` measures the cost). If the store is
   * unavailable the response ends once the store gives up (`busyTimeoutMs` for a lock) and the
   * captures join the retry queue. [durable=false]
   */
  durable?: boolean;
  /**
   * Called after a batch was written (e.g. to wake an in-process judge worker), with the captures
   * as stored. A callback that declares no parameter (`() => worker.nudge()`) is called with none,
   * which spares copying the stored captures back from the SQLite store's writer thread.
   */
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
  readonly durable: boolean;
  /** Captures waiting to be written (in the batch window or for a retry). */
  readonly queued: number;
  /** Captures handed to the store and not yet written (a batch in flight, e.g. on the SQLite store's writer thread): neither queued nor readable yet. */
  readonly writing: number;
  /**
   * Whether a request recorded this trace and its response has not closed yet (so it is not
   * queued either): its client may already have the answer and ask for the trace.
   */
  recording(traceId: string): boolean;
  /**
   * Resolves once every capture queued so far has been written (or counted as failed). While the
   * store is unavailable it waits for it; use `close()` to give up after a time.
   */
  flush(): Promise<void>;
  /**
   * Flush, waiting at most `timeoutMs` [5000]; what is still unwritten then is counted
   * (`groundcheck_capture_failures_total{reason="shutdown"}`) and logged (`rag.capture.lost_at_shutdown`),
   * as is anything captured after. Call it on SIGTERM before closing the store.
   */
  close(options?: { timeoutMs?: number }): Promise<{ lost: number }>;
  /** The store's health as the middleware sees it (`store.health()` when the store has one), and the captures waiting. */
  health(): CaptureHealth;
}

export { WRITE_BATCH_MS, MAX_WRITE_BATCH, type CaptureHealth, type CaptureLogLevel } from './capture-writer.js';

/**
 * Express middleware that records RAG traces per request and persists them after the response
 * finishes: the exact chunks (ids, hashes, text, scores), the answer, refusal, models, usage and
 * HTTP facts. Writes are batched (one transaction per {@link WRITE_BATCH_MS} ms) after the
 * response, never on the request path (unless `durable`); a failing store is counted
 * (`groundcheck_capture_failures_total`) and logged, never thrown. While the store is
 * unavailable (locked by another process, its file deleted, replaced or read-only) captures stay
 * queued, at most `maxQueue`, and are retried with backoff; `health()` tells why.
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
  const { store, metrics, logger, sampleRate, now, durable, timeNow } = config;

  const acceptRecord = recordAcceptor({ metrics, logger, now, refusalSentence: config.refusalSentence });
  const writer = createCaptureWriter(config);
  metrics.setCaptureSource(writer);
  const chunkStrings = new ChunkInterner();
  const isoOf = isoTimeFormatter();

  /** The captures of a request's traces (sampled out ones counted and left out). */
  function capturesOf(context: RequestContext, traces: readonly RagTrace[], aborted: boolean): Capture[] {
    const { req, res } = context;
    const finishedAt = performance.now();
    // The same for every trace of the request: built once, at the first trace that is kept.
    let http: HttpFacts | undefined;
    const captures: Capture[] = [];
    for (const trace of traces) {
      // Runs in the response's 'close' listener, in record() or in end(): nothing may escape into the app.
      try {
        if (!isSampled(trace.id, sampleRate)) {
          metrics.sampledOut.inc();
          continue;
        }
        http ??= {
          requestId: String(req.id),
          capturedAt: isoOf(timeNow()),
          route: routeOf(req),
          method: req.method,
          status: res.statusCode,
          latencyMs: roundMs(finishedAt - context.startedAt),
          aborted,
          firstTokenMs: context.firstTokenAt === null ? null : roundMs(context.firstTokenAt - context.startedAt),
        };
        captures.push(captureFromTrace(trace, http, chunkStrings));
      } catch (error) {
        metrics.captureFailures.inc({ reason: 'build' });
        logger.error({ event: 'rag.capture.failed', err: error }, 'capture failed: the recorded value is not a RagTrace');
      }
    }
    return captures;
  }

  function enqueue(context: RequestContext, traces: readonly RagTrace[]): void {
    writer.enqueue(capturesOf(context, traces, context.aborted));
  }

  /**
   * `durable`: the response's `end()` waits until the request's captures are written (or failed:
   * then they join the retry queue like any other). Hooked on `end`, so a streamed answer's last
   * bytes wait too.
   */
  function holdEndUntilWritten(context: RequestContext, res: Response): void {
    const end = res.end;
    res.end = function endAfterCapture(this: Response, ...args: unknown[]) {
      res.end = end;
      const traces = context.takeRecorded();
      if (traces.length === 0) return (end as (...a: unknown[]) => Response).apply(this, args);
      let captures: Capture[] = [];
      try {
        captures = capturesOf(context, traces, false);
      } catch {
        // capturesOf counts its own failures.
      }
      void writer
        .writeNow(captures)
        .catch((error: unknown) => logger.error({ event: 'rag.capture.failed', err: error }, 'durable capture write failed'))
        .finally(() => (end as (...a: unknown[]) => Response).apply(this, args));
      return this;
    } as Response['end'];
  }

  /** Trace ids recorded by requests whose response has not closed yet (`recording`). */
  const openTraces = new Set<string>();

  function captureRagMiddleware(req: Request, res: Response, next: NextFunction): void {
    const captured = req as CapturedRequest;
    // One id for the logs, the capture and the client (httpLogger sets it first when it runs first).
    if (typeof captured.id !== 'string' && typeof captured.id !== 'number') captured.id = requestIdFor(req, res);
    const context = new RequestContext(captured, res, enqueue, acceptRecord, openTraces);
    req.rag = context;
    if (durable) holdEndUntilWritten(context, res);
    captureOnClose(context);
    next();
  }

  return Object.defineProperties(captureRagMiddleware, {
    store: { value: store, enumerable: true },
    metrics: { value: metrics, enumerable: true },
    logger: { value: logger, enumerable: true },
    sampleRate: { value: sampleRate, enumerable: true },
    durable: { value: durable, enumerable: true },
    queued: { get: () => writer.queued, enumerable: true },
    writing: { get: () => writer.writing, enumerable: true },
    recording: { value: (traceId: string) => openTraces.has(traceId) },
    flush: { value: () => writer.flush() },
    close: { value: (closeOptions: { timeoutMs?: number } = {}) => writer.close(closeOptions.timeoutMs ?? DEFAULT_CLOSE_TIMEOUT_MS) },
    health: { value: () => writer.health() },
  }) as CaptureRagMiddleware;
}

/** The writer's configuration plus what the middleware itself reads. */
interface NormalizedOptions extends CaptureWriterConfig {
  sampleRate: number;
  durable: boolean;
  now: () => Date;
  /** `now()` as milliseconds: `Date.now` for the default clock, which spares building a Date per capture. */
  timeNow: () => number;
  refusalSentence: string | undefined;
}

/**
 * Keyed placeholders under the option's key, else the store's, else the process default. The
 * store's key is read at the first capture, not here: a store that connects first (Postgres)
 * knows it only once ready, and the writer waits for `ready()` before it redacts anything.
 */
function defaultRedaction(key: string | Uint8Array | undefined, store: CaptureSink): (capture: Capture) => Capture {
  if (key !== undefined) return createRedactor({ key }).redactCapture;
  let redact: ((capture: Capture) => Capture) | undefined;
  return (capture) => {
    if (redact === undefined) {
      const storeKey = (store as { redactionKey?: string | Uint8Array }).redactionKey;
      redact = storeKey === undefined ? redactPersonalData : createRedactor({ key: storeKey }).redactCapture;
    }
    return redact(capture);
  };
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
  if (options.writerThread !== undefined && typeof options.writerThread !== 'boolean') throw invalid('writerThread', options.writerThread, 'use true or false');
  let store: CaptureSink;
  if (options.store === undefined || typeof options.store === 'string') {
    store = openCaptureStore({ path: options.store ?? DEFAULT_CAPTURE_DB_PATH, ...(options.writerThread !== undefined ? { writerThread: options.writerThread } : {}) });
  } else if (options.writerThread !== undefined) {
    throw invalid('writerThread', options.writerThread, 'it applies when captureRag opens the store from a path; for a store you open, pass writerThread to openSqliteCaptureStore');
  } else if (typeof (options.store as CaptureSink | null)?.writeCaptures === 'function') {
    store = options.store;
  } else {
    throw invalid('store', options.store, 'use a path or an object with writeCaptures(captures)');
  }
  if (options.durable !== undefined && typeof options.durable !== 'boolean') throw invalid('durable', options.durable, 'use true or false');
  const captureLogLevel = options.captureLogLevel ?? 'debug';
  if (!(CAPTURE_LOG_LEVELS as readonly unknown[]).includes(captureLogLevel)) throw invalid('captureLogLevel', options.captureLogLevel, `use one of ${CAPTURE_LOG_LEVELS.join(', ')}`);
  if (options.onWritten !== undefined && typeof options.onWritten !== 'function') throw invalid('onWritten', options.onWritten, 'use a function');
  if (options.refusalSentence !== undefined && (typeof options.refusalSentence !== 'string' || options.refusalSentence.trim() === '')) {
    throw invalid('refusalSentence', options.refusalSentence, 'use a non-empty string');
  }
  return {
    store,
    metrics: options.metrics ?? createCaptureMetrics(),
    logger: options.logger ?? createLogger(),
    captureLogLevel,
    redact: options.redact === false ? false : (options.redact ?? defaultRedaction(options.redactionKey, store)),
    ...(options.redact === undefined ? { defaultRedaction: { key: options.redactionKey } } : {}),
    limits,
    sampleRate,
    maxQueue,
    durable: options.durable === true,
    now: options.now ?? (() => new Date()),
    timeNow: timeNowOf(options.now),
    onWritten: options.onWritten,
    refusalSentence: options.refusalSentence,
  };
}

/** The clock as milliseconds: the default reads `Date.now()` (no Date built); a clock of the caller's is read through its Date. */
function timeNowOf(now: (() => Date) | undefined): () => number {
  return now === undefined ? Date.now : () => now().getTime();
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
