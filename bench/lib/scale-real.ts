/**
 * bench:scale, real-data check: the offline embedder's SciFact vectors through the store's vector
 * indexes, against an exact linear scan.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalEmbedder } from '../../src/providers/local/embedder.js';
import { openIndex, type VectorIndexKind } from '../../src/rag/store.js';
import { loadBeir, resolveBeirFiles } from './beir.js';
import { buildBeirIndex } from './beir-index.js';
import { linearScanTopK, overlapRecall } from './linear-scan.js';
import { rescoreOption } from './scale-worker.js';
import { mean, percentile } from './stats.js';

export interface RealMeasurement {
  method: VectorIndexKind;
  rows: number;
  dims: number;
  queries: number;
  recall: number;
  p50Ms: number;
  p95Ms: number;
}

export async function realDataCheck(dataFolder: string, queryLimit: number, k: number, rescore: number): Promise<RealMeasurement[]> {
  const dataset = loadBeir(resolveBeirFiles(new Map([['data', dataFolder]]), dataFolder));
  const queries = dataset.queries.slice(0, queryLimit);
  const folder = mkdtempSync(join(tmpdir(), 'groundcheck-scale-real-'));
  try {
    const embedder = createLocalEmbedder();
    process.stderr.write(`real-data check: indexing ${dataset.documents.length} SciFact abstracts with ${embedder.fingerprint}\n`);
    const built = await buildBeirIndex(dataset.documents, embedder, folder);
    const path = built.index.path;
    const queryVectors = embedder.embedSync(queries.map((query) => query.text), 'query').filter((vector) => vector.some((value) => value !== 0));
    // Exact answer: a linear scan over the same document vectors (re-embedded: the embedder is deterministic).
    const chunks = built.index.getChunks(Array.from({ length: built.chunks }, (_, index) => index + 1));
    const documentVectors = embedder.embedSync(chunks.map((chunk) => chunk.modelText), 'document');
    const stored = new Float32Array(chunks.length * embedder.dimensions);
    documentVectors.forEach((vector, index) => stored.set(vector, index * embedder.dimensions));
    const truth = queryVectors.map((vector) => linearScanTopK(stored, embedder.dimensions, vector, k).map((hit) => chunks[hit.row]!.rowid));
    built.index.close();

    const results: RealMeasurement[] = [];
    for (const vectorIndex of ['float', 'binary-rescore'] as const) {
      const index = openIndex({ path, embedder, vectorIndex, ...rescoreOption(rescore) });
      index.vectorSearch(queryVectors[0]!, k);
      const latencies: number[] = [];
      const recalls: number[] = [];
      queryVectors.forEach((vector, queryIndex) => {
        const started = performance.now();
        const hits = index.vectorSearch(vector, k);
        latencies.push(performance.now() - started);
        recalls.push(overlapRecall(hits.map((hit) => hit.rowid), truth[queryIndex]!));
      });
      index.close();
      results.push({ method: vectorIndex, rows: chunks.length, dims: embedder.dimensions, queries: queryVectors.length, recall: mean(recalls), p50Ms: percentile(latencies, 50), p95Ms: percentile(latencies, 95) });
    }
    return results;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
