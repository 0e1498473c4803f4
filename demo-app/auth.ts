import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { HttpError } from '../src/capture/errors.js';
import { loginPage } from './pages.js';

/** Name of the dashboard session cookie (HttpOnly, SameSite=Strict, scoped to /dashboard). */
export const SESSION_COOKIE = 'gc_dashboard';

/**
 * Bearer-token protection for the dashboard. A script sends `Authorization: Bearer <token>`; a
 * person opens `/dashboard?token=<token>` once, which sets an HttpOnly SameSite=Strict cookie
 * holding an HMAC of the token (never the token itself) and redirects to `/dashboard`, so the
 * token leaves the address bar and the history. Comparisons are constant-time.
 *
 * With no token configured the dashboard is open (the demo's development default).
 */
export function dashboardAuth(token: string | null) {
  const session = token === null ? null : createHmac('sha256', token).update('groundcheck-dashboard-session-v1').digest('hex');

  return function requireDashboardToken(req: Request, res: Response, next: NextFunction): void {
    if (token === null || session === null) return next();

    const header = req.headers.authorization;
    if (typeof header === 'string' && /^Bearer /i.test(header)) {
      if (safeEqual(header.slice(7).trim(), token)) return next();
      return next(new HttpError(401, 'auth.invalid_token', 'the bearer token is wrong'));
    }

    const offered = typeof req.query.token === 'string' ? req.query.token : undefined;
    if (offered !== undefined && req.method === 'GET' && req.path === '/') {
      if (!safeEqual(offered, token)) {
        res.status(401).type('html').send(loginPage('That token is not right. Try again.'));
        return;
      }
      res.cookie(SESSION_COOKIE, session, { httpOnly: true, sameSite: 'strict', secure: req.secure, path: '/dashboard' });
      res.redirect(303, `${req.baseUrl || '/dashboard'}`);
      return;
    }

    const cookie = readCookie(req.headers.cookie, SESSION_COOKIE);
    if (cookie !== undefined && safeEqual(cookie, session)) return next();

    if (req.path === '/' && req.accepts(['html', 'json']) === 'html') {
      res.status(401).type('html').send(loginPage(null));
      return;
    }
    next(new HttpError(401, 'auth.required', 'the dashboard needs a token: send Authorization: Bearer <token>'));
  };
}

/** Constant-time comparison of two strings of any length (both are hashed first). */
export function safeEqual(offered: string, expected: string): boolean {
  const a = createHash('sha256').update(offered).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

function readCookie(header: string | undefined, name: string): string | undefined {
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
