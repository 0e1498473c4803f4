import { join } from 'node:path';
import { chunkDocument, type ParsedDocument } from '../../src/rag/chunk.js';
import { openIndex, type GroundcheckIndex, type OpenIndexOptions } from '../../src/rag/store.js';
import type { EmbeddingModel } from '../../src/providers/spec.js';
import type { BeirDocument } from './beir.js';

export interface BuiltIndex {
  index: GroundcheckIndex;
  /** Document slug in the index → BEIR document id. */
  idBySlug: Map<string, string>;
  chunks: number;
  ingestMs: number;
}

/**
 * Index BEIR documents through the product path: each document becomes a `ParsedDocument` (title →
 * title, abstract → one body block), is chunked by `chunkDocument`, embedded by the index's
 * embedder in batches, and stored with `putDocument`, exactly what `ingestDirectory` does per file.
 */
export async function buildBeirIndex(
  documents: readonly BeirDocument[],
  embedder: EmbeddingModel,
  folder: string,
  options: Partial<OpenIndexOptions> = {},
  onProgress?: (done: number) => void,
): Promise<BuiltIndex> {
  const started = performance.now();
  const index = openIndex({ ...options, path: join(folder, 'index.db'), embedder });
  const idBySlug = new Map<string, string>();
  let chunkTotal = 0;
  const batchSize = 256;
  for (let start = 0; start < documents.length; start += batchSize) {
    const batch = documents.slice(start, start + batchSize).map((document) => {
      let slug = `d-${document.id.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
      while (idBySlug.has(slug)) slug += '-';
      idBySlug.set(slug, document.id);
      const parsed: ParsedDocument = {
        slug,
        title: document.title.trim() || document.id,
        updated: null,
        sections: [{ headingPath: [], blocks: document.text.split(/\n\s*\n/).filter((block) => block.trim() !== '') }],
      };
      return { slug, parsed, chunks: chunkDocument(parsed) };
    });
    const texts = batch.flatMap((entry) => entry.chunks.map((chunk) => chunk.modelText));
    const vectors = texts.length === 0 ? [] : (await embedder.embed({ values: texts, purpose: 'document' })).embeddings;
    let offset = 0;
    for (const entry of batch) {
      const own = vectors.slice(offset, offset + entry.chunks.length);
      offset += entry.chunks.length;
      index.putDocument(
        { path: `${entry.slug}.md`, slug: entry.slug, title: entry.parsed.title, updated: null, contentHash: entry.slug },
        entry.chunks,
        own,
      );
      chunkTotal += entry.chunks.length;
    }
    onProgress?.(Math.min(documents.length, start + batchSize));
  }
  // The embedder reads corpus statistics live from the index, so nothing else to refresh here.
  return { index, idBySlug, chunks: chunkTotal, ingestMs: performance.now() - started };
}
