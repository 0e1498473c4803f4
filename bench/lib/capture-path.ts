/**
 * The capture path alone, in one process, for the request-thread comparison with the
 * OpenTelemetry SDK (`bench:capture-path`): what each costs the thread that serves requests, per
 * request, measured in rotating blocks so that the machine's drift (its speed moves by tens of
 * percent from second to second here) falls on every side alike.
 *
 * - captureRag: the middleware on a request/response pair (its request context and `close`
 *   listener), `req.rag.record(trace)`, the response closing (building the capture, queueing it),
 *   and, every {@link BATCH} requests, `flush()`: the batch write as the writer does it (redaction,
 *   caps, the SQLite transaction, the `rag.capture` line, metrics). Everything captureRag does on
 *   the request thread except the in-process judge worker's polls (bench:middleware times those).
 * - OTel SDK: recording the same spans from the same trace (`otel-baseline.ts`: three, two for a
 *   trace refused before the model) through a `BatchSpanProcessor`, and every 512 spans (its
 *   batch) `forceFlush()`, into a counting exporter (the baseline: nothing serialized).
 * - OTel SDK + OTLP: the same, its batches exported by the OTLP/HTTP protobuf exporter to a
 *   receiver on 127.0.0.1 in a child process (its parsing is not counted): what an app that sends
 *   its traces somewhere pays.
 *
 * The request and response are plain objects with what the middleware reads (headers, method,
 * status, `on('close')`): HTTP parsing and Express cost the same with or without capture and are
 * left out. Each block is timed in the process's CPU time (`process.cpuUsage()`: µs-exact; the
 * per-thread schedstat bench:middleware reads moves only at scheduler ticks on this VM, 0 or
 * 1–4 ms for a 200 µs loop), so waiting for the receiver's reply is not counted; the process's
 * other threads (captureRag's WAL checkpoint thread, libuv's pool) count where they run.
 */
import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { NextFunction, Request, Response } from 'express';
import { pino } from 'pino';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { captureRag } from '../../src/capture/middleware.js';
import { openCaptureStore } from '../../src/capture/store.js';
import type { RagTrace } from '../../src/contract/trace.js';
import type { RagPipeline } from '../../src/rag/pipeline.js';
import { instrumentWithOtelSdk, type OtelBaseline } from './otel-baseline.js';
import { mean } from './stats.js';

/** Requests per block: about what one 100 ms write batch holds at 10 connections on the demo. */
export const BATCH = 12;
/** Rotations per compared window: 15 × 12 traces × 3 spans ≈ one SDK batch of 512 spans. */
export const WINDOW = 15;

export const SIDES = ['captureRag', 'otel', 'otelOtlp'] as const;
export type Side = (typeof SIDES)[number];

export interface CapturePathFigures {
  blocks: number;
  /** Windows of {@link WINDOW} rotations compared. */
  windows: number;
  /** `cpu`: the process's CPU time (`process.cpuUsage()`). */
  clock: 'cpu';
  /** Mean over all timed blocks, µs per request, per side (the SDK's exports included). */
  micros: Record<Side, number>;
  /** Of captureRag's: the batch write (`flush()`: redaction, caps, the SQLite transaction, the log line, metrics). */
  captureRagWriteMicros: number;
  /** Per SDK side: windows in which captureRag took less per request than that side. */
  captureRagCheaper: Record<Exclude<Side, 'captureRag'>, number>;
  capturesStored: number;
  /** Per SDK side: spans ended, and of those handed to its exporter (all, once flushed). */
  spans: Record<Exclude<Side, 'captureRag'>, { ended: number; exported: number }>;
  /** Export requests the OTLP receiver answered. */
  otlpRequests: number;
}

class FakeResponse extends EventEmitter {
  statusCode = 200;
  headersSent = false;
  writableFinished = true;
  readonly headers = new Map<string, string>();
  setHeader(name: string, value: string): this {
    this.headers.set(name.toLowerCase(), value);
    return this;
  }
}

function fakeRequest(): Request {
  return { headers: {}, method: 'POST', originalUrl: '/api/chat', url: '/api/chat', baseUrl: '', route: { path: '/api/chat' } } as unknown as Request;
}

/** An OTLP/HTTP receiver in a child process: reads each export request and answers 200; prints its port, then counts. */
const RECEIVER_SOURCE = `
const http = require('node:http');
let requests = 0;
const server = http.createServer((req, res) => {
  req.on('data', () => {});
  req.on('end', () => { requests += 1; res.writeHead(200, { 'content-type': 'application/x-protobuf' }); res.end(); });
});
server.listen(0, '127.0.0.1', () => process.stdout.write(server.address().port + '\\n'));
process.stdin.on('data', () => process.stdout.write(requests + '\\n'));
process.stdin.on('end', () => server.close(() => process.exit(0)));
`;

async function startReceiver(): Promise<{ url: string; requests(): Promise<number>; close(): Promise<void> }> {
  const child = spawn(process.execPath, ['-e', RECEIVER_SOURCE], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! });
  const nextLine = () => new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('error', reject);
  });
  const port = Number(await nextLine());
  return {
    url: `http://127.0.0.1:${port}/v1/traces`,
    requests: async () => {
      const line = nextLine();
      child.stdin!.write('?\n');
      return Number(await line);
    },
    close: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.stdin!.end();
      await exited;
    },
  };
}

/**
 * Run `blocks` rotations (one block of each side, the order rotating), after `warmupBlocks`
 * untimed. `traces` are real pipeline traces (the handbook questions), used in turn.
 */
export async function measureCapturePath(options: { traces: readonly RagTrace[]; pipeline: RagPipeline; folder: string; blocks: number; warmupBlocks?: number }): Promise<CapturePathFigures> {
  const { traces, folder, blocks } = options;
  const warmupBlocks = options.warmupBlocks ?? 50;
  const clock = 'cpu';
  // getrusage: µs-exact here, unlike the per-thread schedstat, which this VM updates only at ticks.
  const now = () => {
    const usage = process.cpuUsage();
    return usage.user + usage.system;
  };
  const store = openCaptureStore({ path: join(folder, 'capture-path.db') });
  // The app's logger writes asynchronously to a file, as the demo's does to stdout.
  const logger = pino({ level: 'info' }, pino.destination({ dest: join(folder, 'capture-path.log'), sync: false }));
  const middleware = captureRag({ store, logger });
  const receiver = await startReceiver();
  const sdks: Record<Exclude<Side, 'captureRag'>, OtelBaseline> = {
    otel: instrumentWithOtelSdk(options.pipeline),
    otelOtlp: instrumentWithOtelSdk(options.pipeline, () => {}, new OTLPTraceExporter({ url: receiver.url })),
  };
  const next: NextFunction = () => {};
  let serial = 0;
  /** The batch write's share of each captureRag block, µs per request. */
  const writeTimes: number[] = [];

  async function captureBlock(): Promise<number> {
    const started = now();
    for (let i = 0; i < BATCH; i++) {
      const trace = traces[serial++ % traces.length]!;
      const req = fakeRequest();
      const res = new FakeResponse() as unknown as Response;
      middleware(req, res, next);
      req.rag!.record({ ...trace, id: `${trace.id}-${serial}` });
      res.emit('finish');
      res.emit('close');
    }
    const writing = now();
    await middleware.flush();
    const ended = now();
    writeTimes.push((ended - writing) / BATCH);
    return (ended - started) / BATCH;
  }

  const spansSinceFlush = { otel: 0, otelOtlp: 0 };
  async function sdkBlock(side: Exclude<Side, 'captureRag'>): Promise<number> {
    const sdk = sdks[side];
    const started = now();
    for (let i = 0; i < BATCH; i++) {
      sdk.record(traces[serial++ % traces.length]!, Date.now());
      spansSinceFlush[side] += 3;
      if (spansSinceFlush[side] >= 512) {
        spansSinceFlush[side] = 0;
        await sdk.flush();
      }
    }
    return (now() - started) / BATCH;
  }

  const block = (side: Side) => (side === 'captureRag' ? captureBlock() : sdkBlock(side));
  try {
    for (let i = 0; i < warmupBlocks; i++) for (const side of SIDES) await block(side);
    writeTimes.length = 0;
    const times: Record<Side, number[]> = { captureRag: [], otel: [], otelOtlp: [] };
    for (let i = 0; i < blocks; i++) {
      // Rotate the order, so no side always follows another's garbage.
      for (let offset = 0; offset < SIDES.length; offset++) {
        const side = SIDES[(i + offset) % SIDES.length]!;
        times[side].push(await block(side));
      }
    }
    // Compared window by window: a window of WINDOW rotations holds about one SDK export (every
    // 512 spans), so what the SDK defers to its exports counts as captureRag's writes do.
    const windows = Math.floor(blocks / WINDOW);
    const windowMean = (side: Side, window: number) => mean(times[side].slice(window * WINDOW, (window + 1) * WINDOW));
    const cheaper = { otel: 0, otelOtlp: 0 };
    for (let window = 0; window < windows; window++) {
      if (windowMean('captureRag', window) < windowMean('otel', window)) cheaper.otel += 1;
      if (windowMean('captureRag', window) < windowMean('otelOtlp', window)) cheaper.otelOtlp += 1;
    }
    for (const sdk of Object.values(sdks)) await sdk.flush();
    return {
      blocks,
      windows,
      clock,
      micros: { captureRag: mean(times.captureRag), otel: mean(times.otel), otelOtlp: mean(times.otelOtlp) },
      captureRagWriteMicros: mean(writeTimes),
      captureRagCheaper: cheaper,
      capturesStored: await store.captureCount(),
      spans: { otel: sdks.otel.stats(), otelOtlp: sdks.otelOtlp.stats() },
      otlpRequests: await receiver.requests(),
    };
  } finally {
    await middleware.close();
    for (const sdk of Object.values(sdks)) await sdk.shutdown();
    await receiver.close();
    store.close();
    logger.flush();
  }
}
