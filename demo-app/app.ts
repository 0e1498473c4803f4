import { fileURLToPath } from 'node:url';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import { DASHBOARD_ASSETS_DIR } from '../src/capture/dashboard/assets.js';
import { groundcheckDashboard, type GroundcheckDashboard } from '../src/capture/dashboard/dashboard.js';
import { securityHeaders } from '../src/capture/dashboard/headers.js';
import { resolveDashboardToken } from '../src/capture/dashboard/token-policy.js';
import { groundcheckErrorHandler, HTTP_ERROR_TYPES, HttpError, routeNotFound } from '../src/capture/errors.js';
import { createLogger, httpLogger } from '../src/capture/logging.js';
import { createCaptureMetrics, metricsHandler, type CaptureMetrics } from '../src/capture/metrics.js';
import { captureRag, type CaptureRagMiddleware, type CaptureRagOptions } from '../src/capture/middleware.js';
import type { OtlpExporter } from '../src/capture/otel/exporter.js';
import { ragChatHandler } from '../src/capture/route.js';
import { HANDBOOK_OUTDATED_NOTE } from '../src/contract/notes.js';
import type { CaptureStore } from '../src/capture/capture-store.js';
import { DEFAULT_CAPTURE_DB_PATH, openCaptureStore } from '../src/capture/store.js';
import { createJudgeWorker, type JudgeWorker, type JudgeWorkerOptions } from '../src/capture/worker.js';
import { InvalidInputError } from '../src/errors.js';
import { createHeuristicFaithfulnessJudge } from '../src/judge/index.js';
import type { FaithfulnessJudge } from '../src/judge/types.js';
import { createLocalChatModel } from '../src/providers/local/generator.js';
import type { ChatModel } from '../src/providers/spec.js';
import { createRagPipeline, type RagPipeline } from '../src/rag/pipeline.js';
import type { GroundcheckIndex } from '../src/rag/store.js';

const PUBLIC_DIR = fileURLToPath(new URL('./public/', import.meta.url));

export interface CreateAppOptions {
  /** The index to answer from (required unless `pipeline` is given). */
  index?: GroundcheckIndex;
  /** A ready pipeline; default `createRagPipeline({ index, chat })`. */
  pipeline?: RagPipeline;
  /** The chat model when no pipeline is given. [chat=createLocalChatModel()] */
  chat?: ChatModel;
  /**
   * `false` builds the app without `captureRag` (and without the judge worker): the chat route
   * then does no capture or judge work at all. Otherwise `captureRag` options; `store` must be a
   * path (a SQLite capture store) or a `CaptureStore`. [capture={ store: '.groundcheck/captures.db' }]
   */
  capture?: false | (Omit<CaptureRagOptions, 'store' | 'logger' | 'metrics'> & { store?: CaptureStore | string });
  /** The live judge (the evals' judge). [judge=createHeuristicFaithfulnessJudge()] */
  judge?: FaithfulnessJudge;
  /** In-process live judge worker settings; `false` runs none (use `groundcheck judge-worker`). [worker={ settleMs: 2000 }] */
  worker?: false | Omit<JudgeWorkerOptions, 'store' | 'judge' | 'logger' | 'metrics'>;
  /** Token protecting `/dashboard` (16+ characters in production). [dashboardToken=env.GROUNDCHECK_DASHBOARD_TOKEN] */
  dashboardToken?: string;
  /**
   * Whether `/api/traces/:id` needs the dashboard token too (the chat page then shows verdicts on
   * the dashboard only). [protectTraceApi=env.GROUNDCHECK_PROTECT_TRACE_API ('1' or '0'), else true in production]
   */
  protectTraceApi?: boolean;
  /** Environment read for `NODE_ENV`, `GROUNDCHECK_DASHBOARD_TOKEN` and `GROUNDCHECK_PROTECT_TRACE_API`. [env=process.env] */
  env?: Record<string, string | undefined>;
  /** [logger=createLogger()] */
  logger?: Logger;
  /** Largest JSON body accepted by `/api/chat`. [bodyLimit='16kb'] */
  bodyLimit?: string;
  /** Shown by `/api/health` and the page footer, e.g. `local (offline)`. */
  providerDescription?: string;
  /** The dashboard's folder of eval results, for the offline rates beside the live ones; `false`: none. [evalResults='evals/results'] */
  evalResults?: string | false;
  /** Prometheus metrics of the app (`/metrics`); share them with an OTLP exporter. [metrics=createCaptureMetrics()] */
  metrics?: CaptureMetrics;
  /** Export captures and judgments over OTLP (`createOtlpExporter()`); the caller shuts it down. [otlp=none] */
  otlp?: OtlpExporter;
}

export interface DemoApp {
  app: express.Express;
  pipeline: RagPipeline;
  /** `null` when built with `capture: false`. */
  store: CaptureStore | null;
  capture: CaptureRagMiddleware | null;
  worker: JudgeWorker | null;
  judge: FaithfulnessJudge | null;
  /** The library's dashboard at `/dashboard`; `null` when built with `capture: false`. */
  dashboard: GroundcheckDashboard | null;
  metrics: CaptureMetrics;
  logger: Logger;
  /** Flush pending captures (at most 5 s, then what is left is counted lost), stop the worker, close the capture store (not the index). */
  close(): Promise<void>;
}

/**
 * The demo chatbot: `/api/chat`, `/api/traces/:id`, the chat page at `/`, the library's dashboard
 * at `/dashboard` and `/metrics`, with `captureRag` and an in-process live judge.
 *
 * @throws InvalidInputError `dashboard_token_required` / `dashboard_token_weak` in production (any case of `NODE_ENV`, or `prod`).
 * @example
 * const demo = createApp({ index, capture: { store: 'captures.db' }, worker: { settleMs: 1000 } });
 * demo.app.listen(3000);
 */
export function createApp(options: CreateAppOptions): DemoApp {
  const env = options.env ?? process.env;
  const logger = options.logger ?? createLogger();
  // Checked here too, so an app built without capture (and so without a dashboard) still refuses
  // to start unprotected in production.
  const token = resolveDashboardToken({ env, logger, ...(options.dashboardToken !== undefined ? { token: options.dashboardToken } : {}) });
  const protectTraceApi = options.protectTraceApi ?? flagOf(env, 'GROUNDCHECK_PROTECT_TRACE_API');
  if (!options.pipeline && !options.index) throw new InvalidInputError('createApp needs an index or a pipeline', { code: 'invalid_option' });

  // The demo is an employee handbook: its outdated-document note sends readers to HR.
  const pipeline = options.pipeline ?? createRagPipeline({ index: options.index!, chat: options.chat ?? createLocalChatModel(), outdatedNote: { text: HANDBOOK_OUTDATED_NOTE } });
  const metrics = options.metrics ?? createCaptureMetrics();

  let store: CaptureStore | null = null;
  let ownsStore = false;
  let capture: CaptureRagMiddleware | null = null;
  let worker: JudgeWorker | null = null;
  let judge: FaithfulnessJudge | null = null;
  if (options.capture !== false) {
    const { store: storeOption, writerThread, ...captureOptions } = options.capture ?? {};
    if (typeof storeOption === 'object' && storeOption !== null) store = storeOption;
    else {
      store = openCaptureStore({ path: storeOption ?? DEFAULT_CAPTURE_DB_PATH, ...(writerThread !== undefined ? { writerThread } : {}) });
      ownsStore = true;
    }
    if (options.worker !== false) {
      const liveJudge = options.judge ?? createHeuristicFaithfulnessJudge();
      judge = liveJudge;
      worker = createJudgeWorker({ settleMs: 2000, ...options.worker, store, judge: liveJudge, logger, metrics, ...(options.otlp ? { onJudged: options.otlp.onJudged } : {}) });
    }
    const onWritten = captureOptions.onWritten;
    capture = captureRag({
      ...captureOptions,
      // With a store of the caller's, writerThread goes on to captureRag, which refuses it clearly.
      ...(store !== null && !ownsStore && writerThread !== undefined ? { writerThread } : {}),
      store,
      logger,
      metrics,
      // Only a callback that takes the captures gets them (a writer thread then copies them back).
      onWritten:
        options.otlp || onWritten
          ? (written) => {
              worker?.nudge();
              options.otlp?.onWritten(written);
              onWritten?.(written);
            }
          : () => worker?.nudge(),
    });
  }

  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  app.use(securityHeaders);
  app.use(
    httpLogger(logger, {
      ignore: (req) => req.url === '/metrics' || ['/assets/', '/dashboard/assets/', '/api/traces/', '/dashboard/api/'].some((prefix) => req.url?.startsWith(prefix) === true),
    }),
  );
  // The chat page's own files, then the library's stylesheet, which the chat page shares (colours, top bar, claims).
  app.use('/assets', express.static(PUBLIC_DIR, { index: false, fallthrough: true, maxAge: '1h' }), express.static(DASHBOARD_ASSETS_DIR, { index: false, fallthrough: true, maxAge: '1h' }));

  app.get('/', (_req, res) => res.sendFile('index.html', { root: PUBLIC_DIR }));
  app.get('/api/health', (_req, res) => {
    // The app answers either way (200); a degraded capture store is told apart in the body.
    const captureHealth = capture?.health() ?? null;
    const degraded = captureHealth !== null && captureHealth.status === 'degraded';
    res.json({
      ok: !degraded,
      status: degraded ? 'degraded' : 'ok',
      ...(degraded ? { reason: `capture store ${captureHealth.reason}: ${captureHealth.message}` } : {}),
      captureStore: captureHealth,
      provider: options.providerDescription ?? `${pipeline.chat.provider}:${pipeline.chat.modelId}`,
      capture: capture !== null,
      judge: judge ? judge.info : null,
      workerPaused: worker?.paused ?? false,
    });
  });

  const chat = ragChatHandler({ pipeline });
  const json = express.json({ limit: options.bodyLimit ?? '16kb' });
  const requireJson = (req: Request, _res: Response, next: NextFunction) => {
    const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
    if (hasBody && !req.is('application/json')) {
      next(new HttpError(HTTP_ERROR_TYPES['body.unsupported_type'], 'body.unsupported_type', 'send the body as application/json'));
      return;
    }
    next();
  };
  if (capture) app.post('/api/chat', capture, requireJson, json, chat);
  else app.post('/api/chat', requireJson, json, chat);

  let dashboard: GroundcheckDashboard | null = null;
  if (store) {
    dashboard = groundcheckDashboard({
      store,
      token,
      env,
      ...(worker ? { worker } : {}),
      ...(judge ? { judge } : {}),
      index: pipeline.index,
      ...(options.evalResults !== undefined ? { evalResults: options.evalResults } : {}),
      homeLink: { href: '/', label: 'Chat' },
      ...(protectTraceApi !== undefined ? { protectTraceApi } : {}),
      // The chat page polls /api/traces/:id just after each answer: a capture still in the write window is waited for, not a 404.
      ...(capture ? { capture } : {}),
    });
    app.use('/api/traces', dashboard.traceApi);
    app.use('/dashboard', dashboard);
  } else {
    app.get('/api/traces/:id', (_req, _res, next) => next(new HttpError(404, 'trace.not_found', 'no capture with this trace id (this app captures nothing)')));
  }

  app.get('/metrics', metricsHandler(metrics.registry));

  app.use(routeNotFound);
  app.use(groundcheckErrorHandler({ logger }));

  worker?.start();

  return {
    app,
    pipeline,
    store,
    capture,
    worker,
    judge,
    dashboard,
    metrics,
    logger,
    async close() {
      // At most 5 s for the queue to drain; what is left is counted and logged as lost, never dropped silently.
      await capture?.close();
      await worker?.stop();
      if (ownsStore) await store?.close();
    },
  };
}

/** A `1`/`0` (or `true`/`false`) environment switch; `undefined` when unset. */
function flagOf(env: Record<string, string | undefined>, name: string): boolean | undefined {
  const value = env[name]?.trim().toLowerCase();
  if (value === undefined || value === '') return undefined;
  if (value === '1' || value === 'true') return true;
  if (value === '0' || value === 'false') return false;
  throw new InvalidInputError(`${name}=${env[name]} is invalid: use 1 or 0`, { code: 'invalid_config' });
}
