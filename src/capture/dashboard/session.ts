import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The dashboard session cookie's value: `v1.<expiry ms>.<HMAC-SHA256 of the expiry, keyed by the
 * token>`. It never holds the token; it stops working at its expiry whatever the browser does
 * with the cookie, and when the token changes.
 */
export function sessionValue(token: string, expiresAtMs: number): string {
  return `v1.${expiresAtMs}.${signature(token, expiresAtMs)}`;
}

/** Whether a cookie value is a session of this token that has not expired. */
export function isValidSession(value: string, token: string, nowMs: number): boolean {
  const match = /^v1\.(\d{1,16})\.([0-9a-f]{64})$/.exec(value);
  if (!match) return false;
  const expiresAtMs = Number(match[1]);
  if (!(expiresAtMs > nowMs)) return false;
  return safeEqual(match[2]!, signature(token, expiresAtMs));
}

function signature(token: string, expiresAtMs: number): string {
  return createHmac('sha256', token).update(`groundcheck-dashboard-session-v1|${expiresAtMs}`).digest('hex');
}

/** Constant-time comparison of two strings of any length (both are hashed first). */
export function safeEqual(offered: string, expected: string): boolean {
  const a = createHash('sha256').update(offered).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/** One cookie's value from a `Cookie` header, or `undefined`. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at === -1) continue;
    if (part.slice(0, at).trim() !== name) continue;
    try {
      return decodeURIComponent(part.slice(at + 1).trim());
    } catch {
      return undefined; // a malformed cookie is no session
    }
  }
  return undefined;
}
