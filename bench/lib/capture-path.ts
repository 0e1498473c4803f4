/**
 * The capture path alone, in one process, for the request-thread comparison with the
 * OpenTelemetry SDK (`bench:capture-path`): what each costs the thread that serves requests, per
 * request, measured in rotating blocks so that the machine's drift (its speed moves by tens of
 * percent from second to second here) falls on every side alike.
 *
 * - captureRag: the middleware on a request/response pair (its request context and `close`
 *   listener), `req.rag.record(trace)`, the response closing (building the capture, queueing it),
 *   and, every {@link BATCH} requests, `flush()`: the batch handed to the store's writer thread
 *   (which redacts, caps and writes it in one SQLite transaction), the `rag.capture` line,
 *   metrics. Everything captureRag does on the request thread except the in-process judge
 *   worker's polls (bench:middleware times those); the writer thread's time is reported beside.
 * - OTel SDK: recording the same spans from the same trace (`otel-baseline.ts`: three, two for a
 *   trace refused before the model) through a `BatchSpanProcessor`, and every 512 spans (its
 *   batch) `forceFlush()`, into a counting exporter (the issue's baseline: nothing serialized).
 * - OTel SDK + OTLP: the same, its batches exported by the OTLP/HTTP protobuf exporter to a
 *   receiver on 127.0.0.1 in a child process (its parsing is not counted): what an app that sends
 *   its traces somewhere pays.
 *
 * The request and response are plain objects with what the middleware reads (headers, method,
 * status, `on('close')`): HTTP parsing and Express cost the same with or without capture and are
 * left out. Each block is timed in the request thread's CPU time: the process's
 * (`process.cpuUsage()`: µs-exact) less that of the capture store's own threads (its writer and
 * WAL checkpoint threads: their schedstat, read while they wait, when it is exact; a running
 * thread's moves only at scheduler ticks on this VM, 0 or 1–4 ms for a 200 µs loop). Waiting for
 * the receiver's reply is not counted; libuv's pool and V8's helper threads count where they run.
 */
import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { NextFunction, Request, Response } from 'express';
import { pino } from 'pino';
import { newTraceId } from '../../src/contract/trace-id.js';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { captureRag, type CaptureRagMiddleware } from '../../src/capture/middleware.js';
import { openSqliteCaptureStore, type SqliteCaptureStore } from '../../src/capture/store.js';
import type { RagTrace } from '../../src/contract/trace.js';
import type { RagPipeline } from '../../src/rag/pipeline.js';
import { instrumentWithOtelSdk, type OtelBaseline } from './otel-baseline.js';
import { mean, otherThreadsCpuMicros } from './stats.js';

/** Requests per block: about what one 100 ms write batch holds at 10 connections on the demo. */
export const BATCH = 12;
/** Rotations per compared window: 15 × 12 traces × 3 spans ≈ one SDK batch of 512 spans. */
export const WINDOW = 15;

/** captureRag writing on the request thread (`writerThread: false`), and with the store's writer thread (`writerThread: true`, the default with more than one CPU). */
export const CAPTURE_SIDES = ['captureRag', 'captureRagThread'] as const;
export const SDK_SIDES = ['otel', 'otelOtlp'] as const;
export const SIDES = [...CAPTURE_SIDES, ...SDK_SIDES] as const;
export type CaptureSide = (typeof CAPTURE_SIDES)[number];
export type SdkSide = (typeof SDK_SIDES)[number];
export type Side = (typeof SIDES)[number];

/** What both measurements of `bench:capture-path` (in one process, and each side apart) report beside their timings. */
export interface CaptureSideCounts {
  /** Per captureRag side and SDK side: windows (in one process) or turns (apart) in which captureRag took less per request than the SDK. */
  cheaper: Record<CaptureSide, Record<SdkSide, number>>;
  capturesStored: Record<CaptureSide, number>;
  /** Per SDK side: spans ended, and of those handed to its exporter (all, once flushed). */
  spans: Record<SdkSide, { ended: number; exported: number }>;
  /** Export requests the OTLP receiver answered. */
  otlpRequests: number;
}

export interface CapturePathFigures extends CaptureSideCounts {
  blocks: number;
  /** Windows of {@link WINDOW} rotations compared. */
  windows: number;
  /** `cpu`: the request (main) thread's CPU time: the process's (`process.cpuUsage()`) less every other thread's (their schedstat). */
  clock: 'cpu';
  /** Mean over all timed blocks, µs per request, per side, on the request thread (the SDK's exports included). */
  micros: Record<Side, number>;
  /** Per captureRag side: of its figure, the batch write on the request thread (`flush()`), µs per request. */
  writeMicros: Record<CaptureSide, number>;
  /** Per captureRag side, not in its figure: its store's own threads' CPU time in its blocks (the writer thread: redaction, caps, the SQLite transaction; the WAL checkpoint thread), µs per request. */
  storeThreadMicros: Record<CaptureSide, number>;
  /** Per captureRag side: its store's threads seen at the end (checkpoints; and the writer). */
  storeThreads: Record<CaptureSide, number>;
  /** Per side, not in its figure: the process's other threads (V8's helpers, e.g. concurrent GC, and libuv's pool; not the stores') in its blocks, µs per request. */
  helperMicros: Record<Side, number>;
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

/**
 * One block's requests through captureRag, the traces from `from` on in turn: the middleware on a
 * request/response pair, `record` (a fresh id per request, made as the pipeline makes them:
 * time-ordered, see trace-id.ts), the response finishing and closing. Returns where the next block
 * starts.
 */
export function serveCapturedRequests(middleware: CaptureRagMiddleware, traces: readonly RagTrace[], from: number): number {
  const next: NextFunction = () => {};
  for (let i = 0; i < BATCH; i++) {
    const trace = traces[(from + i) % traces.length]!;
    const req = fakeRequest();
    const res = new FakeResponse() as unknown as Response;
    middleware(req, res, next);
    req.rag!.record({ ...trace, id: newTraceId() });
    res.emit('finish');
    res.emit('close');
  }
  return from + BATCH;
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

export async function startReceiver(): Promise<{ url: string; requests(): Promise<number>; close(): Promise<void> }> {
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
  const processCpu = () => {
    const usage = process.cpuUsage();
    return usage.user + usage.system;
  };
  // The app's logger writes asynchronously to a file, as the demo's does to stdout.
  const logger = pino({ level: 'info' }, pino.destination({ dest: join(folder, 'capture-path.log'), sync: false }));
  const captures = {} as Record<CaptureSide, { store: SqliteCaptureStore; middleware: CaptureRagMiddleware; writeTimes: number[]; threadTimes: number[] }>;
  for (const side of CAPTURE_SIDES) {
    const store = openSqliteCaptureStore({ path: join(folder, `${side}.db`), writerThread: side === 'captureRagThread' });
    captures[side] = { store, middleware: captureRag({ store, logger }), writeTimes: [], threadTimes: [] };
  }
  const storeThreadIds = () => new Set(CAPTURE_SIDES.flatMap((side) => captures[side].store.backgroundThreadIds()));
  /**
   * A block's CPU time on the request (main) thread: the process's over the block less every
   * other thread's (the stores' writer and checkpoint threads, V8's helpers, libuv's pool), whose
   * schedstat is read before the block starts and after it ends (so reading them, a few /proc
   * reads at ~15 µs each here, is not counted in the block).
   */
  const startBlock = () => {
    const threads = otherThreadsCpuMicros();
    return { threads, process: processCpu() };
  };
  /** The CPU time of the other threads between two readings, in all, or of those `only` names. */
  const othersBetween = (from: Map<number, number>, to: Map<number, number>, only?: ReadonlySet<number>) => {
    let spent = 0;
    for (const [id, micros] of to) if (only === undefined || only.has(id)) spent += micros - (from.get(id) ?? 0);
    return spent;
  };
  const endBlock = (started: { threads: Map<number, number>; process: number }) => {
    const process = processCpu();
    const threads = otherThreadsCpuMicros();
    const others = othersBetween(started.threads, threads);
    const stores = othersBetween(started.threads, threads, storeThreadIds());
    return { process: process - started.process, main: process - started.process - others, stores, helpers: others - stores, threads };
  };
  const receiver = await startReceiver();
  const sdks: Record<SdkSide, OtelBaseline> = {
    otel: instrumentWithOtelSdk(options.pipeline),
    otelOtlp: instrumentWithOtelSdk(options.pipeline, () => {}, new OTLPTraceExporter({ url: receiver.url })),
  };
  let serial = 0;
  /** Per side, the CPU time of the process's other threads (V8's helpers, libuv's pool; not the stores') in its blocks, µs per request. */
  const helperTimes = Object.fromEntries(SIDES.map((side) => [side, [] as number[]])) as Record<Side, number[]>;

  async function captureBlock(side: CaptureSide): Promise<number> {
    const { middleware, writeTimes, threadTimes } = captures[side];
    const started = startBlock();
    serial = serveCapturedRequests(middleware, traces, serial);
    // The batch write is the flush: the process's time over it less the other threads' over the
    // same span (read here too: V8's helpers may collect garbage while the requests are served,
    // and charging that to the flush made it come out below zero on a loaded machine). The
    // reading's own cost is left out of the block.
    const beforeReading = processCpu();
    const threadsAtFlush = otherThreadsCpuMicros();
    const writing = processCpu();
    await middleware.flush();
    const ended = endBlock(started);
    const reading = writing - beforeReading;
    writeTimes.push((started.process + ended.process - writing - othersBetween(threadsAtFlush, ended.threads)) / BATCH);
    threadTimes.push(ended.stores / BATCH);
    helperTimes[side].push(ended.helpers / BATCH);
    return (ended.main - reading) / BATCH;
  }

  const spansSinceFlush = { otel: 0, otelOtlp: 0 };
  async function sdkBlock(side: SdkSide): Promise<number> {
    const sdk = sdks[side];
    const started = startBlock();
    for (let i = 0; i < BATCH; i++) {
      sdk.record(traces[serial++ % traces.length]!, Date.now());
      spansSinceFlush[side] += 3;
      if (spansSinceFlush[side] >= 512) {
        spansSinceFlush[side] = 0;
        await sdk.flush();
      }
    }
    const ended = endBlock(started);
    helperTimes[side].push(ended.helpers / BATCH);
    return ended.main / BATCH;
  }

  const isCaptureSide = (side: Side): side is CaptureSide => (CAPTURE_SIDES as readonly string[]).includes(side);
  const block = (side: Side) => (isCaptureSide(side) ? captureBlock(side) : sdkBlock(side));
  try {
    for (let i = 0; i < warmupBlocks; i++) for (const side of SIDES) await block(side);
    for (const side of CAPTURE_SIDES) {
      captures[side].writeTimes.length = 0;
      captures[side].threadTimes.length = 0;
    }
    for (const side of SIDES) helperTimes[side].length = 0;
    const times = Object.fromEntries(SIDES.map((side) => [side, [] as number[]])) as Record<Side, number[]>;
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
    const perCapture = <T>(value: (side: CaptureSide) => T) => Object.fromEntries(CAPTURE_SIDES.map((side) => [side, value(side)])) as Record<CaptureSide, T>;
    const cheaper = perCapture((side) => {
      const counts = { otel: 0, otelOtlp: 0 };
      for (let window = 0; window < windows; window++) {
        for (const sdk of SDK_SIDES) if (windowMean(side, window) < windowMean(sdk, window)) counts[sdk] += 1;
      }
      return counts;
    });
    for (const sdk of Object.values(sdks)) await sdk.flush();
    const stored = {} as Record<CaptureSide, number>;
    for (const side of CAPTURE_SIDES) stored[side] = await captures[side].store.captureCount();
    return {
      blocks,
      windows,
      clock,
      micros: Object.fromEntries(SIDES.map((side) => [side, mean(times[side])])) as Record<Side, number>,
      writeMicros: perCapture((side) => mean(captures[side].writeTimes)),
      storeThreadMicros: perCapture((side) => mean(captures[side].threadTimes)),
      storeThreads: perCapture((side) => captures[side].store.backgroundThreadIds().length),
      helperMicros: Object.fromEntries(SIDES.map((side) => [side, mean(helperTimes[side])])) as Record<Side, number>,
      cheaper,
      capturesStored: stored,
      spans: { otel: sdks.otel.stats(), otelOtlp: sdks.otelOtlp.stats() },
      otlpRequests: await receiver.requests(),
    };
  } finally {
    for (const side of CAPTURE_SIDES) await captures[side].middleware.close();
    for (const sdk of Object.values(sdks)) await sdk.shutdown();
    await receiver.close();
    for (const side of CAPTURE_SIDES) await captures[side].store.close();
    logger.flush();
  }
}
