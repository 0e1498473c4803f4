import express, { type Router } from 'express';
import { openCaptureStore } from '../store.js';
import { checkDashboardAssets } from './assets.js';
import { basePath, createDashboardAuth, type DashboardAuth } from './auth.js';
import { capturesHandler } from './captures-api.js';
import { dashboardContext } from './context.js';
import { normalizeDashboardOptions, type DashboardStore, type GroundcheckDashboardOptions } from './options.js';
import { noStore, securityHeaders } from './headers.js';
import { dashboardPage } from './pages.js';
import { createFailureLimiter } from './rate-limit.js';
import { ratesHandler } from './rates-api.js';
import { traceHandler } from './trace-api.js';

/** The dashboard router, with handles on it. */
export interface GroundcheckDashboard extends Router {
  /**
   * `GET /:id` for your own pages (mount it: `app.use('/api/traces', dashboard.traceApi)`): one
   * trace with its verdict. It needs the dashboard's token when `protectTraceApi` is on (by
   * default in production); it always sends `Cache-Control: no-store`.
   */
  readonly traceApi: Router;
  /** The gate, to protect routes of your own with the dashboard's token: `app.get('/admin', dashboard.auth.require, …)`. */
  readonly auth: DashboardAuth;
  /** Whether `traceApi` needs the token. */
  readonly protectTraceApi: boolean;
  readonly store: DashboardStore;
  /** Close the store if the dashboard opened it (given a path); a store you passed stays open. */
  close(): Promise<void>;
}

/**
 * A dashboard of captures for any Express app (4 or 5), mounted anywhere: live outcome rates over
 * time beside the newest offline eval's rates for the same judge version, every capture with its
 * verdict (the contract's outcome table), paged and filtered by the store, each capture's claims
 * against the evidence the judge used, and drift. Routes under the mount path: `/` (the page),
 * `/assets/*`, `POST /login` (and `/?token=`), `POST /logout`, `/api/captures`, `/api/rates`,
 * `/api/traces/:id`.
 *
 * Protected by a token (see the `token` option): scripts send `Authorization: Bearer <token>`;
 * people sign in once on the page, which sets an HttpOnly, SameSite=Strict session cookie scoped
 * to the mount path that expires (`sessionTtlMs`). Wrong tokens are rate-limited per client.
 * Every page and API answer is `Cache-Control: no-store`, with a Content-Security-Policy that
 * allows nothing but the app itself. Errors go to `next(err)` as `HttpError`s
 * (`groundcheckErrorHandler()` renders them).
 *
 * @throws InvalidInputError `dashboard_token_required` / `dashboard_token_weak` in production, `invalid_option`.
 * @example
 * const dashboard = groundcheckDashboard({ store, token: process.env.GROUNDCHECK_DASHBOARD_TOKEN, worker });
 * app.use('/groundcheck', dashboard);
 * app.use(groundcheckErrorHandler());
 */
export function groundcheckDashboard(options: GroundcheckDashboardOptions): GroundcheckDashboard {
  const config = normalizeDashboardOptions(options);
  const assetsDir = checkDashboardAssets();
  const ownsStore = typeof config.store === 'string';
  const store: DashboardStore = typeof config.store === 'string' ? openCaptureStore({ path: config.store }) : config.store;
  const context = dashboardContext(store, config);
  const auth = createDashboardAuth({
    token: config.token,
    sessionTtlMs: config.sessionTtlMs,
    limiter: config.rateLimit ? createFailureLimiter(config.rateLimit, config.now) : null,
    clientKey: config.clientKey,
    now: config.now,
    logger: config.logger,
  });

  const router = express.Router();
  router.use(securityHeaders);
  // Code and styles only, the same for everyone: cacheable, and open (the sign-in page needs them).
  router.use('/assets', express.static(assetsDir, { index: false, maxAge: '1h', fallthrough: true }));
  router.use(noStore);
  router.post('/login', express.urlencoded({ extended: false, limit: '4kb' }), (req, res) => auth.signIn(req, res, typeof req.body?.token === 'string' ? req.body.token : ''));
  router.post('/logout', (req, res) => auth.signOut(req, res));
  router.get('/', (req, res, next) => {
    // `?token=` links sign in like the form does (then redirect, so the token leaves the address bar).
    if (typeof req.query.token === 'string') return auth.signIn(req, res, req.query.token);
    next();
  });
  router.use(auth.require);
  router.get('/', (req, res) => {
    res.type('html').send(dashboardPage(basePath(req), { homeLink: config.homeLink, signOut: config.token !== null }));
  });
  router.get('/api/captures', capturesHandler(context));
  router.get('/api/rates', ratesHandler(context, config.now));
  router.get('/api/traces/:id', traceHandler(context));

  const traceApi = express.Router();
  traceApi.use(noStore);
  if (config.protectTraceApi) traceApi.use(auth.require);
  traceApi.get('/:id', traceHandler(context));

  return Object.defineProperties(router, {
    traceApi: { value: traceApi, enumerable: true },
    auth: { value: auth, enumerable: true },
    protectTraceApi: { value: config.protectTraceApi, enumerable: true },
    store: { value: store, enumerable: true },
    close: {
      value: async () => {
        if (ownsStore) await (store as { close?: () => unknown }).close?.();
      },
    },
  }) as GroundcheckDashboard;
}
