import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { BatchLoadError, batchLoader, type BatchLoader } from '../bench/lib/load-batches.js';

/** A loopback server answering after `delayMs`, 500 for a body holding "fail"; it records what it saw. */
async function recordingServer(delayMs = 5) {
  const seen = { bodies: [] as string[], paths: new Set<string>(), inFlight: 0, maxInFlight: 0, connections: 0 };
  const server: Server = createServer((req, res) => {
    seen.inFlight++;
    seen.maxInFlight = Math.max(seen.maxInFlight, seen.inFlight);
    seen.paths.add(`${req.method} ${req.url} ${req.headers['content-type']}`);
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      seen.bodies.push(body);
      setTimeout(() => {
        seen.inFlight--;
        res.writeHead(body.includes('fail') ? 500 : 200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ answer: 'x'.repeat(2000) }));
      }, delayMs);
    });
  });
  server.on('connection', () => seen.connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, seen, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const bodiesOf = (count: number, fail = -1) => Array.from({ length: count }, (_, index) => JSON.stringify({ message: index === fail ? `fail ${index}` : `question ${index}` }));

describe('bench load batches', () => {
  const cleanup: (() => void)[] = [];
  afterEach(() => {
    for (const close of cleanup.splice(0)) close();
  });
  const open = (loader: BatchLoader, server: Server) => {
    cleanup.push(() => loader.close(), () => server.close());
    return loader;
  };

  it('sends exactly the batch, at most `concurrency` in flight, over connections kept alive between batches', async () => {
    const { server, seen, url } = await recordingServer();
    const loader = open(batchLoader({ url, concurrency: 4 }), server);
    const bodies = bodiesOf(25);

    const first = await loader.run(bodies);
    expect({ ok: first.ok, non2xx: first.non2xx, errors: first.errors, maxInFlight: first.maxInFlight }).toEqual({ ok: 25, non2xx: 0, errors: 0, maxInFlight: 4 });
    expect(first.elapsedMs).toBeGreaterThan(0);
    expect([...seen.bodies].sort()).toEqual([...bodies].sort());
    expect(seen.maxInFlight).toBe(4);
    expect([...seen.paths]).toEqual(['POST /api/chat application/json']);

    const second = await loader.run(bodies);
    expect(second.ok).toBe(25);
    expect(seen.bodies).toHaveLength(50);
    // The second batch reused the first batch's four connections.
    expect(seen.connections).toBe(4);
  });

  it('throws on a non-2xx response, and sends no new request after it', async () => {
    const { server, seen, url } = await recordingServer();
    const loader = open(batchLoader({ url, concurrency: 2 }), server);
    const failure = await loader.run(bodiesOf(40, 3)).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(BatchLoadError);
    expect((failure as BatchLoadError).message).toMatch(/HTTP 500/);
    expect((failure as BatchLoadError).counts.non2xx).toBe(1);
    expect(seen.bodies.length).toBeLessThan(40);
  });

  it('throws on a request error (nothing listening)', async () => {
    const { server, url } = await recordingServer();
    await new Promise((resolve) => server.close(resolve));
    const loader = batchLoader({ url, concurrency: 3 });
    cleanup.push(() => loader.close());
    const failure = await loader.run(bodiesOf(10)).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(BatchLoadError);
    expect((failure as BatchLoadError).counts).toEqual({ ok: 0, non2xx: 0, errors: 3 });
  });
});
