import type { NextFunction, Request, Response } from 'express';
import { HttpError } from '../errors.js';
import { loginPage } from './pages.js';
import type { FailureLimiter } from './rate-limit.js';
import { isValidSession, readCookie, safeEqual, sessionValue } from './session.js';

/** Name of the dashboard session cookie (HttpOnly, SameSite=Strict, scoped to the dashboard's path, expiring). */
export const SESSION_COOKIE = 'gc_dashboard';

export interface DashboardAuthConfig {
  /** `null`: the dashboard is open. */
  token: string | null;
  sessionTtlMs: number;
  /** `null`: wrong tokens are not rate-limited. */
  limiter: FailureLimiter | null;
  clientKey: (req: Request) => string;
  now: () => number;
  logger: { warn(object: object, message: string): void } | undefined;
}

/** The dashboard's gate: bearer tokens for scripts, a sign-in page and an expiring session cookie for people. */
export interface DashboardAuth {
  /** Passes with the bearer token or a live session; otherwise 401 (the sign-in page for a page, JSON for the API) or 429 while rate-limited. */
  require(req: Request, res: Response, next: NextFunction): void;
  /** Sign in with `token` (the form's field, or `?token=`): sets the session cookie and redirects to the dashboard. */
  signIn(req: Request, res: Response, offered: string): void;
  /** Clear the session cookie and show the sign-in page. */
  signOut(req: Request, res: Response): void;
}

/** The dashboard's own path: where the cookie is scoped and where sign-in redirects to. */
export function basePath(req: Request): string {
  return req.baseUrl || '/';
}

export function createDashboardAuth(config: DashboardAuthConfig): DashboardAuth {
  const { token, limiter, now } = config;

  /** Milliseconds this client must wait; also sets `Retry-After`. 0 when it may try. */
  const waitFor = (req: Request, res: Response): number => {
    const waitMs = limiter?.retryAfterMs(config.clientKey(req)) ?? 0;
    if (waitMs > 0) res.setHeader('Retry-After', String(Math.ceil(waitMs / 1000)));
    return waitMs;
  };
  const failed = (req: Request) => {
    if (!limiter) return;
    const client = config.clientKey(req);
    limiter.fail(client);
    if (limiter.retryAfterMs(client) > 0) config.logger?.warn({ event: 'dashboard.rate_limited', client }, 'too many wrong dashboard tokens from one client; refusing it for a while');
  };

  return {
    require(req, res, next) {
      if (token === null) return next();
      const header = req.headers.authorization;
      if (typeof header === 'string' && /^Bearer /i.test(header)) {
        const waitMs = waitFor(req, res);
        if (waitMs > 0) return next(rateLimited(waitMs));
        if (safeEqual(header.slice(7).trim(), token)) {
          limiter?.reset(config.clientKey(req));
          return next();
        }
        failed(req);
        return next(new HttpError(401, 'auth.invalid_token', 'the bearer token is wrong'));
      }
      const cookie = readCookie(req.headers.cookie, SESSION_COOKIE);
      if (cookie !== undefined && isValidSession(cookie, token, now())) return next();
      if (req.method === 'GET' && req.path === '/' && req.accepts(['html', 'json']) === 'html') {
        res.status(401).type('html').send(loginPage(basePath(req), null));
        return;
      }
      next(new HttpError(401, 'auth.required', 'the dashboard needs a token: send Authorization: Bearer <token>'));
    },

    signIn(req, res, offered) {
      const base = basePath(req);
      if (token === null) {
        res.redirect(303, base);
        return;
      }
      const waitMs = waitFor(req, res);
      if (waitMs > 0) {
        res.status(429).type('html').send(loginPage(base, `Too many wrong tokens from this address. Try again in ${minutes(waitMs)}.`));
        return;
      }
      if (!safeEqual(offered, token)) {
        failed(req);
        res.status(401).type('html').send(loginPage(base, 'That token is not right. Try again.'));
        return;
      }
      limiter?.reset(config.clientKey(req));
      const expiresAt = now() + config.sessionTtlMs;
      res.cookie(SESSION_COOKIE, sessionValue(token, expiresAt), {
        httpOnly: true,
        sameSite: 'strict',
        secure: req.secure,
        path: base,
        // The browser drops it then; the value itself stops working at `expiresAt` regardless.
        maxAge: config.sessionTtlMs,
      });
      res.redirect(303, base);
    },

    signOut(req, res) {
      res.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: 'strict', secure: req.secure, path: basePath(req) });
      res.status(200).type('html').send(loginPage(basePath(req), 'Signed out.'));
    },
  };
}

function rateLimited(waitMs: number): HttpError {
  return new HttpError(429, 'auth.rate_limited', `too many wrong tokens from this client; try again in ${Math.ceil(waitMs / 1000)} s`);
}

function minutes(milliseconds: number): string {
  const count = Math.max(1, Math.ceil(milliseconds / 60_000));
  return `${count} minute${count === 1 ? '' : 's'}`;
}
