/**
 * One HTTP exchange of the crawler, with its limits: a timeout over the whole exchange (headers and
 * body), a byte limit enforced while the body streams (the rest is never read), the content types
 * the caller accepts, and redirects followed one hop at a time so the caller can refuse a hop
 * (another origin, disallowed by robots.txt) before it is requested.
 */

/** The `fetch` the crawler calls: Node's global fetch (undici) unless a test passes its own. */
export type FetchFunction = (input: string | URL, init?: RequestInit) => Promise<Response>;

export interface FetchLimits {
  /** Whole exchange, headers and body. */
  timeoutMs: number;
  /** Largest body read; a longer one is cut off and reported as `too_large`. */
  maxBytes: number;
  userAgent: string;
}

/** Validators from an earlier fetch of the same URL, sent as a conditional request. */
export interface Validators {
  etag: string | null;
  lastModified: string | null;
}

export type FetchOutcome =
  | {
      kind: 'ok';
      url: URL;
      status: number;
      /** Media type without parameters, lowercased: `text/html`. */
      mediaType: string;
      body: string;
      etag: string | null;
      lastModified: string | null;
      /** `X-Robots-Tag`, when sent. */
      robotsTag: string | null;
    }
  | { kind: 'not_modified'; url: URL }
  | { kind: 'redirect'; url: URL; status: number; location: URL | null }
  | { kind: 'http_error'; url: URL; status: number }
  | { kind: 'unsupported_type'; url: URL; mediaType: string }
  | { kind: 'too_large'; url: URL; maxBytes: number }
  | { kind: 'network_error'; url: URL; message: string; timedOut: boolean };

export interface FetchOnceOptions {
  fetch: FetchFunction;
  limits: FetchLimits;
  /** Media types read (others are `unsupported_type`, their body never read); `'any'` reads all. */
  accept: readonly string[] | 'any';
  validators?: Validators | null;
  signal?: AbortSignal;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/**
 * One request, no redirect followed (`redirect: 'manual'`): the outcome says what came back.
 * Network failures and timeouts are outcomes too, never thrown; an abort of `options.signal` is thrown.
 */
export async function fetchOnce(url: URL, options: FetchOnceOptions): Promise<FetchOutcome> {
  const timeout = AbortSignal.timeout(options.limits.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const headers: Record<string, string> = {
    'user-agent': options.limits.userAgent,
    accept: options.accept === 'any' ? '*/*' : `${options.accept.join(',')};q=1,*/*;q=0.1`,
  };
  if (options.validators?.etag) headers['if-none-match'] = options.validators.etag;
  if (options.validators?.lastModified) headers['if-modified-since'] = options.validators.lastModified;

  let response: Response;
  try {
    response = await options.fetch(url, { headers, redirect: 'manual', signal });
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    return networkError(url, error, timeout.aborted, options.limits.timeoutMs);
  }
  try {
    if (REDIRECT_STATUSES.has(response.status)) {
      await discard(response);
      const location = response.headers.get('location');
      return { kind: 'redirect', url, status: response.status, location: location === null ? null : safeUrl(location, url) };
    }
    if (response.status === 304 && options.validators) {
      await discard(response);
      return { kind: 'not_modified', url };
    }
    if (response.status < 200 || response.status > 299) {
      await discard(response);
      return { kind: 'http_error', url, status: response.status };
    }
    const contentType = response.headers.get('content-type') ?? '';
    const mediaType = contentType.split(';')[0]!.trim().toLowerCase();
    if (options.accept !== 'any' && !options.accept.includes(mediaType)) {
      await discard(response);
      return { kind: 'unsupported_type', url, mediaType: mediaType || 'none given' };
    }
    const declaredLength = Number(response.headers.get('content-length') ?? NaN);
    if (declaredLength > options.limits.maxBytes) {
      await discard(response);
      return { kind: 'too_large', url, maxBytes: options.limits.maxBytes };
    }
    const bytes = await readLimited(response, options.limits.maxBytes);
    if (bytes === null) return { kind: 'too_large', url, maxBytes: options.limits.maxBytes };
    return {
      kind: 'ok',
      url,
      status: response.status,
      mediaType,
      body: decode(bytes, contentType),
      etag: response.headers.get('etag'),
      lastModified: response.headers.get('last-modified'),
      robotsTag: response.headers.get('x-robots-tag'),
    };
  } catch (error) {
    // The body failed mid-stream (reset connection, the timeout).
    if (options.signal?.aborted) throw options.signal.reason;
    return networkError(url, error, timeout.aborted, options.limits.timeoutMs);
  }
}

/** The body, or `null` as soon as it passes `maxBytes` (the stream is cancelled, the rest never read). */
async function readLimited(response: Response, maxBytes: number): Promise<Uint8Array | null> {
  if (!response.body) return new Uint8Array(0);
  const reader = response.body.getReader();
  const parts: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    parts.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    offset += part.byteLength;
  }
  return bytes;
}

/** Decode by the `charset` the server declared; UTF-8 when none or an unknown one. */
function decode(bytes: Uint8Array, contentType: string): string {
  const charset = /charset\s*=\s*"?([^";\s]+)/i.exec(contentType)?.[1];
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}

async function discard(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => undefined);
}

function safeUrl(location: string, base: URL): URL | null {
  try {
    return new URL(location, base);
  } catch {
    return null;
  }
}

function networkError(url: URL, error: unknown, timedOut: boolean, timeoutMs: number): FetchOutcome {
  if (timedOut) return { kind: 'network_error', url, message: `no answer within ${timeoutMs} ms`, timedOut: true };
  return { kind: 'network_error', url, message: describeNetworkError(error), timedOut: false };
}

const NETWORK_CODES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host not found (DNS)',
  EAI_AGAIN: 'host name lookup failed (DNS)',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'connection timed out',
  UND_ERR_SOCKET: 'connection closed by the server',
  CERT_HAS_EXPIRED: 'TLS certificate expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'self-signed TLS certificate',
  ERR_TLS_CERT_ALTNAME_INVALID: 'TLS certificate is for another host',
};

/** undici reports `TypeError: fetch failed` with the reason in `cause`: name the reason. */
function describeNetworkError(error: unknown): string {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return NETWORK_CODES[code] ?? `${code}: ${current.message}`;
    current = (current as { cause?: unknown }).cause;
  }
  return error instanceof Error ? error.message : String(error);
}
