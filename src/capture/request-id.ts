import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** A client's `X-Request-Id` is kept when it matches this (letters, digits, `_ . : -`, 1–128 characters). */
export const SAFE_REQUEST_ID = /^[\w.:-]{1,128}$/;

/**
 * The id of a request: the client's `X-Request-Id` when it is a safe value, else a random UUID
 * (unique across restarts and processes, unlike a counter). Echoed in the response's
 * `X-Request-Id` header. pino-http's `genReqId` (`httpLogger`) and `captureRag` both use it, so a
 * request has one id in the logs, the capture and the response.
 */
export function requestIdFor(req: IncomingMessage, res: ServerResponse): string {
  const header = req.headers['x-request-id'];
  const id = typeof header === 'string' && SAFE_REQUEST_ID.test(header) ? header : randomUUID();
  if (!res.headersSent) res.setHeader('X-Request-Id', id);
  return id;
}
