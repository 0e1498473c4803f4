/**
 * bench:scale — vector search at 10k and 100k chunks: latency, recall@k against exact search,
 * ingest rate and memory, for
 *
 *   js-scan         a plain JavaScript loop over float32 vectors held in memory (what a tiny
 *                   personal RAG does): the baseline, and the exact answer recall is measured against
 *   float           the product's default vector index: sqlite-vec exact KNN (openIndex + putDocument)
 *   int8            sqlite-vec int8[] KNN (per-vector max-abs scaling), bench-only prototype
 *   bit+rescore     sqlite-vec bit[] KNN for R candidates, re-scored by exact cosine, bench-only prototype
 *   binary-rescore  the product's `vectorIndex: 'binary-rescore'`: sign codes scanned in memory,
 *                   R candidates re-scored by exact cosine from SQLite
 *
 * Each method runs in its own child process (same data, generated from the same seed), so its
 * memory high-water mark is its own. Then, when the SciFact data is there, a real-data check:
 * recall of the product's vector indexes on the offline embedder's SciFact vectors.
 *
 *   npm run bench:scale
 *   npm run bench:scale -- --sizes 10000,100000 --queries 200 --dims 384 --rescore 400
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchFlags, BenchUsageError, DEFAULT_DATA_DIR, existingPath, integerFlag, integerListFlag, runBenchmark } from './lib/args.js';
import { realDataCheck } from './lib/scale-real.js';
import { METHODS, worker, type Measurement, type Method } from './lib/scale-worker.js';
import { mean, round } from './lib/stats.js';
import type { Distribution } from './lib/synthetic.js';
import { formatTable } from './lib/table.js';

const FLAGS = {
  sizes: true, queries: true, dims: true, k: true, rescore: true, methods: true, distribution: true, data: true, 'no-real': false, help: false,
  // internal: one measurement in a child process
  worker: true, size: true, truth: true,
};

const USAGE =
  'usage: npm run bench:scale -- [--sizes 10000,100000] [--queries 200] [--dims 384] [--k 8] [--rescore auto|400[,1600…]]\n' +
  '         [--methods js-scan,float,int8,bit+rescore,binary-rescore] [--distribution clustered|uniform] [--data <scifact folder>] [--no-real]\n';

async function main(): Promise<void> {
  const flags = benchFlags(FLAGS, USAGE);
  if (!flags) return;
  const distribution = (flags.get('distribution') ?? 'clustered') as Distribution;
  if (distribution !== 'clustered' && distribution !== 'uniform') throw new BenchUsageError(`flag --distribution ${distribution} is invalid: use clustered or uniform`);
  const settings = {
    dims: integerFlag(flags, 'dims', 384, 8, 8192),
    queries: integerFlag(flags, 'queries', 200, 1, 100_000),
    k: integerFlag(flags, 'k', 8, 1, 4096),
    distribution,
  };
  // 0 stands for the store's default (max(8·k, 2% of rows)); printed as "auto".
  const rescoreList = (flags.get('rescore') ?? 'auto').split(',').map((part) => {
    const value = part.trim() === 'auto' ? 0 : Number(part);
    if (!Number.isInteger(value) || value < 0 || value > 1_000_000) throw new BenchUsageError(`flag --rescore ${part} is invalid: use auto or integers from 1 to 1000000, e.g. auto,400,2000`);
    return value;
  });
  if (flags.has('worker')) {
    const method = flags.get('worker') as Method;
    if (!METHODS.includes(method)) throw new BenchUsageError(`unknown worker ${method}`);
    const measurement = await worker({ ...settings, rescore: rescoreList[0]!, method, size: integerFlag(flags, 'size', 10_000), truthFile: flags.get('truth') ?? '' });
    process.stdout.write(`${JSON.stringify(measurement)}\n`);
    return;
  }

  const sizes = integerListFlag(flags, 'sizes', [10_000, 100_000]).sort((a, b) => a - b);
  const methods = (flags.get('methods') ?? METHODS.join(',')).split(',').map((name) => name.trim()) as Method[];
  for (const method of methods) if (!METHODS.includes(method)) throw new BenchUsageError(`flag --methods: unknown method ${method}; use ${METHODS.join(', ')}`);
  // The linear scan writes the exact answers, so it always runs first.
  const ordered: Method[] = ['js-scan', ...methods.filter((method) => method !== 'js-scan')];
  // Real-data check: on by default when the data is there; a --data that does not exist is an error.
  let realFolder: string | null = null;
  if (!flags.has('no-real')) {
    if (flags.has('data')) realFolder = existingPath(flags, 'data', '', 'folder');
    else if (existsSync(resolve(DEFAULT_DATA_DIR, 'scifact'))) realFolder = resolve(DEFAULT_DATA_DIR, 'scifact');
    else process.stderr.write(`note: ${resolve(DEFAULT_DATA_DIR, 'scifact')} not found; skipping the real-data check (pass --data <folder>)\n`);
  }

  const scratch = mkdtempSync(join(tmpdir(), 'groundcheck-scale-truth-'));
  const measurements: Measurement[] = [];
  const started = performance.now();
  try {
    for (const size of sizes) {
      const truthFile = join(scratch, `truth-${size}.json`);
      for (const method of ordered) {
        // The methods with re-scoring run once per --rescore value.
        for (const rescore of method === 'bit+rescore' || method === 'binary-rescore' ? rescoreList : [rescoreList[0]!]) {
          const label = method === 'bit+rescore' || method === 'binary-rescore' ? `${method} R=${rescore > 0 ? rescore : 'auto'}` : method;
          process.stderr.write(`${label} @ ${size.toLocaleString('en-US')} rows × ${settings.dims} d…\n`);
          measurements.push({ ...runChild(method, size, { ...settings, rescore }, truthFile), method: label });
        }
      }
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  const real = realFolder ? await realDataCheck(realFolder, 300, settings.k, rescoreList[rescoreList.length - 1]!) : [];
  process.stderr.write(`done in ${((performance.now() - started) / 1000).toFixed(0)} s\n`);

  const baselineOf = (size: number) => measurements.find((entry) => entry.size === size && entry.method === 'js-scan')!;
  const rows = measurements.map((entry) => [
    entry.size,
    entry.method,
    entry.p50Ms,
    entry.p95Ms,
    `${(entry.p50Ms / baselineOf(entry.size).p50Ms).toFixed(2)}×`,
    entry.recall,
    entry.ingestRowsPerSecond === null ? '—' : Math.round(entry.ingestRowsPerSecond).toLocaleString('en-US'),
    Math.round(entry.peakRssMiB),
    entry.anonMiB === null ? '—' : Math.round(entry.anonMiB),
    Math.round(entry.heldMiB),
    entry.indexMiB === null ? '—' : entry.indexMiB.toFixed(1),
  ]);
  process.stdout.write(
    `${settings.distribution} synthetic vectors, ${settings.dims} d, k=${settings.k}, ${settings.queries} queries; ` +
      `R = candidates re-scored exactly (auto: the store's default, max(8·k, 2% of rows))\n` +
      `${formatTable(['rows', 'method', 'p50 ms', 'p95 ms', 'p50 ÷ js-scan', `recall@${settings.k}`, 'ingest rows/s', 'peak RSS MiB', 'private MiB', 'JS held MiB', 'index MiB'], rows)}\n` +
      `peak RSS: each child process's high-water mark (getrusage maxrss): Node itself (~${Math.round(mean(measurements.map((entry) => entry.baseRssMiB)))} MiB at start), ` +
      `the method's memory, and the pages of the memory-mapped index file it touched (file-backed, shared, reclaimable by the OS).\n` +
      `private: anonymous resident memory (Linux RssAnon, no file-backed pages), the larger of two samples: after ingest and after the queries.\n` +
      `JS held: V8 heap + ArrayBuffers after the queries (the vectors or codes a method keeps in JavaScript).\n`,
  );
  if (real.length > 0) {
    process.stdout.write(
      `\nreal-data check: offline embedder vectors of SciFact (${real[0]!.rows} rows × ${real[0]!.dims} d, ${real[0]!.queries} claims as queries)\n` +
        `${formatTable(['vectorIndex', 'p50 ms', 'p95 ms', `recall@${settings.k}`], real.map((entry) => [entry.method, entry.p50Ms, entry.p95Ms, entry.recall]))}\n`,
    );
  }
  const json: Record<string, Record<string, number>> = {};
  for (const entry of measurements) {
    json[`${entry.method}@${entry.size}`] = {
      p50_ms: round(entry.p50Ms, 3),
      p95_ms: round(entry.p95Ms, 3),
      [`recall@${settings.k}`]: round(entry.recall, 4),
      ...(entry.ingestRowsPerSecond === null ? {} : { ingest_rows_per_s: Math.round(entry.ingestRowsPerSecond) }),
      peak_rss_mib: Math.round(entry.peakRssMiB),
      ...(entry.anonMiB === null ? {} : { private_mib: Math.round(entry.anonMiB) }),
      js_held_mib: Math.round(entry.heldMiB),
    };
  }
  for (const entry of real) json[`scifact-local:${entry.method}`] = { p50_ms: round(entry.p50Ms, 3), p95_ms: round(entry.p95Ms, 3), [`recall@${settings.k}`]: round(entry.recall, 4) };
  process.stdout.write(`${JSON.stringify(json)}\n`);
}

function runChild(method: Method, size: number, settings: { dims: number; queries: number; k: number; rescore: number; distribution: Distribution }, truthFile: string): Measurement {
  const script = fileURLToPath(import.meta.url);
  const args = [
    ...process.execArgv, script, '--worker', method, '--size', String(size), '--dims', String(settings.dims), '--queries', String(settings.queries),
    '--k', String(settings.k), '--rescore', String(settings.rescore), '--distribution', settings.distribution, '--truth', truthFile,
  ];
  const child = spawnSync(process.execPath, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 16 * 1024 * 1024 });
  if (child.status !== 0) throw new Error(`${method} @ ${size} failed (exit ${child.status ?? child.signal})`);
  const line = child.stdout.trim().split('\n').pop() ?? '';
  return JSON.parse(line) as Measurement;
}

runBenchmark(main);
