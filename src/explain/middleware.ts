import { newTraceId } from '../contract/trace-id.js';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import '../capture/express-request.js';
import { createLogger } from '../capture/logging.js';
import { errorMessage } from '../errors.js';
import { modelsFromEnv } from '../providers/config.js';
import type { ChatModel } from '../providers/spec.js';
import { explainError, type Explanation, type ExplainerSettings } from './explain.js';
import { explainingModel } from './local-explainer.js';
import { normalizeExplainOptions, type ExplainErrorsOptions, type NormalizedExplainOptions } from './options.js';
import type { FailedRequest } from './prompt.js';
import { createRateLimiter } from './rate-limit.js';
import { ERROR_PAGE_CSP, explanationJson, renderExplanationHtml, renderExplanationText } from './render.js';
import { createSourceAccess, type SourceAccess } from './source-access.js';
import { createSourceMapResolver } from './source-maps.js';

export type { ExplainErrorsOptions } from './options.js';

/** The middleware, with its handles. */
export interface ExplainErrorsMiddleware {
  (err: unknown, req: Request, res: Response, next: NextFunction): void;
  /** Whether it explains errors (`false`: it only calls `next(err)`). */
  readonly active: boolean;
  /** The validated options. */
  readonly options: NormalizedExplainOptions;
  /** The source index handle; `null` when inactive or with `rag: false`. */
  readonly source: SourceAccess | null;
  /** The model it asks; `null` when inactive. */
  readonly chat: ChatModel | null;
  /** Explain an error without a request (what the middleware does before it responds). Inactive: rejects. */
  explain(error: unknown, request?: FailedRequest | null): Promise<Explanation>;
  /** Close the source index. */
  close(): void;
}

/**
 * A development error handler: mount it after your routes, and every unhandled error is explained
 * by the configured model with the app's own source (retrieved from a local sqlite-vec + FTS5
 * index of the code), shown as a page, JSON or text by `Accept`, printed to the console, and
 * recorded as a `RagTrace` on `req.rag` so `captureRag` and the live judge see it like any answer.
 *
 * Active only when `NODE_ENV` is exactly `development` (or `enabled: true`). Anywhere else it
 * calls `next(err)` and nothing more: no model call, no source read, no index, no change to
 * `Error.stackTraceLimit`; it logs once that it is inactive.
 *
 * @example
 * app.use(captureRag());                    // optional: explanations become captures
 * app.get('/posts/:id', showPost);
 * app.use(explainErrors({ root: import.meta.dirname }));
 * app.use(yourProductionErrorHandler);      // still reached in production, and when headers were sent
 */
export function explainErrors(options: ExplainErrorsOptions = {}): ExplainErrorsMiddleware {
  const normalized = normalizeExplainOptions(options);
  const env = options.env ?? process.env;
  const active = options.enabled ?? env.NODE_ENV === 'development';
  if (!active) return inactiveMiddleware(normalized, options, env);

  const logger = options.logger ?? createLogger();
  const selected = options.chat !== undefined && options.embedder !== undefined ? null : modelsFromEnv(env);
  const chat = options.chat ?? explainingModel(selected!.chat);
  const embedder = options.embedder ?? selected!.embedder;
  Error.stackTraceLimit = Math.max(Number.isFinite(Error.stackTraceLimit) ? Error.stackTraceLimit : 10, normalized.stackTraceLimit);

  const source = normalized.rag
    ? createSourceAccess({ appRoot: normalized.root, indexPath: normalized.indexPath, embedder, build: normalized.buildIndex, refreshMs: normalized.refreshMs, exclude: normalized.exclude, logger })
    : null;
  const settings: ExplainerSettings = {
    appRoot: normalized.root,
    chat,
    mode: normalized.rag ? 'rag' : 'norag',
    sourceIndex: source ? () => source.index() : null,
    retrieval: normalized.retrieval,
    truncation: normalized.truncation,
    maxFrames: normalized.maxFrames,
    wordCap: normalized.wordCap,
    timeoutMs: normalized.timeoutMs,
    resolver: createSourceMapResolver({ roots: [normalized.root] }),
    contextLines: normalized.contextLines,
    now: options.now ?? (() => new Date()),
    generateId: options.generateId ?? newTraceId,
  };
  const limiter = normalized.rateLimit === false ? null : createRateLimiter(normalized.rateLimit);
  const print = options.print === false ? null : (options.print ?? ((text: string) => void process.stderr.write(text)));
  const activeBecause = options.enabled === true ? 'the enabled option' : 'NODE_ENV=development';

  async function explainErrorsMiddleware(err: unknown, req: Request, res: Response, next: NextFunction): Promise<void> {
    if (res.headersSent) return next(err);
    const request: FailedRequest = { method: req.method, path: req.path };
    let explanation: Explanation;
    try {
      const allowed = limiter === null || limiter.take();
      explanation = await explainError(err, settings, { request, skipModel: !allowed });
      if (!allowed && normalized.rateLimit !== false) {
        explanation.notes.push(`rate limit reached (${normalized.rateLimit.max} explanations per ${normalized.rateLimit.windowMs / 1000} s): no model call for this error`);
      }
      if (explanation.trace) req.rag?.record(explanation.trace);
      options.onExplanation?.(explanation, req);
    } catch (failure) {
      logger.error({ event: 'explain.failed', err: failure }, `explainErrors could not explain an error: ${errorMessage(failure)}`);
      return next(err);
    }
    const context = { request, activeBecause };
    try {
      print?.(renderExplanationText(explanation, context));
    } catch (failure) {
      logger.warn({ event: 'explain.print_failed', err: failure }, 'explainErrors could not print to the console');
    }
    // The model call took time: a handler that kept going may have answered meanwhile.
    if (res.headersSent) return next(err);
    respond(req, res, explanation, context, errorTypeOf(err));
  }

  return Object.assign(explainErrorsMiddleware, {
    active: true,
    options: normalized,
    source,
    chat,
    explain: (error: unknown, request: FailedRequest | null = null) => explainError(error, settings, { request }),
    close: () => source?.close(),
  });
}

function inactiveMiddleware(normalized: NormalizedExplainOptions, options: ExplainErrorsOptions, env: Record<string, string | undefined>): ExplainErrorsMiddleware {
  let logger: Logger | null = options.logger ?? null;
  let said = false;
  function explainErrorsMiddleware(err: unknown, _req: Request, _res: Response, next: NextFunction): void {
    if (!said) {
      said = true;
      logger ??= createLogger();
      logger.info(
        { event: 'explain.inactive', nodeEnv: env.NODE_ENV ?? null },
        `explainErrors is inactive (NODE_ENV is ${env.NODE_ENV === undefined ? 'not set' : `"${env.NODE_ENV}"`}, not "development"): errors are passed on unexplained`,
      );
    }
    next(err);
  }
  return Object.assign(explainErrorsMiddleware, {
    active: false,
    options: normalized,
    source: null,
    chat: null,
    explain: () => Promise.reject(new Error('explainErrors is inactive: enable it with NODE_ENV=development or { enabled: true }')),
    close: () => undefined,
  });
}

function respond(req: Request, res: Response, explanation: Explanation, context: Parameters<typeof renderExplanationHtml>[1], errorType: string): void {
  res.status(explanation.status);
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Content-Security-Policy', ERROR_PAGE_CSP);
  const wanted = req.accepts(['html', 'json', 'text']);
  if (wanted === 'html') res.type('html').send(renderExplanationHtml(explanation, context));
  else if (wanted === 'json') res.json(explanationJson(explanation, errorType));
  else res.type('text/plain').send(renderExplanationText(explanation, context));
}

/** A stable `type` for the JSON answer: the error's own (`entity.parse.failed`), its code (`ENOENT`), else `internal`. */
function errorTypeOf(error: unknown): string {
  const candidate = error as { type?: unknown; code?: unknown } | null;
  if (typeof candidate?.type === 'string' && candidate.type !== '') return candidate.type;
  if (typeof candidate?.code === 'string' && candidate.code !== '') return candidate.code;
  return 'internal';
}
