import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { childEnv } from '../test/child-env.js';
import { openCaptureStore } from '../src/capture/store.js';
import { onCleanup, tempDir } from '../src/test-support/fixtures.js';

// `npm start`'s server killed with SIGTERM while requests are in flight and captures are still in
// the 100 ms batch window: every answered request's capture is in the file after it exits.

const SERVER = fileURLToPath(new URL('./server.ts', import.meta.url));

describe('demo server shutdown', () => {
  it('SIGTERM right after a burst of chat requests, one still in flight: that one is answered, it exits 0, and every request is captured', async () => {
    const dir = tempDir();
    const capturePath = join(dir, 'captures.db');
    const env = childEnv({ PORT: '0', HOST: '127.0.0.1', GROUNDCHECK_DB: join(dir, 'index.db'), GROUNDCHECK_CAPTURE_DB: capturePath, GROUNDCHECK_LOG_LEVEL: 'warn' });
    const child = spawn(process.execPath, ['--import', 'tsx', SERVER], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    onCleanup(() => child.kill('SIGKILL'));
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    await expect.poll(() => output, { timeout: 60_000, interval: 100 }).toMatch(/open http:\/\/localhost:\d+/);
    const port = /open http:\/\/localhost:(\d+)/.exec(output)![1];

    const ask = (index: number) =>
      fetch(`http://127.0.0.1:${port}/api/chat`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ message: `What is the mileage rate for a car? (${index})` }) }).then(
        async (response) => ({ status: response.status, traceId: ((await response.json()) as { traceId: string }).traceId }),
      );
    const answered = await Promise.all(Array.from({ length: 12 }, (_, index) => ask(index)));
    // A request in flight when the signal comes: its headers and half its body sent, the rest after.
    const body = JSON.stringify({ message: 'How many days of annual leave do I get?' });
    const slow = request({ host: '127.0.0.1', port: Number(port), path: '/api/chat', method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } });
    const slowResponse = new Promise<{ status: number; traceId: string }>((resolve, reject) => {
      slow.once('response', (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.once('end', () => resolve({ status: response.statusCode ?? 0, traceId: (JSON.parse(text) as { traceId: string }).traceId }));
      });
      slow.once('error', reject);
    });
    slow.write(body.slice(0, 10));
    await new Promise((resolve) => setTimeout(resolve, 300));
    child.kill('SIGTERM');
    await expect.poll(() => output).toContain('SIGTERM, shutting down');
    slow.end(body.slice(10));
    const late = await slowResponse;
    expect(late.status).toBe(200);
    expect(await exited).toBe(0);

    const traceIds = [...answered, late].filter((result) => result.status === 200).map((result) => result.traceId);
    expect(traceIds).toHaveLength(13);
    const store = openCaptureStore({ path: capturePath, backgroundCheckpoints: false });
    onCleanup(() => store.close());
    const stored = new Set((await store.listCaptures({ limit: 500 })).map(({ capture }) => capture.traceId));
    expect(traceIds.filter((traceId) => !stored.has(traceId))).toEqual([]);
    expect(output).not.toContain('lost');
  }, 90_000);
});
