import { createServer, connect, type Server, type Socket } from 'node:net';
import request from 'supertest';
import { expect, it } from 'vitest';
import { createLocalChatModel } from '../../providers/local/generator.js';
import { createRagPipeline } from '../../rag/pipeline.js';
import { chatApp, memoryLogger } from '../../test-support/capture-helpers.js';
import { handbookIndex, onCleanup } from '../../test-support/fixtures.js';
import { describeWithPostgres } from '../../test-support/postgres.js';
import { PostgresCaptureStore } from './store.js';

// A Postgres store that cannot be reached when the app starts: captureRag keeps the captures
// queued, shows the store degraded ('unreachable'), and writes them all once the server can be
// reached. The server is real; what is "down" is a loopback TCP proxy in front of it that is not
// listening yet, then is.

/** A free loopback port, released again so the proxy can take it later. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function proxyTo(target: URL, port: number): Promise<Server> {
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => socket.destroy());
    }
    client.pipe(upstream).pipe(client);
  });
  onCleanup(() => {
    for (const socket of sockets) socket.destroy();
    server.close();
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

describeWithPostgres('Postgres capture store out of reach', (postgres) => {
  it('keeps captures queued while the server cannot be reached, reports unreachable, and writes every one when it can', async () => {
    const schema = await postgres.newSchema();
    const real = new URL(postgres.url());
    const port = await freePort();
    const viaProxy = new URL(real.toString());
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(port);
    const store = new PostgresCaptureStore({ url: viaProxy.toString(), schema, maxConnections: 2, connectTimeoutMs: 1000 });
    onCleanup(() => void store.close());
    const { logger, lines } = memoryLogger();
    const { app, capture } = chatApp(createRagPipeline({ index: await handbookIndex(), chat: createLocalChatModel() }), { store, logger });

    const traceIds: string[] = [];
    for (const message of ['How long is probation?', 'What is the mileage rate for a car?', 'How do I report a data breach?']) {
      const response = await request(app).post('/api/chat').send({ message });
      expect(response.status).toBe(200);
      traceIds.push(response.body.traceId as string);
    }
    await waitFor(() => capture.health().reason === 'unreachable');
    expect(capture.health()).toMatchObject({ status: 'degraded', reason: 'unreachable', queued: 3 });
    const failures = await capture.metrics.registry.getSingleMetric('groundcheck_capture_failures_total')!.get();
    expect(failures.values.reduce((sum, value) => sum + value.value, 0)).toBe(0);

    await proxyTo(real, port);
    await waitFor(() => capture.health().status === 'ok' && capture.health().queued === 0, 20_000);
    const stored = await Promise.all(traceIds.map((traceId) => store.getCapture(traceId)));
    expect(stored.map((record) => record?.capture.traceId)).toEqual(traceIds);
    expect(lines.filter((line) => line.event === 'rag.capture').length).toBe(3);
  }, 30_000);
});

async function waitFor(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
