import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { childEnv } from '../test/child-env.js';
import { memoryLogger } from '../src/test-support/capture-helpers.js';
import { handbookIndex, onCleanup, tempDir } from '../src/test-support/fixtures.js';
import { openSqliteCaptureStore } from '../src/capture/store.js';
import { createApp } from './app.js';

// Another process holds the capture store's write lock for 6 s (longer than the store's 5 s busy
// timeout). The app's writes (the middleware's and the in-process judge worker's) never wait inside
// SQLite on the event loop: chat requests answer as fast as without the lock, the captures wait in
// the queue and are all written, and judged, once the lock is gone.

const LOCK_MS = 6000;
const LOCKER = `
const Database = require(process.argv[1]);
const db = new Database(process.argv[2]);
db.exec('BEGIN IMMEDIATE');
process.stdout.write('locked\\n');
setTimeout(() => {
  db.exec('ROLLBACK');
  db.close();
  process.stdout.write('released\\n');
}, Number(process.argv[3]));
`;

// Both ways of writing: on the request thread (the default: the store retries on a timer) and on
// the store's writer thread (which waits on its own thread).
describe.each([false, true])('a capture store locked by another process (writerThread: %s)', (writerThread) => {
  it('chat requests keep their latency while the lock is held; every capture is written and judged after it is released', async () => {
    const path = join(tempDir(), 'captures.db');
    const store = writerThread ? openSqliteCaptureStore({ path, writerThread: true }) : path;
    const demo = createApp({ index: await handbookIndex(), capture: { store }, worker: { settleMs: 0, pollMs: 50 }, env: {}, logger: memoryLogger().logger });
    onCleanup(() => void demo.close());
    if (typeof store !== 'string') onCleanup(() => void store.close());
    const server = demo.app.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => server.once('listening', resolve));
    onCleanup(() => server.close());
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/chat`;
    const ask = async (index: number) => {
      const started = performance.now();
      const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ message: `What is the mileage rate for a car? (${index})` }) });
      const body = (await response.json()) as { traceId: string };
      return { status: response.status, traceId: body.traceId, ms: performance.now() - started };
    };
    // One capture before the lock, so the worker and the middleware have touched the file.
    const first = await ask(0);
    await demo.capture!.flush();

    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    const locker = spawn(process.execPath, ['-e', LOCKER, driver, path, String(LOCK_MS)], { env: childEnv(), stdio: ['ignore', 'pipe', 'inherit'] });
    onCleanup(() => locker.kill());
    let output = '';
    locker.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await expect.poll(() => output, { timeout: 10_000 }).toContain('locked');
    const released = new Promise<void>((resolve) => locker.once('exit', () => resolve()));

    const during: { status: number; traceId: string; ms: number }[] = [];
    for (let index = 1; !output.includes('released'); index++) {
      during.push(await ask(index));
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    await released;

    // The lock lasted 6 s: a request that sat behind a busy wait would take seconds.
    expect(during.length).toBeGreaterThanOrEqual(10);
    expect(during.filter((result) => result.status !== 200 || result.ms > 1000)).toEqual([]);
    await demo.capture!.flush();
    const traceIds = [first, ...during].map((result) => result.traceId);
    expect(await demo.store!.captureCount()).toBe(traceIds.length);
    for (const traceId of traceIds) expect(await demo.store!.getCapture(traceId)).toBeDefined();
    await expect.poll(() => demo.store!.judgmentCount(demo.worker!.judgeVersion), { timeout: 20_000 }).toBe(traceIds.length);
  }, 40_000);
});
