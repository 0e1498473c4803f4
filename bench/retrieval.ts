/**
 * bench:retrieval — retrieval quality and latency on a BEIR dataset (SciFact by default).
 *
 * Builds a real index (openIndex + chunkDocument + putDocument) in a temp folder, then runs every
 * judged query through `retrieve()` three ways: FTS5 BM25 alone, the embedder alone, and the
 * hybrid (both, fused). Prints nDCG@10, recall@100 and p50/p95 latency per method, then one
 * JSON line of the figures.
 *
 * `--embedders local,use` measures the hashed embedder (`local-hash-v1`) and the sentence encoder
 * (`use-lite`) side by side in one run, on the same queries, with the encoder's load time and
 * embedding cost (`use-mean`: the encoder averaging 128-token windows).
 *
 *   npm run bench:retrieval
 *   npm run bench:retrieval -- --embedders local,use
 *   npm run bench:retrieval -- --data ../shared/data/scifact --qrels ../shared/data/scifact/qrels/train.tsv
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { seededRng } from '../src/metrics/random.js';
import { createLocalEmbedder, type LocalEmbedderOptions } from '../src/providers/local/embedder.js';
import { createSentenceEncoderEmbedder } from '../src/providers/local/sentence-embedder.js';
import { loadSentenceEncoder } from '../src/providers/local/sentence-encoder.js';
import type { EmbeddingModel } from '../src/providers/spec.js';
import { retrieve, type RetrieveOptions } from '../src/rag/retrieve.js';
import { benchFlags, BenchUsageError, DEFAULT_DATA_DIR, integerFlag, runBenchmark } from './lib/args.js';
import { loadBeir, resolveBeirFiles, type BeirDataset } from './lib/beir.js';
import { buildBeirIndex, type BuiltIndex } from './lib/beir-index.js';
import { ndcgAt, recallAt } from './lib/ir-metrics.js';
import { mean, percentile, round } from './lib/stats.js';
import { formatTable } from './lib/table.js';

const FLAGS = { data: true, corpus: true, queries: true, qrels: true, limit: true, embedder: true, embedders: true, retrieve: true, steps: false, help: false };

/** The embedders `--embedders` can name; `--embedder` options apply to `local` only. */
const EMBEDDERS: Record<string, (localOptions: LocalEmbedderOptions) => EmbeddingModel> = {
  local: (localOptions) => createLocalEmbedder(localOptions),
  use: () => createSentenceEncoderEmbedder(),
  'use-mean': () => createSentenceEncoderEmbedder({ longText: 'mean' }),
};

/**
 * The tuning steps recorded in docs/performance.md ("Retrieval (SciFact)"), each a complete configuration (embedder options plus
 * retrieve options), so `--steps` re-measures the whole table in one run.
 */
export const STEPS: { name: string; note: string; embedder: LocalEmbedderOptions; retrieve: RetrieveOptions }[] = [
  { name: 'v1', note: 'baseline: local-hash-v1 (words + bigrams 0.5, 1,024 d), RRF k=60', embedder: { bigramWeight: 0.5, charNgramWeight: 0 }, retrieve: { fusion: 'rrf' } },
  { name: 'v1-4096d', note: 'v1 with 4,096 dimensions (fewer hash collisions)', embedder: { dimensions: 4096, bigramWeight: 0.5, charNgramWeight: 0 }, retrieve: { fusion: 'rrf' } },
  { name: '+ngrams', note: '+ character 3–5-grams of stems, weight 0.5, query IDF of their word', embedder: { bigramWeight: 0.5, charNgramWeight: 0.5 }, retrieve: { fusion: 'rrf' } },
  { name: '-bigrams', note: 'word bigrams off', embedder: { bigramWeight: 0, charNgramWeight: 0.5 }, retrieve: { fusion: 'rrf' } },
  { name: '+convex', note: 'convex fusion of max-normalised scores (the defaults now)', embedder: {}, retrieve: { fusion: 'convex' } },
  { name: '+2048d', note: 'defaults with 2,048 dimensions (option, not default)', embedder: { dimensions: 2048 }, retrieve: {} },
  { name: '+title3', note: 'defaults with BM25 title weight 3 (SciFact-only option)', embedder: {}, retrieve: { fieldWeights: { title: 3, section: 2, body: 1 } } },
];

export interface MethodFigures {
  'ndcg@10': number;
  'recall@100': number;
  'p50_ms': number;
  'p95_ms': number;
}

/** Per-query nDCG@10, kept beside the figures for the paired comparison with BM25. */
const perQueryNdcg = new WeakMap<MethodFigures, number[]>();

/** The three ways of retrieving that are compared; the gate is off (we measure ranking). */
export const METHODS: Record<string, RetrieveOptions> = {
  bm25: { vectorWeight: 0 },
  embedder: { textWeight: 0 },
  hybrid: {},
};

/** Run every query through `retrieve()` with `options` and score the document ranking. */
export async function evaluate(built: BuiltIndex, dataset: BeirDataset, options: RetrieveOptions): Promise<MethodFigures> {
  const ndcg: number[] = [];
  const recall: number[] = [];
  const latencies: number[] = [];
  for (const query of dataset.queries) {
    const started = performance.now();
    const result = await retrieve(built.index, query.text, { topK: 100, minSimilarity: -1, termCoverage: false, ...options });
    latencies.push(performance.now() - started);
    const ranked: string[] = [];
    const seen = new Set<string>();
    for (const chunk of result.chunks) {
      const id = built.idBySlug.get(chunk.document) ?? chunk.document;
      if (!seen.has(id)) {
        seen.add(id);
        ranked.push(id);
      }
    }
    const judgments = dataset.qrels.get(query.id)!;
    ndcg.push(ndcgAt(ranked, judgments, 10));
    recall.push(recallAt(ranked, judgments, 100));
  }
  const figures: MethodFigures = { 'ndcg@10': mean(ndcg), 'recall@100': mean(recall), p50_ms: percentile(latencies, 50), p95_ms: percentile(latencies, 95) };
  perQueryNdcg.set(figures, ndcg);
  return figures;
}

const USAGE =
  'usage: npm run bench:retrieval -- [--data <folder>] [--corpus <file[,file…]>] [--queries <file>] [--qrels <file>]\n' +
  '         [--limit <n queries>] [--embedders local,use,use-mean] [--embedder <LocalEmbedderOptions JSON>] [--retrieve <RetrieveOptions JSON>] [--steps]\n';

async function main(): Promise<void> {
  const flags = benchFlags(FLAGS, USAGE);
  if (!flags) return;
  const single = { embedder: jsonFlag<LocalEmbedderOptions>(flags, 'embedder'), retrieve: jsonFlag<RetrieveOptions>(flags, 'retrieve') };
  const embedderNames = embedderList(flags);
  const files = resolveBeirFiles(flags, resolve(DEFAULT_DATA_DIR, 'scifact'));
  const dataset = loadBeir(files);
  const limit = integerFlag(flags, 'limit', dataset.queries.length);
  dataset.queries = dataset.queries.slice(0, limit);
  process.stderr.write(`${dataset.documents.length} documents, ${dataset.queries.length} judged queries (${files.qrelsFile})\n`);

  if (flags.has('steps')) {
    const results: Record<string, Record<string, MethodFigures>> = {};
    for (const step of STEPS) results[step.name] = (await measure(dataset, createLocalEmbedder(step.embedder), step.retrieve, step.name, METHODS)).figures;
    const rows = STEPS.map((step) => {
      const f = results[step.name]!;
      return [step.name, f.bm25!['ndcg@10'], f.bm25!['recall@100'], f.embedder!['ndcg@10'], f.embedder!['recall@100'], f.hybrid!['ndcg@10'], f.hybrid!['recall@100'], step.note];
    });
    process.stdout.write(`${formatTable(['step', 'BM25 nDCG@10', 'R@100', 'embedder nDCG@10', 'R@100', 'hybrid nDCG@10', 'R@100', 'what changed'], rows)}\n`);
    process.stdout.write(`${JSON.stringify(Object.fromEntries(Object.entries(results).map(([name, figures]) => [name, roundAll(figures)])))}\n`);
    return;
  }

  // BM25 does not use the embedder: measured once, with the first one.
  const measured: { name: string; modelId: string; figures: Record<string, MethodFigures>; ingestMs: number; loadMs: number | null }[] = [];
  for (const [position, name] of embedderNames.entries()) {
    const embedder = EMBEDDERS[name]!(single.embedder);
    let loadMs: number | null = null;
    if (embedder.modelId === 'use-lite') {
      // The first load in this process (a later load is free): modules, wasm backend, 26 MB graph.
      const started = performance.now();
      const encoder = await loadSentenceEncoder();
      loadMs = performance.now() - started;
      process.stderr.write(`[${name}] sentence encoder loaded in ${Math.round(loadMs)} ms (model ${Math.round(encoder.loadMs)} ms)\n`);
    }
    const methods = position === 0 ? METHODS : { embedder: METHODS.embedder!, hybrid: METHODS.hybrid! };
    const run = await measure(dataset, embedder, single.retrieve, name, methods);
    measured.push({ name, modelId: embedder.modelId, ...run, loadMs });
  }

  const baseline = measured[0]!.figures.bm25!;
  const reference = measured[0]!;
  const rows = measured.flatMap((entry) =>
    Object.entries(entry.figures).map(([method, f]) => {
      const paired = pairedDifference(perQueryNdcg.get(f)!, perQueryNdcg.get(baseline)!);
      const versusFirst = entry === reference || method === 'bm25' ? null : pairedDifference(perQueryNdcg.get(f)!, perQueryNdcg.get(reference.figures[method]!)!);
      return [
        method === 'bm25' ? 'bm25' : `${method} (${entry.modelId})`, f['ndcg@10'],
        method === 'bm25' ? '—' : `${signed(paired.mean)} [${signed(paired.low)}, ${signed(paired.high)}]`,
        method === 'bm25' ? '—' : `${paired.better}/${paired.worse}`,
        versusFirst ? `${signed(versusFirst.mean)} [${signed(versusFirst.low)}, ${signed(versusFirst.high)}]` : '—',
        f['recall@100'], f.p50_ms, f.p95_ms, `${(f.p50_ms / baseline.p50_ms).toFixed(2)}×`,
      ];
    }),
  );
  process.stdout.write(
    `${formatTable(['method', 'nDCG@10', 'vs bm25 [95% CI]', 'queries +/−', `vs ${reference.modelId} [95% CI]`, 'recall@100', 'p50 ms', 'p95 ms', 'p50 ÷ bm25'], rows)}\n`,
  );
  process.stdout.write(`${dataset.queries.length} queries; CI: paired bootstrap over queries (2,000 resamples); latency is one retrieve() call, topK 100, gate off\n`);
  for (const entry of measured) {
    const perDocument = entry.ingestMs / dataset.documents.length;
    process.stdout.write(
      `${entry.name} (${entry.modelId}): ingest ${(entry.ingestMs / 1000).toFixed(1)} s, ${perDocument.toFixed(1)} ms per document` +
        (entry.loadMs !== null ? `; first load ${Math.round(entry.loadMs)} ms` : '') + '\n',
    );
  }
  const json: Record<string, unknown> = Object.fromEntries(measured.map((entry) => [entry.modelId === 'use-lite' ? entry.name : entry.modelId, roundAll(entry.figures)]));
  json.cost = Object.fromEntries(
    measured.map((entry) => [entry.name, { ingest_ms_per_document: round(entry.ingestMs / dataset.documents.length, 2), ...(entry.loadMs !== null ? { load_ms: Math.round(entry.loadMs) } : {}) }]),
  );
  process.stdout.write(`${JSON.stringify(json)}\n`);
}

/** `--embedders a,b`: known names, no repeats. [local] */
function embedderList(flags: Map<string, string>): string[] {
  const names = (flags.get('embedders') ?? 'local').split(',').map((name) => name.trim());
  for (const name of names) {
    if (!(name in EMBEDDERS)) throw new BenchUsageError(`flag --embedders ${flags.get('embedders')} is invalid: use a comma-separated list of ${Object.keys(EMBEDDERS).join(', ')}`);
  }
  if (new Set(names).size !== names.length) throw new BenchUsageError(`flag --embedders ${flags.get('embedders')} names an embedder twice`);
  return names;
}

/** Build an index with this embedder and measure the given methods on it. */
async function measure(
  dataset: BeirDataset,
  embedder: EmbeddingModel,
  retrieveOptions: RetrieveOptions,
  label: string,
  methods: Record<string, RetrieveOptions>,
): Promise<{ figures: Record<string, MethodFigures>; ingestMs: number }> {
  const folder = mkdtempSync(join(tmpdir(), 'groundcheck-bench-'));
  try {
    const built = await buildBeirIndex(dataset.documents, embedder, folder, {}, (done) => progress(`[${label}] ingested ${done}/${dataset.documents.length}`));
    progress(`[${label}] ingested ${built.chunks} chunks in ${(built.ingestMs / 1000).toFixed(1)} s (${embedder.fingerprint})\n`);
    const figures: Record<string, MethodFigures> = {};
    for (const [name, options] of Object.entries(methods)) {
      progress(`[${label}] running ${name}…`);
      figures[name] = await evaluate(built, dataset, { ...retrieveOptions, ...options });
    }
    const summary = Object.entries(figures).map(([name, f]) => `${name} nDCG@10 ${f['ndcg@10'].toFixed(4)}`).join(', ');
    progress(`[${label}] done: ${summary}\n`);
    built.index.close();
    return { figures, ingestMs: built.ingestMs };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/**
 * Mean per-query difference with a 95% paired-bootstrap interval, and how many queries got
 * better or worse: on ~800 queries a +0.003 mean can be noise, and this says whether it is.
 */
function pairedDifference(method: readonly number[], baseline: readonly number[]): { mean: number; low: number; high: number; better: number; worse: number } {
  const differences = method.map((value, index) => value - baseline[index]!);
  const random = seededRng(42);
  const means: number[] = [];
  for (let resample = 0; resample < 2000; resample++) {
    let sum = 0;
    for (let draw = 0; draw < differences.length; draw++) sum += differences[Math.floor(random() * differences.length)]!;
    means.push(sum / differences.length);
  }
  return {
    mean: mean(differences),
    low: percentile(means, 2.5),
    high: percentile(means, 97.5),
    better: differences.filter((value) => value > 1e-9).length,
    worse: differences.filter((value) => value < -1e-9).length,
  };
}

function signed(value: number): string {
  return `${value >= 0 ? '+' : '−'}${Math.abs(value).toFixed(4)}`;
}

function progress(message: string): void {
  if (process.stderr.isTTY) process.stderr.write(`\r\x1b[K${message.trimEnd()}${message.endsWith('\n') ? '\n' : ''}`);
  else if (message.endsWith('\n')) process.stderr.write(message);
}

function jsonFlag<T>(flags: Map<string, string>, name: string): T {
  const raw = flags.get(name);
  if (raw === undefined) return {} as T;
  try {
    const value = JSON.parse(raw) as unknown;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('not an object');
    return value as T;
  } catch {
    throw new BenchUsageError(`flag --${name} needs a JSON object, e.g. --${name} '{"dimensions":2048}'`);
  }
}

function roundAll(figures: Record<string, MethodFigures>): Record<string, Record<string, number>> {
  return Object.fromEntries(Object.entries(figures).map(([name, f]) => [name, Object.fromEntries(Object.entries(f).map(([key, value]) => [key, round(value)]))]));
}

runBenchmark(main);
