/**
 * bench:scale, child side: one method at one size, measured in its own process (see bench/scale.ts).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import type { EmbeddingModel } from '../../src/providers/spec.js';
import type { Chunk } from '../../src/rag/chunk.js';
import { openIndex, type GroundcheckIndex, type VectorIndexKind } from '../../src/rag/store.js';
import { linearScanTopK, overlapRecall } from './linear-scan.js';
import { anonymousRssMiB, mean, peakRssMiB, percentile } from './stats.js';
import { syntheticSource, type Distribution } from './synthetic.js';

export const METHODS = ['js-scan', 'float', 'int8', 'bit+rescore', 'binary-rescore'] as const;
export type Method = (typeof METHODS)[number];

export interface WorkerSettings {
  method: Method;
  size: number;
  dims: number;
  queries: number;
  k: number;
  rescore: number;
  distribution: Distribution;
  truthFile: string;
}

/** What one child reports (one JSON line on stdout). */
export interface Measurement {
  method: string;
  size: number;
  ingestRowsPerSecond: number | null;
  p50Ms: number;
  p95Ms: number;
  recall: number;
  peakRssMiB: number;
  baseRssMiB: number;
  /** V8 heap + ArrayBuffers after the queries: the memory the method itself holds in JavaScript. */
  heldMiB: number;
  /** Largest anonymous (private, not file-backed) RSS sampled after ingest and after the queries (Linux). */
  anonMiB: number | null;
  indexMiB: number | null;
  firstQueryMs: number;
}

const WARMUP_QUERIES = 3;
const ROWS_PER_DOCUMENT = 100;


export async function worker(settings: WorkerSettings): Promise<Measurement> {
  const baseRssMiB = process.memoryUsage().rss / 1024 / 1024;
  const source = syntheticSource({ dimensions: settings.dims, distribution: settings.distribution });
  const queries = source.queries(settings.queries + WARMUP_QUERIES);
  const queryAt = (index: number) => queries.subarray(index * settings.dims, (index + 1) * settings.dims);
  const folder = mkdtempSync(join(tmpdir(), 'groundcheck-scale-'));
  try {
    let search: (query: Float32Array) => number[]; // rows (0-based), best first
    let ingestRowsPerSecond: number | null = null;
    let indexFile: string | null = null;
    let allRows: Float32Array | null = null;

    if (settings.method === 'js-scan') {
      allRows = new Float32Array(settings.size * settings.dims);
      source.fill(allRows);
      const data = allRows;
      search = (query) => linearScanTopK(data, settings.dims, query, settings.k).map((hit) => hit.row);
    } else if (settings.method === 'float' || settings.method === 'binary-rescore') {
      indexFile = join(folder, 'index.db');
      const vectorIndex: VectorIndexKind = settings.method;
      const index = openIndex({ path: indexFile, embedder: stubEmbedder(settings.dims), vectorIndex, ...rescoreOption(settings.rescore) });
      ingestRowsPerSecond = ingestThroughStore(index, source, settings);
      search = (query) => index.vectorSearch(query, settings.k).map((hit) => hit.rowid - 1);
    } else {
      indexFile = join(folder, 'raw.db');
      const raw = rawVecIndex(indexFile, settings);
      ingestRowsPerSecond = raw.ingest(source);
      search = raw.search;
    }

    const anonAfterIngest = anonymousRssMiB();
    const firstStarted = performance.now();
    search(queryAt(0));
    const firstQueryMs = performance.now() - firstStarted;
    for (let index = 1; index < WARMUP_QUERIES; index++) search(queryAt(index));
    const latencies: number[] = [];
    const found: number[][] = [];
    for (let index = 0; index < settings.queries; index++) {
      const query = queryAt(WARMUP_QUERIES + index);
      const started = performance.now();
      found.push(search(query));
      latencies.push(performance.now() - started);
      if (index % 50 === 49) process.stderr.write(`  ${settings.method} @ ${settings.size}: ${index + 1}/${settings.queries} queries\r`);
    }
    // The linear scan is exact: it writes the answer the others are scored against.
    if (settings.method === 'js-scan') writeFileSync(settings.truthFile, JSON.stringify(found));
    const truth = JSON.parse(readFileSync(settings.truthFile, 'utf8')) as number[][];
    const recall = mean(found.map((rows, index) => overlapRecall(rows, truth[index]!)));
    const peak = peakRssMiB();
    const usage = process.memoryUsage();
    const heldMiB = (usage.heapUsed + usage.arrayBuffers) / 1024 / 1024;
    const anonAfterQueries = anonymousRssMiB();
    const anonMiB = anonAfterIngest === null || anonAfterQueries === null ? null : Math.max(anonAfterIngest, anonAfterQueries);
    allRows = null;
    return {
      method: settings.method,
      size: settings.size,
      ingestRowsPerSecond,
      p50Ms: percentile(latencies, 50),
      p95Ms: percentile(latencies, 95),
      recall,
      peakRssMiB: peak,
      baseRssMiB,
      heldMiB,
      anonMiB,
      indexMiB: indexFile ? fileMiB(indexFile) : null,
      firstQueryMs,
    };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** An embedder that is never called: the store only needs its dimensions and fingerprint. */
function stubEmbedder(dimensions: number): EmbeddingModel {
  return {
    provider: 'bench',
    modelId: 'synthetic',
    dimensions,
    fingerprint: `bench:synthetic;d=${dimensions}`,
    embed: () => Promise.reject(new Error('the scale benchmark inserts precomputed vectors')),
  };
}

/** The product's ingest path: one putDocument (one transaction) per document of 100 chunks. */
function ingestThroughStore(index: GroundcheckIndex, source: ReturnType<typeof syntheticSource>, settings: WorkerSettings): number {
  const batch = new Float32Array(ROWS_PER_DOCUMENT * settings.dims);
  const started = performance.now();
  for (let first = 0; first < settings.size; first += ROWS_PER_DOCUMENT) {
    const rows = Math.min(ROWS_PER_DOCUMENT, settings.size - first);
    const view = batch.subarray(0, rows * settings.dims);
    source.fill(view);
    const slug = `doc-${first / ROWS_PER_DOCUMENT}`;
    const chunks: Chunk[] = [];
    const vectors: Float32Array[] = [];
    for (let row = 0; row < rows; row++) {
      const text = `Synthetic chunk ${first + row} of ${slug}.`;
      chunks.push({ chunkId: `${slug}#c${row}`, documentSlug: slug, title: slug, updated: null, section: '', text, modelText: text, hash: `h${first + row}`, ordinal: row, tokenCount: 6 });
      vectors.push(view.slice(row * settings.dims, (row + 1) * settings.dims));
    }
    index.putDocument({ path: `${slug}.md`, slug, title: slug, updated: null, contentHash: slug }, chunks, vectors);
    if ((first / ROWS_PER_DOCUMENT) % 100 === 99) process.stderr.write(`  ${settings.method} @ ${settings.size}: ingested ${first + rows}\r`);
  }
  const seconds = (performance.now() - started) / 1000;
  index.db.pragma('wal_checkpoint(TRUNCATE)');
  return settings.size / seconds;
}

/**
 * The two bench-only prototypes on raw sqlite-vec tables (no chunks, no FTS5): int8[] KNN, and
 * bit[] KNN for R candidates re-scored from a plain table of float32 BLOBs.
 */
function rawVecIndex(path: string, settings: WorkerSettings) {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  sqliteVec.load(db);
  const dims = settings.dims;
  if (settings.method === 'int8') {
    db.exec(`CREATE VIRTUAL TABLE v USING vec0(embedding int8[${dims}] distance_metric=cosine)`);
  } else {
    db.exec(`CREATE VIRTUAL TABLE v USING vec0(embedding bit[${dims}]); CREATE TABLE f (id INTEGER PRIMARY KEY, embedding BLOB NOT NULL);`);
  }
  const insert = settings.method === 'int8'
    ? db.prepare(`INSERT INTO v (rowid, embedding) VALUES (?, vec_int8(?))`)
    : db.prepare(`INSERT INTO v (rowid, embedding) VALUES (?, vec_quantize_binary(?))`);
  const insertFloat = settings.method === 'int8' ? null : db.prepare(`INSERT INTO f (id, embedding) VALUES (?, ?)`);
  const knn = settings.method === 'int8'
    ? db.prepare(`SELECT rowid, distance FROM v WHERE embedding MATCH vec_int8(?) AND k = ? ORDER BY distance`)
    : db.prepare(`SELECT rowid FROM v WHERE embedding MATCH vec_quantize_binary(?) AND k = ?`);
  const rescoreStatements = new Map<number, Database.Statement>();
  return {
    ingest(source: ReturnType<typeof syntheticSource>): number {
      const batch = new Float32Array(1000 * dims);
      const started = performance.now();
      for (let first = 0; first < settings.size; first += 1000) {
        const rows = Math.min(1000, settings.size - first);
        source.fill(batch.subarray(0, rows * dims));
        db.transaction(() => {
          for (let row = 0; row < rows; row++) {
            const vector = batch.subarray(row * dims, (row + 1) * dims);
            const rowid = BigInt(first + row + 1);
            if (settings.method === 'int8') insert.run(rowid, int8Blob(vector));
            else {
              const blob = Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
              insert.run(rowid, blob);
              insertFloat!.run(rowid, blob);
            }
          }
        })();
      }
      const seconds = (performance.now() - started) / 1000;
      db.pragma('wal_checkpoint(TRUNCATE)');
      return settings.size / seconds;
    },
    search(query: Float32Array): number[] {
      if (settings.method === 'int8') {
        return (knn.all(int8Blob(query), settings.k) as { rowid: number }[]).map((row) => Number(row.rowid) - 1);
      }
      const blob = Buffer.from(query.buffer, query.byteOffset, query.byteLength);
      // Same candidate count as the store's default when --rescore is auto; sqlite-vec caps k at 4096.
      const wanted = settings.rescore > 0 ? settings.rescore : Math.max(8 * settings.k, Math.ceil(0.02 * settings.size));
      const candidates = (knn.all(blob, Math.min(4096, Math.max(settings.k, wanted))) as { rowid: number }[]).map((row) => Number(row.rowid));
      let statement = rescoreStatements.get(candidates.length);
      if (!statement) {
        statement = db.prepare(`SELECT id, vec_distance_cosine(embedding, ?) AS distance FROM f WHERE id IN (${candidates.map(() => '?').join(',')})`);
        rescoreStatements.set(candidates.length, statement);
      }
      const rows = statement.all(blob, ...candidates) as { id: number; distance: number }[];
      return rows.sort((a, b) => a.distance - b.distance).slice(0, settings.k).map((row) => row.id - 1);
    },
  };
}

/** `--rescore` value → store option: 0 means "leave the default". */
export function rescoreOption(rescore: number): { rescoreCandidates?: number } {
  return rescore > 0 ? { rescoreCandidates: rescore } : {};
}

/** Scale each vector by 127 / its largest |component|: cosine ignores the scale, precision doesn't. */
function int8Blob(vector: Float32Array): Buffer {
  let largest = 0;
  for (const value of vector) largest = Math.max(largest, Math.abs(value));
  const out = new Int8Array(vector.length);
  if (largest > 0) for (let d = 0; d < vector.length; d++) out[d] = Math.round((vector[d]! / largest) * 127);
  return Buffer.from(out.buffer);
}

function fileMiB(path: string): number {
  const wal = `${path}-wal`;
  return (statSync(path).size + (existsSync(wal) ? statSync(wal).size : 0)) / 1024 / 1024;
}
