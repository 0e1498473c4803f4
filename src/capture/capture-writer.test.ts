import request from 'supertest';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRagPipeline } from '../rag/pipeline.js';
import { chatApp, memoryLogger, metricValue } from '../test-support/capture-helpers.js';
import { handbookIndex, onCleanup, tempDir } from '../test-support/fixtures.js';
import { MockChatModel } from '../testing/index.js';
import { CaptureStoreUnavailableError } from './store-health.js';
import { openCaptureStore } from './store.js';
import type { Capture, CaptureSink } from './types.js';

// The middleware's write window: bounded, counted, retried while the store is unavailable, never
// emptied silently at shutdown; and `durable: true`, which writes before the response ends.

async function pipeline() {
  return createRagPipeline({ index: await handbookIndex(), chat: new MockChatModel({ text: 'Twenty weeks at full pay (Leave Policy, updated 2026-01-12).' }) });
}

/** A sink that is unavailable (a retryable error, as a locked store throws) until told otherwise. */
function switchableSink() {
  const written: Capture[] = [];
  const state = { available: false };
  const sink: CaptureSink = {
    async writeCaptures(captures) {
      if (!state.available) throw new CaptureStoreUnavailableError('busy', 'another process holds the lock');
      written.push(...captures);
    },
  };
  return { sink, written, state };
}

const ask = (app: Parameters<typeof request>[0], count: number) =>
  Promise.all(Array.from({ length: count }, (_, index) => request(app).post('/api/chat').send({ message: `How many weeks of parental leave? (${index})` })));

describe('captureRag write window', () => {
  it('durable: true: the capture is in the store when the client has the response, with no flush', async () => {
    const store = openCaptureStore({ path: join(tempDir(), 'captures.db') });
    onCleanup(() => store.close());
    const { app, capture } = chatApp(await pipeline(), { store, durable: true, logger: memoryLogger().logger });

    const response = await request(app).post('/api/chat').send({ message: 'How many weeks of parental leave does a birth parent get?' });
    expect(response.status).toBe(200);
    const stored = await store.getCapture(response.body.traceId as string);
    expect(stored?.capture).toMatchObject({ traceId: response.body.traceId, status: 200, aborted: false, route: '/api/chat' });
    expect(capture.queued).toBe(0);
    expect(await metricValue(capture.metrics.captures)).toBe(1);
  });

  it('while the store is unavailable captures wait (at most maxQueue, the rest dropped and counted), then are written when it is back', async () => {
    const { sink, written, state } = switchableSink();
    const { logger, lines } = memoryLogger();
    const { app, capture } = chatApp(await pipeline(), { store: sink, maxQueue: 2, logger });

    const responses = await ask(app, 4);
    expect(responses.map((response) => response.status)).toEqual([200, 200, 200, 200]);
    await expect.poll(() => metricValue(capture.metrics.captureFailures, { reason: 'queue_full' })).toBe(2);
    await expect.poll(() => capture.health()).toMatchObject({ status: 'degraded', reason: 'busy', queued: 2 });
    await capture.metrics.registry.metrics();
    expect(await metricValue(capture.metrics.captureQueue)).toBe(2);
    expect(await metricValue(capture.metrics.storeUp)).toBe(0);
    expect(await metricValue(capture.metrics.storeDegraded, { reason: 'busy' })).toBe(1);
    expect(lines.filter((line) => line.event === 'rag.capture.dropped').flatMap((line) => line.traceIds as string[])).toHaveLength(2);

    state.available = true;
    await capture.flush();
    expect(written).toHaveLength(2);
    expect(await metricValue(capture.metrics.captures)).toBe(2);
    expect(await metricValue(capture.metrics.captureFailures, { reason: 'store' })).toBe(0);
    expect(capture.health()).toMatchObject({ status: 'ok', queued: 0 });
    expect(lines.filter((line) => line.event === 'rag.capture.store_recovered')).toHaveLength(1);
  });

  it('close() waits for the queue at most timeoutMs, then counts and logs what is lost (and anything captured after)', async () => {
    const { sink } = switchableSink();
    const { logger, lines } = memoryLogger();
    const { app, capture } = chatApp(await pipeline(), { store: sink, logger });

    const traceIds = (await ask(app, 3)).map((response) => response.body.traceId as string);
    await expect.poll(() => capture.health().status).toBe('degraded');
    expect(await capture.close({ timeoutMs: 300 })).toEqual({ lost: 3 });
    expect(await metricValue(capture.metrics.captureFailures, { reason: 'shutdown' })).toBe(3);
    const lost = lines.filter((line) => line.event === 'rag.capture.lost_at_shutdown');
    expect(lost.flatMap((line) => line.traceIds as string[]).sort()).toEqual([...traceIds].sort());

    await ask(app, 1);
    await expect.poll(() => metricValue(capture.metrics.captureFailures, { reason: 'shutdown' })).toBe(4);
    expect(capture.queued).toBe(0);
  });

  it('close() with a store that works writes everything first and loses nothing', async () => {
    const store = openCaptureStore({ path: join(tempDir(), 'captures.db') });
    onCleanup(() => store.close());
    const { app, capture } = chatApp(await pipeline(), { store, logger: memoryLogger().logger });
    await ask(app, 5);
    expect(await capture.close()).toEqual({ lost: 0 });
    expect(await store.captureCount()).toBe(5);
  });
});
