import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import express4 from 'express4';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { memoryLogger, metricValue } from '../test-support/capture-helpers.js';
import { onCleanup, tempDir } from '../test-support/fixtures.js';
import { groundcheckDashboard } from './dashboard/dashboard.js';
import { groundcheckErrorHandler } from './errors.js';
import { createCaptureMetrics } from './metrics.js';
import { captureRag } from './middleware.js';
import { openCaptureStore } from './store.js';
import { streamRagAnswer } from './stream.js';

const TOKEN = 'correct-horse-battery-staple';
const RECORD = { query: 'How long is probation?', chunks: [{ id: 'hr-7', text: 'Probation lasts six months.' }] };

/** express is a peer dependency (^4.21.0 || ^5.0.0): the same middleware, stream helper and dashboard under Express 4. */
describe('under Express 4', () => {
  it('express4 is Express 4', async () => {
    const { createRequire } = await import('node:module');
    expect((createRequire(import.meta.url)('express4/package.json') as { version: string }).version).toMatch(/^4\./);
  });

  it('captureRag records plain records (a bad one rejected alone), streamRagAnswer marks a hung-up stream aborted, the dashboard lists them behind its token', async () => {
    const store = openCaptureStore({ path: join(tempDir(), 'captures.db') });
    onCleanup(() => store.close());
    const metrics = createCaptureMetrics();
    const capture = captureRag({ store, metrics, logger: memoryLogger().logger });
    const app = express4();
    app.use(capture);
    app.post('/ask', express4.json(), (req, res) => {
      const ids = [req.rag!.record({ ...RECORD, answer: 'Six months.' }), req.rag!.record({ query: '', chunks: [], answer: 'x' })];
      res.json({ ids });
    });
    let hungUp!: () => void;
    const streamClosed = new Promise<void>((resolve) => (hungUp = resolve));
    app.post('/stream', (req, res) => {
      const answer = streamRagAnswer(req, res, { record: RECORD });
      answer.write('Six');
      answer.signal.addEventListener('abort', () => hungUp());
    });
    const dashboard = groundcheckDashboard({ store, token: TOKEN, env: {} });
    app.use('/groundcheck', dashboard);
    app.use(groundcheckErrorHandler());
    const server = app.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => server.once('listening', resolve));
    onCleanup(() => server.close());
    const port = (server.address() as AddressInfo).port;

    const asked = await request(server).post('/ask').send({});
    expect(asked.body.ids).toEqual([expect.any(String), null]);
    const client = httpRequest(`http://127.0.0.1:${port}/stream`, { method: 'POST' }, (response) => response.once('data', () => client.destroy()));
    client.on('error', () => undefined);
    client.end();
    await streamClosed;
    await expect.poll(async () => capture.queued + (await store.captureCount())).toBe(2);
    await capture.flush();

    expect(await metricValue(metrics.captureFailures, { reason: 'build' })).toBe(1);
    const rows = (await store.listCaptures()).map(({ capture: captured }) => [captured.route, captured.answer, captured.aborted]);
    expect(rows).toEqual([
      ['/stream', 'Six', true],
      ['/ask', 'Six months.', false],
    ]);
    expect((await request(server).get('/groundcheck/api/captures')).status).toBe(401);
    const listed = await request(server).get('/groundcheck/api/captures?filter=aborted').set('authorization', `Bearer ${TOKEN}`);
    expect([listed.status, listed.headers['cache-control'], listed.body.captures.length]).toEqual([200, 'no-store', 1]);
    const page = await request(server).get('/groundcheck/').set('authorization', `Bearer ${TOKEN}`);
    expect(page.text).toContain('data-base="/groundcheck"');
    expect((await request(server).get('/groundcheck/assets/dashboard.js')).status).toBe(200);
    const signIn = await request(server).post('/groundcheck/login').type('form').send({ token: TOKEN });
    expect([signIn.status, String(signIn.headers['set-cookie'])]).toEqual([303, expect.stringMatching(/^gc_dashboard=v1\..*; Max-Age=43200; Path=\/groundcheck;/)]);
  });
});
