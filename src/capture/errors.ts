import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { GroundcheckError } from '../errors.js';

/**
 * An error meant for the HTTP client: a status and a stable `type` string (like body-parser's
 * `entity.too.large`). Handlers pass it to `next(err)`; every type is listed in the README.
 */
export class HttpError extends GroundcheckError {
  readonly status: number;
  readonly type: string;
  /** Safe to show the message to the client. */
  readonly expose: boolean;

  constructor(status: number, type: string, message: string, options?: { cause?: unknown }) {
    super(type, message, options);
    this.name = 'HttpError';
    this.status = status;
    this.type = type;
    this.expose = status < 500;
  }
}

/**
 * Every error type groundcheck's HTTP pieces answer with, and its status (the README's "Errors"
 * section lists them; a test checks it). Every problem with a request body is a 400 (one status
 * for "fix your input"), told apart by `type`; HTTP's 413/415 would be as defensible, but clients
 * handle one status.
 */
export const HTTP_ERROR_TYPES = {
  'message.missing': 400,
  'message.not_string': 400,
  'message.empty': 400,
  'message.too_long': 400,
  'mode.invalid': 400,
  'body.malformed_json': 400,
  'body.too_large': 400,
  'body.unsupported_type': 400,
  'body.unsupported_charset': 400,
  'request.invalid': 400,
  'auth.required': 401,
  'auth.invalid_token': 401,
  'auth.rate_limited': 429,
  'trace.not_found': 404,
  'route.not_found': 404,
  'model.failed': 502,
  internal: 500,
} as const;

export type HttpErrorType = keyof typeof HTTP_ERROR_TYPES;

/** Body-parser's error types mapped to ours. */
const BODY_PARSER_TYPES: Record<string, { type: HttpErrorType; message: string }> = {
  'entity.parse.failed': { type: 'body.malformed_json', message: 'the request body is not valid JSON' },
  'entity.too.large': { type: 'body.too_large', message: 'the request body is larger than the limit' },
  'charset.unsupported': { type: 'body.unsupported_charset', message: 'the request body uses an unsupported charset or encoding' },
  'encoding.unsupported': { type: 'body.unsupported_charset', message: 'the request body uses an unsupported charset or encoding' },
};

/** The JSON body of every error response: `{ error: { type, message } }`. */
export interface HttpErrorBody {
  error: { type: string; message: string };
}

/**
 * Status, stable type and client-safe message of any error: an {@link HttpError} as it is (its
 * message only when `expose`), a body-parser error mapped to `body.*`, another 4xx as
 * `request.invalid`, anything else as a 500 `internal` with a generic message.
 */
export function describeHttpError(error: unknown): { status: number; type: string; message: string } {
  if (error instanceof HttpError) {
    return { status: error.status, type: error.type, message: error.expose ? error.message : 'internal error' };
  }
  const parserType = (error as { type?: unknown })?.type;
  if (typeof parserType === 'string' && BODY_PARSER_TYPES[parserType]) {
    const mapped = BODY_PARSER_TYPES[parserType]!;
    return { status: HTTP_ERROR_TYPES[mapped.type], type: mapped.type, message: mapped.message };
  }
  const status = (error as { status?: unknown })?.status ?? (error as { statusCode?: unknown })?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return { status: 400, type: 'request.invalid', message: 'the request is malformed' };
  }
  return { status: 500, type: 'internal', message: 'internal error' };
}

export interface ErrorHandlerOptions {
  /** Where server errors (5xx) are logged with their stack; client errors are not logged. [logger=none] */
  logger?: Pick<Logger, 'error'>;
}

/**
 * An Express error handler that answers every error as `{ error: { type, message } }` with a
 * stable type (see {@link HTTP_ERROR_TYPES}): groundcheck's `HttpError`s (from `ragChatHandler`,
 * the dashboard's auth), body-parser's errors, and anything else as a 500 with a generic message.
 * Server errors are logged; it never rethrows, and leaves a response whose headers were already
 * sent to Express.
 *
 * @example
 * app.post('/api/chat', express.json(), ragChatHandler({ pipeline }));
 * app.use(groundcheckErrorHandler({ logger }));
 */
export function groundcheckErrorHandler(options: ErrorHandlerOptions = {}) {
  const logger = options.logger;
  return function groundcheckErrors(error: unknown, req: Request, res: Response, next: NextFunction): void {
    if (res.headersSent) {
      next(error);
      return;
    }
    const { status, type, message } = describeHttpError(error);
    if (status >= 500) logger?.error({ err: error, type, url: req.path }, 'request failed');
    const body: HttpErrorBody = { error: { type, message } };
    res.status(status).json(body);
  };
}

/** Unknown routes: 404 `route.not_found`, through `next(err)`. */
export function routeNotFound(req: Request, _res: Response, next: NextFunction): void {
  next(new HttpError(404, 'route.not_found', `no route ${req.method} ${req.path}`));
}
