import { fileURLToPath } from 'node:url';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import { chunkDrift, type DriftedChunk } from '../src/capture/drift.js';
import { groundcheckErrorHandler, HTTP_ERROR_TYPES, HttpError, routeNotFound } from '../src/capture/errors.js';
import { createLogger, httpLogger } from '../src/capture/logging.js';
import { createCaptureMetrics, metricsHandler, type CaptureMetrics } from '../src/capture/metrics.js';
import { captureRag, type CaptureRagMiddleware, type CaptureRagOptions } from '../src/capture/middleware.js';
import type { OtlpExporter } from '../src/capture/otel/exporter.js';
import { ragChatHandler } from '../src/capture/route.js';
import { CaptureStore, DEFAULT_CAPTURE_DB_PATH, openCaptureStore } from '../src/capture/store.js';
import type { Capture, StoredJudgment } from '../src/capture/types.js';
import { createJudgeWorker, type JudgeWorker, type JudgeWorkerOptions } from '../src/capture/worker.js';
import { InvalidInputError } from '../src/errors.js';
import { createHeuristicFaithfulnessJudge } from '../src/judge/index.js';
import type { FaithfulnessJudge } from '../src/judge/types.js';
import { createLocalChatModel } from '../src/providers/local/generator.js';
import type { ChatModel } from '../src/providers/spec.js';
import { createRagPipeline, type RagPipeline } from '../src/rag/pipeline.js';
import type { GroundcheckIndex } from '../src/rag/store.js';
import { dashboardAuth } from './auth.js';
import { verdictOf, type VerdictView } from '../src/capture/verdict.js';

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
   * path or a `CaptureStore`. [capture={ store: '.groundcheck/captures.db' }]
   */
  capture?: false | (Omit<CaptureRagOptions, 'store' | 'logger' | 'metrics'> & { store?: CaptureStore | string });
  /** The live judge (the evals' judge). [judge=createHeuristicFaithfulnessJudge()] */
  judge?: FaithfulnessJudge;
  /** In-process live judge worker settings; `false` runs none (use `groundcheck judge-worker`). [worker={ settleMs: 2000 }] */
  worker?: false | Omit<JudgeWorkerOptions, 'store' | 'judge' | 'logger' | 'metrics'>;
  /** Token protecting `/dashboard`. [dashboardToken=env.GROUNDCHECK_DASHBOARD_TOKEN] */
  dashboardToken?: string;
  /** Environment read for `NODE_ENV` and `GROUNDCHECK_DASHBOARD_TOKEN`. [env=process.env] */
  env?: Record<string, string | undefined>;
  /** [logger=createLogger()] */
  logger?: Logger;
  /** Largest JSON body accepted by `/api/chat`. [bodyLimit='16kb'] */
  bodyLimit?: string;
  /** Shown by `/api/health` and the page footer, e.g. `local (offline)`. */
  providerDescription?: string;
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
  metrics: CaptureMetrics;
  logger: Logger;
  /** Stop the worker, flush pending captures, close the capture store (not the index). */
  close(): Promise<void>;
}

/**
 * The demo chatbot: `/api/chat`, `/api/traces/:id`, the chat page at `/`, the dashboard at
 * `/dashboard` and `/metrics`, with `captureRag` and an in-process live judge.
 *
 * @throws InvalidInputError `dashboard_token_required` when `NODE_ENV=production` and no token is set.
 * @example
 * const demo = createApp({ index, capture: { store: 'captures.db' }, worker: { settleMs: 1000 } });
 * demo.app.listen(3000);
 */
export function createApp(options: CreateAppOptions): DemoApp {
  const env = options.env ?? process.env;
  const token = options.dashboardToken ?? (env.GROUNDCHECK_DASHBOARD_TOKEN || undefined);
  if (env.NODE_ENV === 'production' && !token) {
    throw new InvalidInputError(
      'refusing to start: NODE_ENV=production and no dashboard token. Set GROUNDCHECK_DASHBOARD_TOKEN (the dashboard shows captured questions and answers).',
      { code: 'dashboard_token_required' },
    );
  }
  if (token !== undefined && token.length < 8) {
    throw new InvalidInputError('the dashboard token must be at least 8 characters', { code: 'invalid_config' });
  }
  if (!options.pipeline && !options.index) throw new InvalidInputError('createApp needs an index or a pipeline', { code: 'invalid_option' });

  const logger = options.logger ?? createLogger();
  const pipeline = options.pipeline ?? createRagPipeline({ index: options.index!, chat: options.chat ?? createLocalChatModel() });
  const metrics = options.metrics ?? createCaptureMetrics();

  let store: CaptureStore | null = null;
  let ownsStore = false;
  let capture: CaptureRagMiddleware | null = null;
  let worker: JudgeWorker | null = null;
  let judge: FaithfulnessJudge | null = null;
  if (options.capture !== false) {
    const { store: storeOption, ...captureOptions } = options.capture ?? {};
    if (storeOption instanceof CaptureStore) store = storeOption;
    else {
      store = openCaptureStore({ path: storeOption ?? DEFAULT_CAPTURE_DB_PATH });
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
      store,
      logger,
      metrics,
      onWritten: (written) => {
        worker?.nudge();
        options.otlp?.onWritten(written);
        onWritten?.(written);
      },
    });
  }

  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  app.use(securityHeaders);
  app.use(httpLogger(logger, { ignore: (req) => req.url?.startsWith('/assets/') === true || req.url === '/metrics' || req.url?.startsWith('/api/traces/') === true }));
  app.use('/assets', express.static(PUBLIC_DIR, { index: false, fallthrough: true, maxAge: '1h' }));

  app.get('/', (_req, res) => res.sendFile('index.html', { root: PUBLIC_DIR }));
  app.get('/api/health', (_req, res) => {
    res.json({
      ok: true,
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

  app.get('/api/traces/:id', (req, res, next) => {
    const found = store?.getCapture(String(req.params.id));
    if (!store || !found) {
      next(new HttpError(404, 'trace.not_found', 'no capture with this trace id (unknown, not sampled, or not written yet)'));
      return;
    }
    const drift = chunkDrift(found.capture.chunks, (chunkId) => pipeline.index.getChunk(chunkId)?.hash);
    res.json(traceView(found.capture, pickJudgment(found.judgments, worker?.judgeVersion), worker !== null, drift));
  });

  app.get('/metrics', metricsHandler(metrics.registry));

  const dashboard = express.Router();
  dashboard.use(dashboardAuth(token ?? null));
  dashboard.get('/', (_req, res) => res.sendFile('dashboard.html', { root: PUBLIC_DIR }));
  dashboard.get('/api/captures', (req, res) => {
    const filter = typeof req.query.filter === 'string' ? req.query.filter : 'all';
    if (!FILTERS.has(filter)) throw new HttpError(400, 'request.invalid', `filter must be one of ${[...FILTERS].join(', ')}`);
    if (!store) {
      res.json({ captures: [], counts: {}, judge: null, workerPaused: false });
      return;
    }
    const listed = store.listCaptures({ limit: 500, ...(worker ? { judgeVersion: worker.judgeVersion } : {}) });
    // Drift of the listed captures only, from the chunks they were read with: not a pass over
    // every chunk reference in the store on each refresh of the page.
    const currentHashes = pipeline.index.chunkHashes();
    const rows = listed.map(({ capture: captured, judgment }) =>
      traceView(captured, judgment, worker !== null, chunkDrift(captured.chunks, (chunkId) => currentHashes.get(chunkId))),
    );
    const counts: Record<string, number> = { all: rows.length };
    for (const name of FILTERS) if (name !== 'all') counts[name] = rows.filter((row) => matches(row, name)).length;
    res.json({
      captures: rows.filter((row) => matches(row, filter)).slice(0, 200),
      counts,
      judge: judge?.info ?? null,
      workerPaused: worker?.paused ?? false,
      pauseReason: worker?.pauseReason ?? null,
    });
  });
  app.use('/dashboard', dashboard);

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
    metrics,
    logger,
    async close() {
      await capture?.flush();
      await worker?.stop();
      if (ownsStore) store?.close();
    },
  };
}

const FILTERS = new Set(['all', 'hallucinated', 'refused', 'judge_error', 'drifted', 'pending']);

interface TraceView extends VerdictView {
  traceId: string;
  capture: Capture;
  judgment: StoredJudgment | null;
  drift: DriftedChunk[];
}

function traceView(capture: Capture, judgment: StoredJudgment | null, judging: boolean, drift: DriftedChunk[]): TraceView {
  return { traceId: capture.traceId, ...verdictOf(capture, judgment, judging), capture, judgment, drift };
}

/** The judgment of the running judge when there is one, else the newest. */
function pickJudgment(judgments: readonly StoredJudgment[], judgeVersion: string | undefined): StoredJudgment | null {
  if (judgeVersion !== undefined) return judgments.find((judgment) => judgment.judgeVersion === judgeVersion) ?? null;
  return judgments.at(-1) ?? null;
}

function matches(row: TraceView, filter: string): boolean {
  switch (filter) {
    case 'hallucinated':
      return row.verdict === 'hallucinated';
    case 'refused':
      return row.capture.refused;
    case 'judge_error':
      return row.verdict === 'judge_error';
    case 'drifted':
      return row.drift.length > 0;
    case 'pending':
      return row.verdict === 'pending';
    default:
      return true;
  }
}

/** Self-contained pages: no third-party origin may be loaded, framed or posted to. */
function securityHeaders(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader(
    'Content-Security-Policy',
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  );
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('X-Frame-Options', 'DENY');
  next();
}
