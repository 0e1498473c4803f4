import type { IncomingMessage } from 'node:http';
import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import { pinoHttp, type HttpLogger } from 'pino-http';
import { redactText } from './redact.js';
import { requestIdFor } from './request-id.js';

/** Paths pino masks in every log line: credentials in headers, and API keys wherever they appear. */
export const REDACTED_LOG_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'req.headers["api-key"]',
  'req.query.token',
  'res.headers["set-cookie"]',
  'apiKey',
  'api_key',
  '*.apiKey',
  '*.api_key',
  '*.OPENAI_API_KEY',
  'authorization',
  '*.authorization',
];

/** Query parameters whose values never reach a log line (`/dashboard?token=…`). */
const SECRET_QUERY_PARAMS = /([?&](?:token|api_key|apikey|key|access_token)=)[^&#]*/gi;

const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key', 'api-key']);
const SECRET_QUERY_KEYS = new Set(['token', 'api_key', 'apikey', 'key', 'access_token']);

/**
 * A URL with secret query values replaced by `[Redacted]` and personal data in the rest of its
 * query string (e-mail addresses, phone, card and NI numbers, percent-encoded or not) masked with
 * placeholders. The path is kept.
 */
export function scrubUrl(url: string, redact: (text: string) => string = redactText): string {
  const scrubbed = url.replace(SECRET_QUERY_PARAMS, '$1[Redacted]');
  const question = scrubbed.indexOf('?');
  if (question === -1) return scrubbed;
  const query = scrubbed.slice(question + 1).replace(/[^&=#]+/g, (part) => {
    let decoded = part;
    try {
      decoded = decodeURIComponent(part.replace(/\+/g, ' '));
    } catch {
      // Not valid percent-encoding: mask what is there.
    }
    const masked = redact(decoded);
    return masked === decoded ? part : encodeURIComponent(masked).replace(/%5B/g, '[').replace(/%5D/g, ']').replace(/%3A/g, ':');
  });
  return `${scrubbed.slice(0, question)}?${query}`;
}

/** Header and query values with personal data masked; secrets replaced by `[Redacted]`. */
function maskValues(values: Record<string, unknown>, secret: ReadonlySet<string>, redact: (text: string) => string): Record<string, unknown> {
  const masked: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    if (secret.has(key.toLowerCase())) masked[key] = '[Redacted]';
    else if (typeof value === 'string') masked[key] = redact(value);
    else if (Array.isArray(value)) masked[key] = value.map((entry) => (typeof entry === 'string' ? redact(entry) : entry));
    else masked[key] = value;
  }
  return masked;
}

/**
 * A pino logger with groundcheck's redaction (authorization headers, cookies, API keys).
 *
 * @example
 * const logger = createLogger({ level: 'info' });
 * const quiet = createLogger({ level: 'silent' });
 */
export function createLogger(options: LoggerOptions = {}, destination?: DestinationStream): Logger {
  const redact = Array.isArray(options.redact) ? [...REDACTED_LOG_PATHS, ...options.redact] : REDACTED_LOG_PATHS;
  const settings: LoggerOptions = { level: 'info', ...options, redact };
  return destination ? pino(settings, destination) : pino(settings);
}

/**
 * pino-http request logging on `logger`, with secret query values and headers replaced by
 * `[Redacted]`, personal data in the URL's query string, the query and the header values masked
 * with placeholders (`redactText`), and the request id reused by `captureRag`: the client's safe
 * `X-Request-Id`, else a random UUID, echoed in the response header (`requestIdFor`).
 *
 * @example
 * app.use(httpLogger(logger));
 * app.use(captureRag({ logger }));
 */
export function httpLogger(logger: Logger, options: { ignore?: (req: IncomingMessage) => boolean } = {}): HttpLogger {
  return pinoHttp({
    logger,
    // pino-http's own ids count from 1 in every process: they repeat across restarts.
    genReqId: requestIdFor,
    ...(options.ignore ? { autoLogging: { ignore: options.ignore } } : {}),
    serializers: {
      // pino-http hands these the already-serialized request and response (wrapSerializers).
      // Redacting here, not only in the logger's options, protects loggers the app passes in.
      req(serialized: { url?: string; headers?: Record<string, unknown>; query?: unknown }) {
        // Personal data in the query string or a header (a user's e-mail, a phone number) never
        // reaches a log line either.
        if (typeof serialized.url === 'string') serialized.url = scrubUrl(serialized.url);
        if (serialized.headers) serialized.headers = maskValues(serialized.headers, SECRET_HEADERS, redactText);
        if (serialized.query && typeof serialized.query === 'object') serialized.query = maskValues(serialized.query as Record<string, unknown>, SECRET_QUERY_KEYS, redactText);
        return serialized;
      },
      res(serialized: { headers?: Record<string, unknown> }) {
        if (serialized.headers) serialized.headers = maskValues(serialized.headers, SECRET_HEADERS, redactText);
        return serialized;
      },
    },
  });
}
