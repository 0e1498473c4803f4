import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { HttpError } from '../src/capture/errors.js';
import { InvalidInputError } from '../src/errors.js';

/**
 * Every error type the demo's API answers with, and its status. Listed in the README; the tests
 * check each one. Every problem with the request body is a 400 (one status for "fix your input"),
 * told apart by `type`; HTTP's 413/415 would be as defensible, but clients handle one status.
 */
export const ERROR_TYPES = {
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
  'trace.not_found': 404,
  'route.not_found': 404,
  'model.failed': 502,
  internal: 500,
} as const;

export type ErrorType = keyof typeof ERROR_TYPES;

/** Body-parser's error types mapped to ours. */
const BODY_PARSER_TYPES: Record<string, ErrorType> = {
  'entity.parse.failed': 'body.malformed_json',
  'entity.too.large': 'body.too_large',
  'charset.unsupported': 'body.unsupported_charset',
  'encoding.unsupported': 'body.unsupported_charset',
};

const QUESTION_CODES: Record<string, ErrorType> = {
  question_empty: 'message.empty',
  question_not_string: 'message.not_string',
  question_too_long: 'message.too_long',
};

/** Unknown routes: 404 `route.not_found`. */
export function notFound(req: Request, _res: Response, next: NextFunction): void {
  next(new HttpError(404, 'route.not_found', `no route ${req.method} ${req.path}`));
}

/**
 * Turn any error into `{ error: { type, message } }` with a stable type. Client errors keep their
 * message; server errors are logged and answered with a generic one. Never rethrows.
 */
export function errorHandler(logger: Logger) {
  return function groundcheckErrors(error: unknown, req: Request, res: Response, next: NextFunction): void {
    if (res.headersSent) {
      next(error);
      return;
    }
    const { status, type, message } = describeError(error);
    if (status >= 500) logger.error({ err: error, type, url: req.path }, 'request failed');
    res.status(status).json({ error: { type, message } });
  };
}

function describeError(error: unknown): { status: number; type: string; message: string } {
  if (error instanceof HttpError) {
    return { status: error.status, type: error.type, message: error.expose ? error.message : 'internal error' };
  }
  const parserType = (error as { type?: unknown })?.type;
  if (typeof parserType === 'string' && BODY_PARSER_TYPES[parserType]) {
    const type = BODY_PARSER_TYPES[parserType]!;
    const messages: Record<string, string> = {
      'body.malformed_json': 'the request body is not valid JSON',
      'body.too_large': 'the request body is larger than the limit',
      'body.unsupported_charset': 'the request body uses an unsupported charset or encoding',
    };
    return { status: ERROR_TYPES[type], type, message: messages[type]! };
  }
  if (error instanceof InvalidInputError && QUESTION_CODES[error.code]) {
    const type = QUESTION_CODES[error.code]!;
    return { status: 400, type, message: error.message };
  }
  const status = (error as { status?: unknown; statusCode?: unknown })?.status ?? (error as { statusCode?: unknown })?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return { status: 400, type: 'request.invalid', message: 'the request is malformed' };
  }
  return { status: 500, type: 'internal', message: 'internal error' };
}
