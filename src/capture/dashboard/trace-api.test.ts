import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import express from 'express';
import { describe, expect, it } from 'vitest';
import { memoryLogger } from '../../test-support/capture-helpers.js';
import { onCleanup, tempDir } from '../../test-support/fixtures.js';
import { groundcheckErrorHandler } from '../errors.js';
import { captureRag, type CaptureRagMiddleware } from '../middleware.js';
import { openSqliteCaptureStore } from '../store.js';
import { groundcheckDashboard } from './dashboard.js';

const RECORD = { query: 'How long is probation?', chunks: [{ id: 'hr-7', text: 'Probation lasts six months.' }], answer: 'Six months.' };

/**
 * An app whose chat route sends the answer (with its trace id) at once and ends the response
 * `endAfterMs` later: its client can ask for the trace while the server has not seen the response
 * close, which is when captureRag queues the capture. Under load the same race happens between a
 * response's last bytes and its 'close' event (the demo's browser test met it in CI).
 */
async function slowClosingApp(endAfterMs: number, withRecording = true) {
  const store = openSqliteCaptureStore({ path: join(tempDir(), 'captures.db') });
  const capture = captureRag({ store, logger: memoryLogger().logger });
  const pending = withRecording ? capture : { get queued() { return capture.queued; }, flush: () => capture.flush() };
  const dashboard = groundcheckDashboard({ store, token: null, env: {}, capture: pending });
  const app = express();
  app.use('/api/traces', dashboard.traceApi);
  app.post('/chat', capture, (req, res) => {
    const traceId = req.rag!.record(RECORD);
    res.setHeader('content-type', 'application/x-ndjson');
    res.write(`${JSON.stringify({ traceId })}\n`);
    setTimeout(() => res.end(), endAfterMs);
  });
  return { base: await serve(app, capture, store), capture };
}

/** Serve the app on a loopback port (error handler added); on cleanup close the server, then the middleware and the store. */
async function serve(app: express.Express, capture: CaptureRagMiddleware, store: { close(): Promise<void> }): Promise<string> {
  app.use(groundcheckErrorHandler());
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  onCleanup(async () => {
    server.closeAllConnections();
    server.close();
    await capture.close();
    await store.close();
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** POST /chat and resolve with the trace id as soon as the first line arrives (the response still open), and the response. */
function startChat(base: string): Promise<{ traceId: string; response: IncomingMessage }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}/chat`, { method: 'POST' }, (response) => {
      response.setEncoding('utf8');
      let text = '';
      const onData = (chunk: string) => {
        text += chunk;
        if (!text.includes('\n')) return;
        response.off('data', onData);
        response.resume();
        resolve({ traceId: (JSON.parse(text.split('\n')[0]!) as { traceId: string }).traceId, response });
      };
      response.on('data', onData);
    });
    req.on('error', reject);
    req.end();
  });
}

async function getTrace(base: string, traceId: string): Promise<{ status: number; body: { capture?: { query: string }; error?: { type: string } } }> {
  const response = await fetch(`${base}/api/traces/${traceId}`);
  return { status: response.status, body: (await response.json()) as { capture?: { query: string }; error?: { type: string } } };
}

describe('trace API while the response that recorded the trace is still open', () => {
  it('waits for the response to close and its capture to be written, then gives the capture, not a 404', async () => {
    const { base, capture } = await slowClosingApp(300);
    const { traceId } = await startChat(base);
    // The answer is in the client's hands; the server has not seen its response close.
    expect(capture.recording(traceId)).toBe(true);
    expect(capture.queued).toBe(0);
    const trace = await getTrace(base, traceId);
    expect(trace.status).toBe(200);
    expect(trace.body.capture!.query).toBe('How long is probation?');
    expect(capture.recording(traceId)).toBe(false);
  });

  it('a pending-captures object without recording() (an option of your own) keeps the old behaviour: a 404 at once', async () => {
    const { base } = await slowClosingApp(300, false);
    const { traceId } = await startChat(base);
    const trace = await getTrace(base, traceId);
    expect([trace.status, trace.body.error?.type]).toEqual([404, 'trace.not_found']);
  });

  it('an unknown id is a 404; a response that does not close within the wait (2 s) gives a 404 after it, not a hang', async () => {
    const { base, capture } = await slowClosingApp(2600);
    expect((await getTrace(base, 'no-such-trace')).status).toBe(404);
    const { traceId } = await startChat(base);
    const waitStarted = performance.now();
    const trace = await getTrace(base, traceId);
    expect([trace.status, trace.body.error?.type]).toEqual([404, 'trace.not_found']);
    expect(performance.now() - waitStarted).toBeGreaterThanOrEqual(1900);
    expect(capture.recording(traceId)).toBe(true);
  });
});

describe('trace API while the capture is being written', () => {
  it('waits for a batch in flight (a slow store, as the writer thread can be) instead of answering 404', async () => {
    const sqlite = openSqliteCaptureStore({ path: join(tempDir(), 'captures.db') });
    // Every write takes 400 ms to land: the batch has left the queue and is not readable yet.
    const slow = new Proxy(sqlite, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver) as unknown;
        if (property !== 'writeRawCaptures' && property !== 'writeCaptures') return typeof value === 'function' ? value.bind(target) : value;
        return async (...args: unknown[]) => {
          await new Promise((resolve) => setTimeout(resolve, 400));
          return (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        };
      },
    });
    const capture = captureRag({ store: slow, logger: memoryLogger().logger });
    const dashboard = groundcheckDashboard({ store: slow, token: null, env: {}, capture });
    const app = express();
    app.use('/api/traces', dashboard.traceApi);
    app.post('/chat', capture, (req, res) => {
      res.json({ traceId: req.rag!.record(RECORD) });
    });
    const base = await serve(app, capture, sqlite);
    const { traceId } = (await (await fetch(`${base}/chat`, { method: 'POST' })).json()) as { traceId: string };
    await expect.poll(() => capture.writing, { interval: 5, timeout: 2000 }).toBe(1);
    expect([capture.queued, capture.recording(traceId)]).toEqual([0, false]);
    const trace = await getTrace(base, traceId);
    expect(trace.status).toBe(200);
    expect(trace.body.capture!.query).toBe('How long is probation?');
    expect(capture.writing).toBe(0);
  });
});
