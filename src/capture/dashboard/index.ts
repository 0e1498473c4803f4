/**
 * The mountable dashboard: `app.use('/groundcheck', groundcheckDashboard({ store, token }))`.
 * One job per file: options (validation), token-policy (production rules), auth, session (the
 * cookie), rate-limit, views (verdicts and filters from the contract's table), request-query (the
 * APIs' query parameters), captures-api, rates-api with rates-view (live beside offline),
 * trace-api, pages (HTML), headers (CSP, no-store), assets (the static files' folder), dashboard (the router).
 */
export { groundcheckDashboard, type GroundcheckDashboard } from './dashboard.js';
export { type GroundcheckDashboardOptions, type DashboardStore, DEFAULT_SESSION_TTL_MS, DEFAULT_RATE_LIMIT, DEFAULT_EVAL_RESULTS } from './options.js';
export { isProductionEnv, weakTokenReason, resolveDashboardToken, MIN_PRODUCTION_TOKEN_LENGTH, type ResolveDashboardTokenOptions } from './token-policy.js';
export { SESSION_COOKIE, type DashboardAuth } from './auth.js';
export { dashboardFilters, traceView, pickJudgment, type TraceView, type DashboardFilter, type FilterContext, type ChunkHashSource, type HashLookup } from './views.js';
export { ratesView, offlineEvalCommand, type RatesView, type RatesBucketView, type OutcomeRate } from './rates-view.js';
export { DASHBOARD_ASSETS_DIR } from './assets.js';
export { securityHeaders, noStore } from './headers.js';
export type { HomeLink } from './pages.js';
export type { FailureLimitOptions } from './rate-limit.js';
