/**
 * bench:capture-path — what captureRag costs the request thread, per request, against the
 * OpenTelemetry JS SDK recording the same spans (bench/lib/capture-path.ts says exactly what each
 * side runs). It answers the question bench:middleware's load runs cannot on a machine whose speed
 * drifts by tens of percent between rounds: the sides are timed within milliseconds of each other,
 * hundreds of times, and compared pair by pair with a sign test. Per run, first each side alone in
 * a process of its own, the processes taking turns (capture-path-apart.ts: what an app pays, and
 * what the target is read from), then all sides in one process in alternating blocks (where each
 * also pays for work the others leave to the event loop; kept for comparison with earlier runs).
 *
 *   npm run bench:capture-path
 *   npm run bench:capture-path -- --blocks 1000 --runs 5
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RagTrace } from '../src/contract/trace.js';
import { createLocalChatModel } from '../src/providers/local/generator.js';
import { ingestDirectory } from '../src/rag/ingest.js';
import { createRagPipeline } from '../src/rag/pipeline.js';
import { openIndex } from '../src/rag/store.js';
import { benchFlags, integerFlag, REPO_ROOT, runBenchmark } from './lib/args.js';
import { measureApart, type ApartFigures } from './lib/capture-path-apart.js';
import { BATCH, CAPTURE_SIDES, SIDES, measureCapturePath, WINDOW, type CapturePathFigures, type CaptureSide, type SdkSide } from './lib/capture-path.js';
import { benchEmbedder } from './lib/embedder.js';
import { median, round, signVerdict } from './lib/stats.js';
import { formatTable } from './lib/table.js';
import { handbookQuestions } from './lib/handbook-questions.js';

const FLAGS = { blocks: true, 'warmup-blocks': true, runs: true, turns: true, 'no-pin': false, help: false };
const USAGE =
  'usage: npm run bench:capture-path -- [--blocks <n=600>] [--warmup-blocks <n=50>] [--runs <n=3>] [--no-pin]\n' +
  `  --blocks: timed rotations per run (one block of ${BATCH} requests per side each): captureRag, the OTel SDK, the SDK with OTLP export\n` +
  '  --runs: independent runs (a new store and SDK each), to show how far the figures move\n' +
  `  --turns: per run, rotations of the apart measurement (each side alone in its own process; one turn of ${WINDOW} blocks per side each)\n`;

async function main(): Promise<void> {
  const flags = benchFlags(FLAGS, USAGE);
  if (!flags) return;
  const blocks = integerFlag(flags, 'blocks', 600, 10, 100_000);
  const warmupBlocks = integerFlag(flags, 'warmup-blocks', 50, 0, 100_000);
  const runs = integerFlag(flags, 'runs', 3, 1, 100);
  const turns = integerFlag(flags, 'turns', 200, 10, 100_000);
  const pin = !flags.has('no-pin') && cpus().length >= 2;
  if (pin) execFileSync('taskset', ['-a', '-p', '-c', '1', String(process.pid)], { stdio: 'ignore' });

  const folder = mkdtempSync(join(tmpdir(), 'groundcheck-bench-path-'));
  try {
    process.stderr.write(`building the handbook index in ${folder}\n`);
    const index = openIndex({ path: join(folder, 'index.db'), embedder: benchEmbedder('local') });
    await ingestDirectory(index, join(REPO_ROOT, 'fixtures', 'corpus'));
    const pipeline = createRagPipeline({ index, chat: createLocalChatModel() });
    const questions = handbookQuestions();
    const traces: RagTrace[] = [];
    for (const question of questions) traces.push(await pipeline.ask(question));

    const results: CapturePathFigures[] = [];
    const apart: ApartFigures[] = [];
    for (let run = 0; run < runs; run++) {
      const runFolder = mkdtempSync(join(folder, `run-${run + 1}-`));
      const alone = await measureApart({ traces, folder: mkdtempSync(join(folder, `apart-${run + 1}-`)), turns, blocksPerTurn: WINDOW, warmupBlocks });
      apart.push(alone);
      process.stderr.write(
        `run ${run + 1}, apart: ${SIDES.map((side) => `${side} ${alone.micros[side].toFixed(1)} (all along ${alone.cumulativeMicros[side].toFixed(1)})`).join(', ')} µs/request; ` +
          `with the writer thread cheaper than the SDK in ${alone.cheaper.captureRagThread.otel} of ${turns} turns\n`,
      );
      const figures = await measureCapturePath({ traces, pipeline, folder: runFolder, blocks, warmupBlocks });
      results.push(figures);
      process.stderr.write(
        `run ${run + 1}: captureRag ${figures.micros.captureRag.toFixed(1)} µs/request (write batch ${figures.writeMicros.captureRag.toFixed(1)}), ` +
          `with the writer thread ${figures.micros.captureRagThread.toFixed(1)} (write batch ${figures.writeMicros.captureRagThread.toFixed(1)}; its store's threads ${figures.storeThreadMicros.captureRagThread.toFixed(1)} beside), ` +
          `OTel SDK ${figures.micros.otel.toFixed(1)}, with OTLP export ${figures.micros.otelOtlp.toFixed(1)} µs/trace (${figures.clock} time); ` +
          `other threads (V8 helpers, libuv) beside: ${SIDES.map((side) => `${side} ${figures.helperMicros[side].toFixed(1)}`).join(', ')}\n`,
      );
    }
    index.close();

    const out = (text: string) => process.stdout.write(`${text}\n`);
    const verdict = (figures: CapturePathFigures, side: CaptureSide, sdk: SdkSide) => signVerdict(figures.cheaper[side][sdk], figures.windows);
    const label: Record<CaptureSide, string> = { captureRag: 'captureRag, writerThread: false', captureRagThread: 'captureRag, writerThread: true' };
    out('');
    out(
      `bench:capture-path — the request thread's work per request, in one process (the main thread's CPU time: the process's, process.cpuUsage(), less every other thread's, from their schedstat read before and after each block): ` +
        `captureRag (middleware, record, the response closing, and every ${BATCH} requests the batch write: redaction, caps, SQLite transaction, rag.capture line, metrics), ` +
        `writing on the request thread (writerThread: false) and with the SQLite store's writer thread (writerThread: true, the default where the process may run on more than one CPU: the batch is handed to the thread, which redacts, caps and writes it; that thread's time and the WAL checkpoint thread's are shown beside, not counted); the rag.capture line at its default level (debug, below the logger's info: not built), ` +
        `against the OpenTelemetry JS SDK recording the same spans from the same trace through a BatchSpanProcessor, (a) into a counting exporter (nothing serialized: the issue's baseline) ` +
        `and (b) exported by the OTLP/HTTP protobuf exporter to a receiver on 127.0.0.1 in a child process. ` +
        `${blocks} rotations of one ${BATCH}-request block per side and run, after ${warmupBlocks} untimed; means per request; compared in windows of ${WINDOW} rotations (about one SDK export each) with a sign test; the 78 handbook traces in turn; ` +
        `${pin ? 'pinned to CPU 1 (the writer thread too)' : 'not pinned'}; ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown CPU'}), Node ${process.version}`,
    );
    out('');
    out(
      formatTable(
        ['run', 'side', 'µs/request', 'of which the batch write', 'the rest', 'store threads µs/request (not counted)', 'other threads µs/request (not counted; SDK: its own)', 'SDK µs/trace', '/ SDK', 'cheaper than SDK', 'SDK + OTLP µs/trace', '/ SDK + OTLP', 'cheaper than SDK + OTLP', 'captures stored', 'spans ended / exported', 'OTLP requests'],
        results.flatMap((figures, index) =>
          CAPTURE_SIDES.map((side) => [
            index + 1,
            label[side],
            figures.micros[side].toFixed(1),
            figures.writeMicros[side].toFixed(1),
            (figures.micros[side] - figures.writeMicros[side]).toFixed(1),
            `${figures.storeThreadMicros[side].toFixed(1)} (${figures.storeThreads[side]} threads)`,
            `${figures.helperMicros[side].toFixed(1)} (SDK ${figures.helperMicros.otel.toFixed(1)}, + OTLP ${figures.helperMicros.otelOtlp.toFixed(1)})`,
            figures.micros.otel.toFixed(1),
            `×${(figures.micros[side] / figures.micros.otel).toFixed(2)}`,
            `${verdict(figures, side, 'otel')} (${figures.cheaper[side].otel} of ${figures.windows})`,
            figures.micros.otelOtlp.toFixed(1),
            `×${(figures.micros[side] / figures.micros.otelOtlp).toFixed(2)}`,
            `${verdict(figures, side, 'otelOtlp')} (${figures.cheaper[side].otelOtlp} of ${figures.windows})`,
            figures.capturesStored[side],
            `${figures.spans.otel.ended} / ${figures.spans.otel.exported}; ${figures.spans.otelOtlp.ended} / ${figures.spans.otelOtlp.exported}`,
            figures.otlpRequests,
          ]),
        ),
      ),
    );
    out('');
    out(
      `Apart: each side alone in a process of its own (as an app runs one of them), the same blocks, the processes taking turns of ${WINDOW} blocks (${WINDOW * BATCH} requests) in rotating order, ${turns} rotations per run after ${warmupBlocks} blocks each untimed; ` +
        `per turn, the side's request (main) thread's CPU time (its process's less its other threads', read before and after the turn); "all along": its main thread's time from the first turn to the last, between turns too (reading its threads and the coordinator's messages included), so nothing a side defers past its turn goes uncounted; compared turn by turn with a sign test.`,
    );
    out('');
    out(
      formatTable(
        ['run', 'side', 'µs/request', 'all along', 'SDK µs/trace (all along)', '/ SDK', 'cheaper than SDK', 'SDK + OTLP µs/trace (all along)', '/ SDK + OTLP', 'cheaper than SDK + OTLP', 'captures stored', 'spans ended / exported', 'OTLP requests'],
        apart.flatMap((figures, index) =>
          CAPTURE_SIDES.map((side) => [
            index + 1,
            label[side],
            figures.micros[side].toFixed(1),
            figures.cumulativeMicros[side].toFixed(1),
            `${figures.micros.otel.toFixed(1)} (${figures.cumulativeMicros.otel.toFixed(1)})`,
            `×${(figures.micros[side] / figures.micros.otel).toFixed(2)}`,
            `${signVerdict(figures.cheaper[side].otel, figures.turns)} (${figures.cheaper[side].otel} of ${figures.turns})`,
            `${figures.micros.otelOtlp.toFixed(1)} (${figures.cumulativeMicros.otelOtlp.toFixed(1)})`,
            `×${(figures.micros[side] / figures.micros.otelOtlp).toFixed(2)}`,
            `${signVerdict(figures.cheaper[side].otelOtlp, figures.turns)} (${figures.cheaper[side].otelOtlp} of ${figures.turns})`,
            figures.capturesStored[side],
            `${figures.spans.otel.ended} / ${figures.spans.otel.exported}; ${figures.spans.otelOtlp.ended} / ${figures.spans.otelOtlp.exported}`,
            figures.otlpRequests,
          ]),
        ),
      ),
    );
    const agreed = (verdicts: string[]) => (verdicts.every((entry) => entry === verdicts[0]) ? verdicts[0]! : 'not resolved');
    const overall = (side: CaptureSide, sdk: SdkSide) => agreed(results.map((figures) => verdict(figures, side, sdk)));
    /** Apart: the sign test per run, and the "all along" figure below the SDK's in every run too. */
    const overallApart = (side: CaptureSide, sdk: SdkSide) =>
      agreed(
        apart.map((figures) => {
          const signed = signVerdict(figures.cheaper[side][sdk], figures.turns);
          const allAlong = figures.cumulativeMicros[side] < figures.cumulativeMicros[sdk];
          return signed === 'yes' && !allAlong ? 'not resolved' : signed === 'no' && allAlong ? 'not resolved' : signed;
        }),
      );
    const word = (entry: string) => (entry === 'yes' ? 'met' : entry === 'no' ? 'missed' : 'not resolved');
    out('');
    out(
      `Target (issue 14): captureRag request-thread CPU per capture below the OTel SDK's (counting exporter), each alone in its own process (what an app pays): ${word(overallApart('captureRagThread', 'otel'))} ` +
        `with the writer thread (the default with more than one CPU; writerThread: false: ${word(overallApart('captureRag', 'otel'))}); below the SDK exporting over OTLP: ${word(overallApart('captureRagThread', 'otelOtlp'))} ` +
        `(writerThread: false: ${word(overallApart('captureRag', 'otelOtlp'))}). All four sides in one process: ${word(overall('captureRagThread', 'otel'))} with the writer thread (writerThread: false: ${word(overall('captureRag', 'otel'))}); ` +
        `below the SDK with OTLP: ${word(overall('captureRagThread', 'otelOtlp'))} (writerThread: false: ${word(overall('captureRag', 'otelOtlp'))}). ` +
        `(Sign test per run, one-sided p < 0.05; apart, the "all along" figure must agree; "met"/"missed" only when every run agrees.)`,
    );
    const medianOf = (value: (figures: CapturePathFigures) => number) => round(median(results.map(value)), 2);
    out(
      JSON.stringify({
        bench: 'capture-path',
        clock: results[0]!.clock,
        blocks,
        window: WINDOW,
        batch: BATCH,
        runs: results.map((figures) => ({
          captureRag_us_per_request: round(figures.micros.captureRag, 2),
          captureRag_write_us_per_request: round(figures.writeMicros.captureRag, 2),
          captureRag_thread_us_per_request: round(figures.micros.captureRagThread, 2),
          captureRag_thread_write_us_per_request: round(figures.writeMicros.captureRagThread, 2),
          writer_store_threads_us_per_request: round(figures.storeThreadMicros.captureRagThread, 2),
          other_threads_us_per_request: Object.fromEntries(SIDES.map((side) => [side, round(figures.helperMicros[side], 2)])),
          otel_us_per_trace: round(figures.micros.otel, 2),
          otel_otlp_us_per_trace: round(figures.micros.otelOtlp, 2),
          captureRag_cheaper_than_otel: figures.cheaper.captureRag.otel,
          captureRag_cheaper_than_otel_otlp: figures.cheaper.captureRag.otelOtlp,
          captureRag_thread_cheaper_than_otel: figures.cheaper.captureRagThread.otel,
          captureRag_thread_cheaper_than_otel_otlp: figures.cheaper.captureRagThread.otelOtlp,
        })),
        median: {
          captureRag_us_per_request: medianOf((figures) => figures.micros.captureRag),
          captureRag_thread_us_per_request: medianOf((figures) => figures.micros.captureRagThread),
          writer_store_threads_us_per_request: medianOf((figures) => figures.storeThreadMicros.captureRagThread),
          otel_us_per_trace: medianOf((figures) => figures.micros.otel),
          otel_otlp_us_per_trace: medianOf((figures) => figures.micros.otelOtlp),
        },
        apart: {
          turns,
          blocks_per_turn: WINDOW,
          runs: apart.map((figures) => ({
            us_per_request: Object.fromEntries(SIDES.map((side) => [side, round(figures.micros[side], 2)])),
            all_along_us_per_request: Object.fromEntries(SIDES.map((side) => [side, round(figures.cumulativeMicros[side], 2)])),
            captureRag_cheaper_than_otel: figures.cheaper.captureRag.otel,
            captureRag_cheaper_than_otel_otlp: figures.cheaper.captureRag.otelOtlp,
            captureRag_thread_cheaper_than_otel: figures.cheaper.captureRagThread.otel,
            captureRag_thread_cheaper_than_otel_otlp: figures.cheaper.captureRagThread.otelOtlp,
          })),
          captureRagCheaper: { otel: overallApart('captureRag', 'otel'), otelOtlp: overallApart('captureRag', 'otelOtlp') },
          captureRagThreadCheaper: { otel: overallApart('captureRagThread', 'otel'), otelOtlp: overallApart('captureRagThread', 'otelOtlp') },
        },
        captureRagCheaper: { otel: overall('captureRag', 'otel'), otelOtlp: overall('captureRag', 'otelOtlp') },
        captureRagThreadCheaper: { otel: overall('captureRagThread', 'otel'), otelOtlp: overall('captureRagThread', 'otelOtlp') },
      }),
    );
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

runBenchmark(main);
