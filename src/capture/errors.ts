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
