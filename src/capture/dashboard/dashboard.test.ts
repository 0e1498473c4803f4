import { join } from 'node:path';
import express from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { OUTCOME_TABLE, outcomeNames } from '../../contract/outcome.js';
import { plainCapture } from '../../test-support/capture-helpers.js';
import { onCleanup, tempDir } from '../../test-support/fixtures.js';
import { groundcheckErrorHandler } from '../errors.js';
import { openSqliteCaptureStore } from '../store.js';
import { DASHBOARD_ASSET_FILES } from './assets.js';
import { groundcheckDashboard } from './dashboard.js';
import type { GroundcheckDashboardOptions } from './options.js';

const TOKEN = 'correct-horse-battery-staple';

/** Any app (not the demo), with two captures of its own and the dashboard mounted at /groundcheck. */
function appWith(options: Partial<GroundcheckDashboardOptions> = {}) {
  const store = openSqliteCaptureStore({ path: join(tempDir(), 'captures.db') });
  onCleanup(() => store.close());
  store.writeCaptures([
    plainCapture({ query: 'How long is probation?', chunks: [{ id: 'hr-7', text: 'Probation lasts six months.' }], answer: 'Six months.' }, 'trace-a'),
    plainCapture({ query: 'What is the notice period?', chunks: [{ id: 'hr-9', text: 'Notice is one week.' }], answer: 'One' }, 'trace-b', { aborted: true }),
  ]);
  const dashboard = groundcheckDashboard({ store, token: TOKEN, env: {}, ...options });
  const app = express();
  app.use('/groundcheck', dashboard);
  app.use('/api/traces', dashboard.traceApi);
  app.use(groundcheckErrorHandler());
  return { app, store, dashboard };
}

const bearer = { authorization: `Bearer ${TOKEN}` };

describe('groundcheckDashboard, mounted in any app', () => {
  it('serves its page and assets under the mount path, and the captures with verdicts and the filters of the outcome table', async () => {
    const { app } = appWith({ homeLink: { href: '/', label: 'Home' } });
    const page = await request(app).get('/groundcheck').set(bearer);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<body class="dashboard" data-base="/groundcheck">');
    expect(page.text).toContain('<script type="module" src="/groundcheck/assets/dashboard.js"></script>');
    expect(page.text).toContain('<a href="/">Home</a>');
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    for (const asset of DASHBOARD_ASSET_FILES) {
      const response = await request(app).get(`/groundcheck/assets/${asset}`);
      expect([response.status, response.headers['cache-control']], asset).toEqual([200, 'public, max-age=3600']);
      expect(response.text, asset).not.toMatch(/https?:\/\/(?!localhost)/);
    }

    const listed = await request(app).get('/groundcheck/api/captures').set(bearer);
    expect(listed.status).toBe(200);
    expect(listed.body.captures.map((row: { traceId: string; verdict: string }) => [row.traceId, row.verdict])).toEqual([
      ['trace-b', 'aborted'],
      ['trace-a', 'not_judged'],
    ]);
    // The outcome filters are the table's, in its order, with its labels; then the capture states.
    const filters = listed.body.filters as { name: string; label: string; count: number }[];
    expect(filters.map((filter) => filter.name)).toEqual(['all', ...outcomeNames(), 'aborted', 'pending', 'not_judged', 'refusals', 'drifted']);
    expect(filters.find((filter) => filter.name === OUTCOME_TABLE[0]!.outcome)!.label).toBe(OUTCOME_TABLE[0]!.label);
    expect(listed.body.counts).toMatchObject({ all: 2, aborted: 1, not_judged: 1, pending: 0 });
    const aborted = await request(app).get('/groundcheck/api/captures?filter=aborted').set(bearer);
    expect(aborted.body.captures.map((row: { traceId: string }) => row.traceId)).toEqual(['trace-b']);
    const unknown = await request(app).get('/groundcheck/api/captures?filter=everything').set(bearer);
    expect([unknown.status, unknown.body.error.type]).toEqual([400, 'request.invalid']);
  });

  it('a label changed in the outcome table is the label of its filter', async () => {
    const row = OUTCOME_TABLE[0]!;
    const original = row.label;
    row.label = 'Renamed row';
    onCleanup(() => (row.label = original));
    const { app } = appWith();
    const listed = await request(app).get('/groundcheck/api/captures').set(bearer);
    expect(listed.body.filters.find((filter: { name: string }) => filter.name === row.outcome).label).toBe('Renamed row');
  });

  it('the page, the APIs and the sign-in page send Cache-Control: no-store', async () => {
    const { app } = appWith({ protectTraceApi: true });
    for (const [path, headers] of [
      ['/groundcheck', bearer],
      ['/groundcheck/api/captures', bearer],
      ['/groundcheck/api/traces/trace-a', bearer],
      ['/api/traces/trace-a', bearer],
      ['/api/traces/trace-a', {}],
      ['/groundcheck', { accept: 'text/html' }],
    ] as const) {
      const response = await request(app).get(path).set(headers);
      expect(response.headers['cache-control'], `${path} ${JSON.stringify(headers)}`).toBe('no-store');
    }
  });

  it('people sign in with the form; the session cookie is scoped to the mount path and expires, server-side too', async () => {
    let now = 1_800_000_000_000;
    const { app } = appWith({ now: () => now, sessionTtlMs: 60_000 });
    const signIn = await request(app).post('/groundcheck/login').type('form').send({ token: TOKEN });
    expect([signIn.status, signIn.headers.location]).toEqual([303, '/groundcheck']);
    const cookie = String(signIn.headers['set-cookie']);
    expect(cookie).toMatch(/^gc_dashboard=v1\.1800000060000\.[0-9a-f]{64}; Max-Age=60; Path=\/groundcheck; Expires=[^;]+; HttpOnly; SameSite=Strict$/);
    expect(cookie).not.toContain(TOKEN);
    const session = cookie.split(';')[0]!;
    expect((await request(app).get('/groundcheck/api/captures').set('cookie', session)).status).toBe(200);
    now += 59_999;
    expect((await request(app).get('/groundcheck/api/captures').set('cookie', session)).status).toBe(200);
    // Expired: a browser that ignores Max-Age (or a copied cookie) gets nothing more.
    now += 1;
    const expired = await request(app).get('/groundcheck/api/captures').set('cookie', session);
    expect([expired.status, expired.body.error.type]).toEqual([401, 'auth.required']);
    // Changing the expiry in the cookie breaks its signature.
    const forged = session.replace('1800000060000', '1900000000000');
    expect((await request(app).get('/groundcheck/api/captures').set('cookie', forged)).status).toBe(401);
    const signOut = await request(app).post('/groundcheck/logout').set('cookie', session);
    expect(String(signOut.headers['set-cookie'])).toMatch(/^gc_dashboard=; Path=\/groundcheck; Expires=Thu, 01 Jan 1970/);
  });

  it('wrong tokens are rate-limited per client: after maxFailures, even the right token waits for the window; other clients are not affected', async () => {
    let now = 1_800_000_000_000;
    const { app } = appWith({ now: () => now, rateLimit: { maxFailures: 3, windowMs: 60_000 }, clientKey: (req) => String(req.headers['x-client']) });
    const attempt = (client: string, token: string) => request(app).get('/groundcheck/api/captures').set({ authorization: `Bearer ${token}`, 'x-client': client });
    for (let index = 0; index < 3; index++) expect((await attempt('mallory', 'guess-guess-guess')).status).toBe(401);
    const limited = await attempt('mallory', TOKEN);
    expect([limited.status, limited.body.error.type, limited.headers['retry-after']]).toEqual([429, 'auth.rate_limited', '60']);
    const form = await request(app).post('/groundcheck/login').type('form').set('x-client', 'mallory').send({ token: TOKEN });
    expect([form.status, form.headers['set-cookie']]).toEqual([429, undefined]);
    expect(form.text).toContain('Too many wrong tokens from this address. Try again in 1 minute.');
    expect((await attempt('alice', TOKEN)).status).toBe(200);
    now += 60_000;
    expect((await attempt('mallory', TOKEN)).status).toBe(200);
  });

  it('a wrong sign-in shows the form again with the problem, without a cookie; rateLimit: false turns the limit off', async () => {
    const { app } = appWith({ rateLimit: false, clientKey: () => 'one-client' });
    for (let index = 0; index < 12; index++) {
      const wrong = await request(app).post('/groundcheck/login').type('form').send({ token: 'nope-nope-nope-nope' });
      expect([wrong.status, wrong.headers['set-cookie']]).toEqual([401, undefined]);
    }
    expect((await request(app).get('/groundcheck/api/captures').set(bearer)).status).toBe(200);
  });

  it('the trace API for your pages: open outside production unless protectTraceApi, token-protected in production by default', async () => {
    const open = appWith();
    expect(open.dashboard.protectTraceApi).toBe(false);
    const trace = await request(open.app).get('/api/traces/trace-a');
    expect([trace.status, trace.body.traceId, trace.body.verdict]).toEqual([200, 'trace-a', 'not_judged']);
    expect((await request(open.app).get('/api/traces/missing')).body.error.type).toBe('trace.not_found');

    const production = appWith({ env: { NODE_ENV: 'Production' } });
    expect(production.dashboard.protectTraceApi).toBe(true);
    expect((await request(production.app).get('/api/traces/trace-a')).status).toBe(401);
    expect((await request(production.app).get('/api/traces/trace-a').set(bearer)).status).toBe(200);
    expect(appWith({ env: { NODE_ENV: 'prod' }, protectTraceApi: false }).dashboard.protectTraceApi).toBe(false);
  });

  it('with no token outside production the dashboard is open; a store given as a path is opened and closed by the dashboard', async () => {
    const { store } = appWith();
    const dashboard = groundcheckDashboard({ store: store.path, token: null, env: {} });
    onCleanup(() => void dashboard.close());
    const app = express().use('/', dashboard);
    const listed = await request(app).get('/api/captures');
    expect([listed.status, listed.body.counts.all]).toEqual([200, 2]);
  });
});

describe('dashboard token policy', () => {
  const store = { getCapture: async () => undefined, listCaptures: async () => [], outcomeCounts: async () => [] };
  it.each([
    [{ NODE_ENV: 'production' }, undefined, 'dashboard_token_required'],
    [{ NODE_ENV: 'Production' }, undefined, 'dashboard_token_required'],
    [{ NODE_ENV: 'PROD' }, null, 'dashboard_token_required'],
    [{ NODE_ENV: 'prod' }, '', 'dashboard_token_required'],
    [{ NODE_ENV: 'production' }, 'fifteen-chars!!', 'dashboard_token_weak'],
    [{ NODE_ENV: 'production' }, 'a'.repeat(40), 'dashboard_token_weak'],
    [{ NODE_ENV: 'production', GROUNDCHECK_DASHBOARD_TOKEN: 'x'.repeat(32) }, undefined, 'dashboard_token_weak'],
  ])('NODE_ENV %j with token %j is refused: %s', (env, token, code) => {
    expect(() => groundcheckDashboard({ store, env, ...(token !== undefined ? { token } : {}) })).toThrow(expect.objectContaining({ code }));
  });

  it.each([
    [{ NODE_ENV: 'production' }, 'sixteen-chars-ok'],
    [{ NODE_ENV: 'production', GROUNDCHECK_DASHBOARD_TOKEN: TOKEN }, undefined],
    [{ NODE_ENV: 'development' }, undefined],
    [{ NODE_ENV: 'productive' }, undefined],
  ])('NODE_ENV %j with token %j starts', (env, token) => {
    expect(() => groundcheckDashboard({ store, env, ...(token !== undefined ? { token } : {}) })).not.toThrow();
  });

  it('a weak token outside production is accepted with a warning', () => {
    const warnings: string[] = [];
    groundcheckDashboard({ store, env: {}, token: 'short', logger: { warn: (_object, message) => void warnings.push(message) } });
    expect(warnings).toEqual(['the dashboard token is weak (it is 5 characters; use at least 16); it would be refused in production']);
  });

  it.each([
    [{ store: undefined }, /option store undefined is invalid: use a capture store/],
    [{ sessionTtlMs: 0 }, /option sessionTtlMs 0 is invalid/],
    [{ rateLimit: { maxFailures: 1.5 } }, /option rateLimit\.maxFailures 1\.5 is invalid/],
    [{ homeLink: '/' }, /option homeLink "\/" is invalid: use \{ href, label \}/],
    [{ index: {} }, /option index \{\} is invalid/],
    [{ protectTraceApi: 'yes' }, /option protectTraceApi "yes" is invalid/],
    [{ capture: { queued: 0 } }, /option capture .* is invalid: use the captureRag middleware/],
    [{ evalResults: 3 }, /option evalResults 3 is invalid: use the path of a folder of eval results, or false/],
    [{ evalResults: ' ' }, /option evalResults " " is invalid/],
    [{ store: { getCapture: async () => undefined, listCaptures: async () => [] } }, /option store \{.*\} is invalid: use a capture store/],
  ])('rejects bad options at construction: %j', (options, message) => {
    expect(() => groundcheckDashboard({ store, env: {}, ...(options as object) } as GroundcheckDashboardOptions)).toThrow(message);
  });
});
