import { join } from 'node:path';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { memoryLogger } from '../src/test-support/capture-helpers.js';
import { handbookIndex, onCleanup, tempDir } from '../src/test-support/fixtures.js';
import { createApp } from './app.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

async function demo() {
  const { logger, lines } = memoryLogger();
  const created = createApp({ index: await handbookIndex(), capture: { store: join(tempDir(), 'captures.db') }, worker: false, env: {}, logger });
  onCleanup(() => void created.close());
  return { ...created, lines };
}

/** The id pino-http logged for the request that got this response. */
const loggedId = (lines: Record<string, unknown>[], url: string) => lines.filter((line) => (line.req as { url?: string } | undefined)?.url === url).map((line) => (line.req as { id: unknown }).id);

describe('request ids', () => {
  it('two app instances (a restart) never hand out the same ids: random UUIDs, not a counter from 1', async () => {
    const first = await demo();
    const second = await demo();
    const a = (await request(first.app).get('/api/health')).headers['x-request-id'];
    const b = (await request(second.app).get('/api/health')).headers['x-request-id'];
    expect(a).toMatch(UUID);
    expect(b).toMatch(UUID);
    expect(a).not.toBe(b);
    expect(loggedId(first.lines, '/api/health')).toEqual([a]);
  });

  it("a client's safe X-Request-Id is kept: echoed, logged and stored with the capture", async () => {
    const { app, capture, store, lines } = await demo();
    const response = await request(app).post('/api/chat').set('X-Request-Id', 'client-req.42:a_b').send({ message: 'What is the mileage rate for a car?' });
    expect(response.headers['x-request-id']).toBe('client-req.42:a_b');
    await capture!.flush();
    expect((await store!.getCapture(response.body.traceId as string))?.capture.requestId).toBe('client-req.42:a_b');
    expect(loggedId(lines, '/api/chat')).toEqual(['client-req.42:a_b']);
  });

  it.each([['has spaces and <markup>'], ['x'.repeat(129)], ['new\\nline']])('an unsafe X-Request-Id (%s) is replaced by a UUID, echoed and stored', async (unsafe) => {
    const { app, capture, store } = await demo();
    const response = await request(app).post('/api/chat').set('X-Request-Id', unsafe).send({ message: 'What is the mileage rate for a car?' });
    const id = response.headers['x-request-id'];
    expect(id).toMatch(UUID);
    await capture!.flush();
    expect((await store!.getCapture(response.body.traceId as string))?.capture.requestId).toBe(id);
  });
});
