/**
 * One side of `bench:capture-path`'s apart measurement, alone in this process (a child of the
 * benchmark): captureRag with or without its store's writer thread, or the OpenTelemetry SDK with
 * or without OTLP export. It runs the same blocks as the in-process measurement
 * (`capture-path.ts`), and answers the coordinator over the IPC channel (`child-ipc.ts`):
 *
 * - it warms up (`warmupBlocks`), then reports ready;
 * - `turn`: it runs `blocksPerTurn` blocks and replies with its request (main) thread's CPU time
 *   over them, µs per request (the process's less every other thread's, read before and after);
 * - `end`: it replies with its main thread's CPU time over everything since it was ready
 *   (between turns too: anything a side defers past its turn is counted there), per request, and
 *   what it stored or exported.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pino } from 'pino';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { captureRag } from '../../src/capture/middleware.js';
import { openSqliteCaptureStore } from '../../src/capture/store.js';
import type { RagTrace } from '../../src/contract/trace.js';
import type { RagPipeline } from '../../src/rag/pipeline.js';
import { BATCH, serveCapturedRequests, type Side } from './capture-path.js';
import { instrumentWithOtelSdk } from './otel-baseline.js';
import { serveParent } from './child-ipc.js';
import { otherThreadsCpuMicros } from './stats.js';

export interface SideSettings {
  side: Side;
  /** A JSON file of the traces to record in turn. */
  tracesFile: string;
  /** A folder for this side's store and log. */
  folder: string;
  warmupBlocks: number;
  blocksPerTurn: number;
  /** The OTLP receiver's URL (`otelOtlp`). */
  otlpUrl: string | null;
}

export interface SideSummary {
  side: Side;
  turns: number;
  /** Main-thread CPU time from `ready` to `end`, µs per request timed. */
  cumulativeMicros: number;
  /** captureRag sides: captures in the store at the end. SDK sides: spans ended and exported. */
  capturesStored: number | null;
  spans: { ended: number; exported: number } | null;
}

async function main(): Promise<void> {
  const settings = JSON.parse(process.argv[2] ?? '') as SideSettings;
  const traces = JSON.parse(readFileSync(settings.tracesFile, 'utf8')) as RagTrace[];
  const { side } = settings;
  let serial = 0;
  let block: () => Promise<void>;
  let finish: () => Promise<Pick<SideSummary, 'capturesStored' | 'spans'>>;
  if (side === 'captureRag' || side === 'captureRagThread') {
    const logger = pino({ level: 'info' }, pino.destination({ dest: join(settings.folder, 'capture-path.log'), sync: false }));
    const store = openSqliteCaptureStore({ path: join(settings.folder, `${side}.db`), writerThread: side === 'captureRagThread' });
    const middleware = captureRag({ store, logger });
    block = async () => {
      serial = serveCapturedRequests(middleware, traces, serial);
      await middleware.flush();
    };
    finish = async () => {
      await middleware.close();
      const capturesStored = await store.captureCount();
      await store.close();
      logger.flush();
      return { capturesStored, spans: null };
    };
  } else {
    // record() uses only the trace; the pipeline is there for the app-level wrapper, unused here.
    const sdk = instrumentWithOtelSdk({} as RagPipeline, () => {}, side === 'otelOtlp' ? new OTLPTraceExporter({ url: settings.otlpUrl! }) : undefined);
    let spansSinceFlush = 0;
    block = async () => {
      for (let i = 0; i < BATCH; i++) {
        sdk.record(traces[serial++ % traces.length]!, Date.now());
        spansSinceFlush += 3;
        if (spansSinceFlush >= 512) {
          spansSinceFlush = 0;
          await sdk.flush();
        }
      }
    };
    finish = async () => {
      await sdk.flush();
      const spans = sdk.stats();
      await sdk.shutdown();
      return { capturesStored: null, spans };
    };
  }

  for (let i = 0; i < settings.warmupBlocks; i++) await block();
  const processCpu = () => {
    const usage = process.cpuUsage();
    return usage.user + usage.system;
  };
  const othersSince = (from: Map<number, number>) => {
    let spent = 0;
    for (const [id, micros] of otherThreadsCpuMicros()) spent += micros - (from.get(id) ?? 0);
    return spent;
  };
  // Other threads first, then the process: reading the threads is not counted in what follows.
  const startThreads = otherThreadsCpuMicros();
  const startProcess = processCpu();
  let turns = 0;
  let summary: SideSummary | null = null;
  serveParent(
    {},
    {
      async turn() {
        const threads = otherThreadsCpuMicros();
        const started = processCpu();
        for (let i = 0; i < settings.blocksPerTurn; i++) await block();
        const spent = processCpu() - started;
        turns += 1;
        return { micros: (spent - othersSince(threads)) / (settings.blocksPerTurn * BATCH) };
      },
      async end() {
        const spent = processCpu() - startProcess;
        const main = spent - othersSince(startThreads);
        summary = { side, turns, cumulativeMicros: turns === 0 ? 0 : main / (turns * settings.blocksPerTurn * BATCH), ...(await finish()) };
        return { summary };
      },
    },
    async () => {
      if (summary === null) await finish();
    },
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`capture-path side failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
