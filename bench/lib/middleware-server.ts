/**
 * The server side of `bench:middleware`: three builds of the demo app (`createApp`, offline
 * provider) in one process, each on its own 127.0.0.1 port: `bare` (`capture: false`, no worker),
 * `captured` (`captureRag` and its in-process live judge) and `otel` (`capture: false`, its pipeline
 * instrumented with the OpenTelemetry JS SDK recording the same spans the OTLP export sends, through
 * a batch span processor into a counting no-op exporter; see otel-baseline.ts). One process for all,
 * so the comparison is not skewed by one process simply running faster than another (separate
 * processes differed by up to ~5% with identical code). Started by bench/middleware.ts and driven
 * over IPC; not meant to be run by hand.
 *
 *   --folder <dir with index.db>  --settle-ms <n>  --log-level <level>  --sample-rate <0..1>  [--control] [--inline-checkpoints] [--durable] [--embedder local|use]
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import { pino } from 'pino';
import { createApp, type DemoApp } from '../../demo-app/app.js';
import { createLogger } from '../../src/capture/logging.js';
import { redactPersonalData } from '../../src/capture/redact.js';
import { openCaptureStore, WRITER_THREAD_BY_DEFAULT, type SqliteCaptureStore } from '../../src/capture/store.js';
import { createJudgeWorker } from '../../src/capture/worker.js';
import { benchEmbedder } from './embedder.js';
import { createLocalChatModel } from '../../src/providers/local/generator.js';
import { createRagPipeline } from '../../src/rag/pipeline.js';
import { openIndex, type GroundcheckIndex } from '../../src/rag/store.js';
import { integerFlag, parseFlags } from './args.js';
import { mainThreadCpuMicros, median } from './stats.js';
import { serveParent } from './child-ipc.js';
import { instrumentWithOtelSdk, type OtelBaseline } from './otel-baseline.js';

export const APPS = ['bare', 'captured', 'otel'] as const;
export type AppName = (typeof APPS)[number];

/** What the parent reads before and after each round. */
export interface ServerStats {
  /** Store threads pinned to the `--store-threads-cpu` CPU so far (0 without the flag). */
  storeThreadsPinned: number;
  /** Judge calls made by the captured app's in-process worker so far (0 for bare). */
  judgeCalls: number;
  /** `groundcheck_captures_total`. */
  capturesWritten: number;
  /** `groundcheck_capture_failures_total`, all reasons. */
  captureFailures: number;
  /** Captures waiting to be written. */
  queued: number;
  /** Rows in the capture store. */
  stored: number;
  /** CPU time of the whole server process so far (user + system), µs. */
  cpuMicros: number;
  /**
   * CPU time of the main thread alone (the one that serves requests) so far, µs, from
   * /proc/self/task/<pid>/schedstat (nanoseconds on the CPU); `null` where that file is missing.
   * Unlike `cpuMicros` it leaves out libuv's pool and the capture store's checkpoint thread.
   */
  mainThreadCpuMicros: number | null;
  /** The otel app's spans: ended, and handed by the batch processor to its exporter (0 for the others). */
  otelSpans: { ended: number; exported: number };
  /** Time spent in garbage collection so far (all kinds), µs. */
  gcMicros: number;
  /**
   * Wall time of the captured app's capture work so far, µs, timed where it runs: the default
   * redaction, `store.writeCaptures` (one transaction per batch), the `rag.capture` log lines, and
   * the judge worker's polls (`claimPending`, `reclaimAbandonedLeases`, `hasUnqueuedCaptures`). On one pinned core, wall time there is CPU time or a
   * wait the event loop cannot use (a checkpoint's fsync).
   */
  captureWork: { redact: number; write: number; log: number; claim: number };
  /**
   * Medians of the single calls since the previous `flush` request, µs each: the captured app's
   * redaction of one capture, its store write divided by the captures in the batch, its
   * `rag.capture` log line, and the otel app's recording of one trace's spans. A median of single
   * calls shrugs off what a sum cannot: a call preempted by another process on a shared machine.
   * `null`: no such call.
   */
  callMedians: { redact: number | null; writePerCapture: number | null; log: number | null; otelRecord: number | null };
  rssMiB: number;
}

interface RunningApp {
  demo: DemoApp;
  index: GroundcheckIndex;
  server: Server;
  otel: OtelBaseline | null;
}

async function main(): Promise<void> {
  const flags = parseFlags(process.argv.slice(2), { folder: true, 'settle-ms': true, 'log-level': true, 'sample-rate': true, control: false, 'inline-checkpoints': false, durable: false, embedder: true, 'writer-thread': true, 'store-threads-cpu': true });
  const folder = flags.get('folder');
  if (!folder) throw new Error('--folder is required');
  const settleMs = integerFlag(flags, 'settle-ms', 600_000, 0);
  const sampleRate = Number(flags.get('sample-rate') ?? 1);
  const control = flags.has('control');
  const backgroundCheckpoints = !flags.has('inline-checkpoints');
  const durable = flags.has('durable');
  const writerThreadFlag = flags.get('writer-thread') ?? 'default';
  const writerThread = writerThreadFlag === 'default' ? WRITER_THREAD_BY_DEFAULT : writerThreadFlag === 'on';
  const storeThreadsCpu = flags.has('store-threads-cpu') ? integerFlag(flags, 'store-threads-cpu', 0, 0) : null;

  // Logs are serialized and written as in production, but to /dev/null: the same for both apps,
  // and no terminal or disk in the way.
  const logger = createLogger({ level: flags.get('log-level') ?? 'info' }, pino.destination({ dest: '/dev/null', sync: false }));
  // Garbage-collection time, to tell it apart from the capture code's own CPU time.
  let gcMicros = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gcMicros += entry.duration * 1000;
  }).observe({ entryTypes: ['gc'] });
  const captureWork = { redact: 0, write: 0, log: 0, claim: 0 };
  const calls = { redact: [] as number[], writePerCapture: [] as number[], log: [] as number[], otelRecord: [] as number[] };
  const sampled = (key: keyof typeof calls, micros: number) => {
    // Bounded: a round of a few seconds makes a few thousand calls.
    if (calls[key].length < 200_000) calls[key].push(micros);
  };
  const timed = <Args extends unknown[], Result>(key: keyof typeof captureWork, fn: (...args: Args) => Result) =>
    (...args: Args): Result => {
      const started = performance.now();
      try {
        return fn(...args);
      } finally {
        const micros = (performance.now() - started) * 1000;
        captureWork[key] += micros;
        if (key === 'redact') sampled('redact', micros);
        if (key === 'write') sampled('writePerCapture', micros / Math.max(1, (args[0] as unknown[]).length));
      }
    };
  const callMedians = (): ServerStats['callMedians'] => {
    const medianOf = (values: number[]) => (values.length === 0 ? null : median(values));
    const result = { redact: medianOf(calls.redact), writePerCapture: medianOf(calls.writePerCapture), log: medianOf(calls.log), otelRecord: medianOf(calls.otelRecord) };
    for (const key of Object.keys(calls) as (keyof typeof calls)[]) calls[key] = [];
    return result;
  };
  // Only the capture lines are timed, at whatever level captureRag logs them (debug by default:
  // then, with the logger at info, there is no line and nothing to time); the request lines of both
  // apps (pino-http's child loggers, which inherit these methods) go through untouched, with their own `this`.
  for (const level of ['info', 'debug', 'trace'] as const) {
    const method = logger[level] as (this: unknown, ...args: unknown[]) => void;
    (logger as unknown as Record<typeof level, (this: unknown, ...args: unknown[]) => void>)[level] = function (this: unknown, ...args: unknown[]) {
      if ((args[0] as { event?: unknown } | undefined)?.event !== 'rag.capture') return method.apply(this, args);
      const started = performance.now();
      try {
        return method.apply(this, args);
      } finally {
        const micros = (performance.now() - started) * 1000;
        captureWork.log += micros;
        sampled('log', micros);
      }
    };
  }
  const apps = new Map<AppName, RunningApp>();
  for (const name of APPS) {
    // Each app reads its own copy of the index, as two deployments would.
    const indexPath = join(folder, `index-${name}.db`);
    copyFileSync(join(folder, 'index.db'), indexPath);
    const index = openIndex({ path: indexPath, embedder: benchEmbedder(flags.get('embedder') ?? 'local') });
    // Inline, redaction is timed on its own (a redact function of the app's, run on the request
    // thread); with the writer thread the store redacts there with its default redaction, as an app
    // with the defaults does.
    const capture =
      name === 'captured' && !control
        ? { store: openCaptureStore({ path: join(folder, 'captures.db'), backgroundCheckpoints, writerThread }), sampleRate, durable, ...(writerThread ? {} : { redact: timed('redact', redactPersonalData) }) }
        : false;
    const otel = name === 'otel' && !control ? instrumentWithOtelSdk(createRagPipeline({ index, chat: createLocalChatModel() }), (micros) => sampled('otelRecord', micros)) : null;
    const demo = createApp({ index, capture, worker: { settleMs }, logger, env: {}, ...(otel ? { pipeline: otel.pipeline } : {}) });
    if (demo.store) {
      // The SQLite store does its work inside the call and returns a settled Promise: timing the
      // call is timing the work.
      // captureRag writes through writeRawCaptures (the store redacts and caps unless a redact
      // function of the app's did: this bench passes one, timed on its own).
      const sqlite = demo.store as SqliteCaptureStore;
      sqlite.writeRawCaptures = timed('write', sqlite.writeRawCaptures.bind(sqlite));
      // A poll of the idle worker is these three calls, not the claim alone.
      demo.store.claimPending = timed('claim', demo.store.claimPending.bind(demo.store));
      demo.store.reclaimAbandonedLeases = timed('claim', demo.store.reclaimAbandonedLeases.bind(demo.store));
      demo.store.hasUnqueuedCaptures = timed('claim', demo.store.hasUnqueuedCaptures.bind(demo.store));
    }
    const server = demo.app.listen(0, '127.0.0.1');
    await new Promise<void>((resolve, reject) => {
      server.once('listening', resolve);
      server.once('error', reject);
    });
    apps.set(name, { demo, index, server, otel });
  }
  const appOf = (message: Record<string, unknown>): RunningApp => {
    const app = apps.get(message.app as AppName);
    if (!app) throw new Error(`unknown app ${String(message.app)}`);
    return app;
  };

  // The store starts its threads at its first write (and a new writer thread after a failure):
  // each is pinned when figures are next read, which each round does after its warm-up.
  const pinned = new Set<number>();
  const pinStoreThreads = (demo: DemoApp) => {
    if (storeThreadsCpu === null || !demo.store) return;
    for (const threadId of (demo.store as SqliteCaptureStore).backgroundThreadIds()) {
      if (pinned.has(threadId)) continue;
      execFileSync('taskset', ['-p', '-c', String(storeThreadsCpu), String(threadId)], { stdio: 'ignore' });
      pinned.add(threadId);
    }
  };

  async function stats({ demo, otel }: RunningApp): Promise<ServerStats> {
    pinStoreThreads(demo);
    const counter = async (metric: { get(): Promise<{ values: { value: number }[] }> }) => (await metric.get()).values.reduce((sum, entry) => sum + entry.value, 0);
    const cpu = process.cpuUsage();
    return {
      storeThreadsPinned: pinned.size,
      judgeCalls: demo.worker?.stats.judgeCalls ?? 0,
      capturesWritten: await counter(demo.metrics.captures),
      captureFailures: await counter(demo.metrics.captureFailures),
      queued: demo.capture?.queued ?? 0,
      stored: (await demo.store?.captureCount()) ?? 0,
      cpuMicros: cpu.user + cpu.system,
      mainThreadCpuMicros: mainThreadCpuMicros(),
      otelSpans: otel?.stats() ?? { ended: 0, exported: 0 },
      gcMicros,
      captureWork: { ...captureWork },
      callMedians: callMedians(),
      rssMiB: process.memoryUsage().rss / 1024 / 1024,
    };
  }

  serveParent(
    { ports: Object.fromEntries([...apps].map(([name, app]) => [name, (app.server.address() as AddressInfo).port])), writerThread },
    {
      /** Write every queued capture of every app, then report `app`'s figures. */
      flush: async (message) => {
        for (const { demo, otel } of apps.values()) {
          await demo.capture?.flush();
          await otel?.flush();
        }
        return { stats: await stats(appOf(message)) };
      },
      /**
       * Write `app`'s queued captures and export its queued spans now, and nothing else: an
       * interleaved batch ends with it, so the writes its requests left in the 100 ms batch
       * window are timed with that batch, not with the next app's.
       */
      drain: async (message) => {
        const { demo, otel } = appOf(message);
        await demo.capture?.flush();
        await otel?.flush();
        return {};
      },
      /**
       * Run only the judge worker of the app about to be measured: the captured app's worker polls
       * its store every second, and that work belongs to the captured app's rounds, not to the bare
       * app's.
       */
      measure: async (message) => {
        for (const [name, { demo }] of apps) {
          if (name === message.app) demo.worker?.start();
          else await demo.worker?.stop();
        }
        return {};
      },
      /**
       * After the load: stop the demo's worker (whose settle delay outlasts the whole benchmark) and
       * judge the backlog with a worker whose settle delay is 0, for at most `seconds`.
       */
      judgeBacklog: async (message) => {
        const { demo } = appOf(message);
        if (!demo.store || !demo.judge || !demo.worker) return { judgeCalls: 0, judged: 0, failures: 0, seconds: 0, pending: 0 };
        await demo.capture?.flush();
        await demo.worker.stop();
        const catchUp = createJudgeWorker({ store: demo.store, judge: demo.judge, settleMs: 0, concurrency: 2, logger, metrics: demo.metrics });
        const started = performance.now();
        catchUp.start();
        await Promise.race([catchUp.whenIdle(), new Promise((resolve) => setTimeout(resolve, Number(message.seconds) * 1000))]);
        await catchUp.stop();
        return {
          judgeCalls: catchUp.stats.judgeCalls,
          judged: catchUp.stats.stored,
          failures: catchUp.stats.failures,
          seconds: (performance.now() - started) / 1000,
          pending: await demo.store.pendingCount(catchUp.judgeVersion),
        };
      },
    },
    async () => {
      for (const { demo, index, server, otel } of apps.values()) {
        server.close();
        server.closeAllConnections();
        await demo.close();
        await otel?.shutdown();
        // Opened here (for --inline-checkpoints), so not closed by the demo.
        demo.store?.close();
        index.close();
      }
      logger.flush();
    },
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`middleware-server: ${(error as Error)?.stack ?? String(error)}\n`);
  process.exit(1);
});
