import { InvalidInputError } from '../../errors.js';

/** Shortest token accepted in production. */
export const MIN_PRODUCTION_TOKEN_LENGTH = 16;

/**
 * Whether `NODE_ENV` names production, in any case and short form: `production`, `Production`,
 * `PRODUCTION`, `prod`. (A check for exactly `production` let `Production` run unprotected.)
 */
export function isProductionEnv(env: Record<string, string | undefined>): boolean {
  return /^prod(uction)?$/i.test((env.NODE_ENV ?? '').trim());
}

/** Why a token is too weak to protect captured questions, or `null`: under 16 characters, or one character repeated. */
export function weakTokenReason(token: string): string | null {
  if (token.length < MIN_PRODUCTION_TOKEN_LENGTH) return `it is ${token.length} characters; use at least ${MIN_PRODUCTION_TOKEN_LENGTH}`;
  if (/^(.)\1*$/su.test(token)) return 'it is one character repeated';
  return null;
}

export interface ResolveDashboardTokenOptions {
  /** The token; `undefined` reads `env.GROUNDCHECK_DASHBOARD_TOKEN`; `null` or `''` leaves the dashboard open (refused in production). */
  token?: string | null;
  /** [env=process.env] */
  env?: Record<string, string | undefined>;
  /** Told when a weak token is accepted outside production. */
  logger?: { warn(object: object, message: string): void };
}

/**
 * The dashboard token to use, or `null` for an open dashboard, after the production rules: in
 * production (see {@link isProductionEnv}) a token is required and must not be weak (see
 * {@link weakTokenReason}); elsewhere a weak token is accepted with a warning.
 *
 * @throws InvalidInputError `dashboard_token_required`, `dashboard_token_weak`.
 * @example
 * const token = resolveDashboardToken({ env: process.env }); // GROUNDCHECK_DASHBOARD_TOKEN
 */
export function resolveDashboardToken(options: ResolveDashboardTokenOptions = {}): string | null {
  const env = options.env ?? process.env;
  const given = options.token === undefined ? env.GROUNDCHECK_DASHBOARD_TOKEN : options.token;
  if (given !== undefined && given !== null && typeof given !== 'string') {
    throw new InvalidInputError(`groundcheckDashboard: option token ${typeof given} is invalid: use a string, or null for an open dashboard`, { code: 'invalid_option' });
  }
  const token = given === undefined || given === null || given === '' ? null : given;
  const production = isProductionEnv(env);
  if (token === null) {
    if (production) {
      throw new InvalidInputError(
        `refusing to start: NODE_ENV=${env.NODE_ENV} and no dashboard token. Set GROUNDCHECK_DASHBOARD_TOKEN (the dashboard shows captured questions and answers).`,
        { code: 'dashboard_token_required' },
      );
    }
    return null;
  }
  const weak = weakTokenReason(token);
  if (weak !== null) {
    if (production) {
      throw new InvalidInputError(`refusing to start: the dashboard token is too weak for NODE_ENV=${env.NODE_ENV}: ${weak}`, { code: 'dashboard_token_weak' });
    }
    options.logger?.warn({ event: 'dashboard.weak_token' }, `the dashboard token is weak (${weak}); it would be refused in production`);
  }
  return token;
}
