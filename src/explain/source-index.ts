import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { embedChunksReusing, type IngestSummary } from '../rag/ingest.js';
import type { GroundcheckIndex } from '../rag/store.js';
import { chunkSourceFile, SOURCE_CHUNK_VERSION, type SourceChunkOptions } from './source-chunks.js';
import { listSourceFiles, type SourceFileOptions } from './source-files.js';

/**
 * The RAG-on source index: an app's own code in a groundcheck index (sqlite-vec vectors and FTS5,
 * through the store's public API, the same file format as a document index), refreshed
 * incrementally: unchanged files are skipped, changed ones replaced, deleted ones removed.
 * Built by `groundcheck index-source [dir]`, or by `explainErrors()` on the first error.
 */

export interface IndexSourceOptions extends SourceFileOptions, SourceChunkOptions {
  /** Texts per embedding call. [batchSize=64] */
  batchSize?: number;
  /** Called once per file as it is handled, for progress output. */
  onFile?: (event: { path: string; action: 'added' | 'replaced' | 'skipped' | 'removed'; chunks: number }) => void;
}

/**
 * Index the source under `root` into `index` (incrementally). The summary has the shape of a
 * document ingest's, so `formatIngestSummary` prints it.
 *
 * @example
 * const index = openIndex({ path: '.groundcheck/source-index.db', embedder: createLocalEmbedder() });
 * console.log(formatIngestSummary(await indexSource(index, '.')));
 */
export async function indexSource(index: GroundcheckIndex, root: string, options: IndexSourceOptions = {}): Promise<IngestSummary> {
  const started = performance.now();
  const files = listSourceFiles(root, options);
  const summary: IngestSummary = { added: [], replaced: [], skipped: [], removed: [], unsupported: [], chunksWritten: 0, chunksEmbedded: 0, chunksRemoved: 0, documents: 0, chunks: 0, durationMs: 0 };
  const stored = new Map(index.listDocuments().map((document) => [document.path, document]));
  const seen = new Set<string>();
  const chunking = JSON.stringify([SOURCE_CHUNK_VERSION, options.windowLines ?? null, options.overlapLines ?? null, options.maxUnitLines ?? null]);
  for (const file of files) {
    seen.add(file.relativePath);
    let source: string;
    try {
      source = readFileSync(file.path, 'utf8');
    } catch {
      continue; // removed or unreadable since it was listed: treated as gone below
    }
    const key = createHash('sha256').update(chunking).update('\0').update(source).digest('hex');
    const previous = stored.get(file.relativePath);
    if (previous && previous.contentHash === key) {
      summary.skipped.push(file.relativePath);
      options.onFile?.({ path: file.relativePath, action: 'skipped', chunks: previous.chunkCount });
      continue;
    }
    const chunks = chunkSourceFile(file.relativePath, source, options);
    // An edited file keeps the vectors of its unchanged chunks.
    const { vectors, embedded } = await embedChunksReusing(index, chunks, options.batchSize ?? 64, previous ? [index.vectorsByChunkHash([file.relativePath])] : []);
    summary.chunksEmbedded += embedded;
    index.putDocument({ path: file.relativePath, slug: file.relativePath, title: file.relativePath, updated: null, contentHash: key }, chunks, vectors);
    summary.chunksWritten += chunks.length;
    if (previous) {
      summary.chunksRemoved += previous.chunkCount;
      summary.replaced.push(file.relativePath);
    } else {
      summary.added.push(file.relativePath);
    }
    options.onFile?.({ path: file.relativePath, action: previous ? 'replaced' : 'added', chunks: chunks.length });
  }
  for (const [path, document] of stored) {
    if (seen.has(path)) continue;
    index.removeDocument(path);
    summary.removed.push(path);
    summary.chunksRemoved += document.chunkCount;
    options.onFile?.({ path, action: 'removed', chunks: document.chunkCount });
  }
  summary.documents = index.listDocuments().length;
  summary.chunks = index.chunkCount();
  summary.durationMs = performance.now() - started;
  return summary;
}
