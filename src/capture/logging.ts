import type { IncomingMessage } from 'node:http';
import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import { pinoHttp, type HttpLogger } from 'pino-http';

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

function maskKeys(values: Record<string, unknown>, secret: ReadonlySet<string>): Record<string, unknown> {
  const masked: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) masked[key] = secret.has(key.toLowerCase()) ? '[Redacted]' : value;
  return masked;
}

/** A URL with secret query values replaced by `[Redacted]`. */
export function scrubUrl(url: string): string {
  return url.replace(SECRET_QUERY_PARAMS, '$1[Redacted]');
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
 * pino-http request logging on `logger`, with secret query values scrubbed from the logged URL and
 * the request id reused by `captureRag`.
 *
 * @example
 * app.use(httpLogger(logger));
 * app.use(captureRag({ logger }));
 */
export function httpLogger(logger: Logger, options: { ignore?: (req: IncomingMessage) => boolean } = {}): HttpLogger {
  return pinoHttp({
    logger,
    ...(options.ignore ? { autoLogging: { ignore: options.ignore } } : {}),
    serializers: {
      // pino-http hands these the already-serialized request and response (wrapSerializers).
      // Redacting here, not only in the logger's options, protects loggers the app passes in.
      req(serialized: { url?: string; headers?: Record<string, unknown>; query?: unknown }) {
        if (typeof serialized.url === 'string') serialized.url = scrubUrl(serialized.url);
        if (serialized.headers) serialized.headers = maskKeys(serialized.headers, SECRET_HEADERS);
        if (serialized.query && typeof serialized.query === 'object') serialized.query = maskKeys(serialized.query as Record<string, unknown>, SECRET_QUERY_KEYS);
        return serialized;
      },
      res(serialized: { headers?: Record<string, unknown> }) {
        if (serialized.headers) serialized.headers = maskKeys(serialized.headers, SECRET_HEADERS);
        return serialized;
      },
    },
  });
}
