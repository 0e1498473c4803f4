import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { extractHtml, EXTRACTOR_VERSION } from '../crawl/extract.js';
import { InvalidInputError } from '../errors.js';
import { CHUNK_FORMAT_VERSION, chunkDocument, DOCUMENT_EXTENSIONS, HTML_FILE_EXTENSION, pageDocument, parseDocument, TEXT_FILE_EXTENSION, type Chunk, type ChunkOptions } from './chunk.js';
import type { GroundcheckIndex } from './store.js';

export interface IngestOptions extends ChunkOptions {
  /** Called once per document as it is handled, for progress output. */
  onDocument?: (event: { path: string; action: 'added' | 'replaced' | 'skipped' | 'removed'; chunks: number }) => void;
  /** Texts per embedding call. [batchSize=64] */
  batchSize?: number;
}

export interface IngestSummary {
  added: string[];
  replaced: string[];
  skipped: string[];
  removed: string[];
  /** Files in the folder ingest cannot read (a PDF, a Word file, an image…): listed, never silently dropped. */
  unsupported: string[];
  chunksWritten: number;
  /** Chunks of `chunksWritten` sent to the embedder: the others reused a stored vector of the same text. */
  chunksEmbedded: number;
  chunksRemoved: number;
  documents: number;
  chunks: number;
  durationMs: number;
}

/**
 * Ingest a folder of Markdown, text and HTML files into the index, incrementally: unchanged files (same
 * content and the same chunking) are skipped, changed ones replaced, files that disappeared removed.
 *
 * @throws InvalidInputError when the folder is missing, not a folder, or holds no text files.
 * @example
 * const summary = await ingestDirectory(index, 'fixtures/corpus');
 * console.log(formatIngestSummary(summary));
 */
export async function ingestDirectory(index: GroundcheckIndex, directory: string, options: IngestOptions = {}): Promise<IngestSummary> {
  const started = performance.now();
  const { files, unsupported } = listDocumentFiles(directory);
  if (files.length === 0) {
    throw new InvalidInputError(`${directory} holds no ${DOCUMENT_EXTENSIONS} files: nothing to ingest${unsupported.length > 0 ? ` (it holds ${describeUnsupported(unsupported)})` : ''}`, { code: 'empty_corpus' });
  }
  const summary: IngestSummary = {
    added: [], replaced: [], skipped: [], removed: [], unsupported: unsupported.map((file) => relative(directory, file).split(sep).join('/')), chunksWritten: 0, chunksEmbedded: 0, chunksRemoved: 0, documents: 0, chunks: 0, durationMs: 0,
  };
  // Pages crawled into the same index are the crawl's to keep or remove, not the folder's.
  const stored = new Map(index.listDocuments().filter((document) => document.url === null).map((document) => [document.path, document]));
  const currentPaths = new Set(files.map((file) => relative(directory, file).split(sep).join('/')));
  // Documents about to be removed may hold text that moved (a renamed file, a section moved to
  // another file): their vectors are read once, before they go, for any document that needs them.
  const leaving = [...stored.keys()].filter((path) => !currentPaths.has(path));
  let leavingVectors: Map<string, Float32Array> | undefined;
  const seenSlugs = new Map<string, string>();

  for (const file of files) {
    const relativePath = relative(directory, file).split(sep).join('/');
    const source = readFileSync(file, 'utf8');
    const html = HTML_FILE_EXTENSION.test(file);
    // An HTML file is read as the crawler reads a page; its key includes the extractor's version.
    const contentHash = documentKey(html ? `${EXTRACTOR_VERSION}\0${source}` : source, options);
    const previous = stored.get(relativePath);
    if (previous && previous.contentHash === contentHash) {
      seenSlugs.set(previous.slug, relativePath);
      summary.skipped.push(relativePath);
      options.onDocument?.({ path: relativePath, action: 'skipped', chunks: previous.chunkCount });
      continue;
    }
    // An HTML file is read for its main content (no navigation, footer, script or form), as the crawler reads a page.
    const parsed = html ? pageDocument(relativePath, extractHtml(source, pathToFileURL(file))) : parseDocument(relativePath, source);
    const clash = seenSlugs.get(parsed.slug);
    if (clash) {
      throw new InvalidInputError(`${relativePath} and ${clash} both map to document id "${parsed.slug}"; rename one of them`, {
        code: 'duplicate_document',
      });
    }
    seenSlugs.set(parsed.slug, relativePath);
    const chunks = chunkDocument(parsed, options);
    const ownVectors = previous ? index.vectorsByChunkHash([relativePath]) : new Map<string, Float32Array>();
    leavingVectors ??= index.vectorsByChunkHash(leaving);
    const { vectors, embedded } = await embedChunksReusing(index, chunks, options.batchSize ?? 64, [ownVectors, leavingVectors]);
    summary.chunksEmbedded += embedded;
    index.putDocument({ path: relativePath, slug: parsed.slug, title: parsed.title, updated: parsed.updated, contentHash }, chunks, vectors);
    summary.chunksWritten += chunks.length;
    if (previous) {
      summary.chunksRemoved += previous.chunkCount;
      summary.replaced.push(relativePath);
    } else {
      summary.added.push(relativePath);
    }
    options.onDocument?.({ path: relativePath, action: previous ? 'replaced' : 'added', chunks: chunks.length });
  }

  for (const [path, document] of stored) {
    if (currentPaths.has(path)) continue;
    index.removeDocument(path);
    summary.removed.push(path);
    summary.chunksRemoved += document.chunkCount;
    options.onDocument?.({ path, action: 'removed', chunks: document.chunkCount });
  }

  summary.documents = index.listDocuments().length;
  summary.chunks = index.chunkCount();
  summary.durationMs = performance.now() - started;
  return summary;
}

/**
 * What decides whether a stored document is still current: its source, and the chunking that
 * turned it into chunks (format version and budget). Any of them changing re-chunks it.
 */
function documentKey(source: string, options: ChunkOptions): string {
  return createHash('sha256').update(chunkingKey(options)).update('\0').update(source).digest('hex');
}

/** The chunking a document's stored chunks depend on: format version and budget. */
export function chunkingKey(options: ChunkOptions): string {
  return JSON.stringify([CHUNK_FORMAT_VERSION, options.maxTokens ?? null, options.overlapBlocks ?? null]);
}

/**
 * Embed chunks' model texts in batches of at most `batchSize` (and the embedder's own limit); one
 * vector per chunk, in order. A chunk whose content hash has a vector in one of `reusable` (see
 * `GroundcheckIndex.vectorsByChunkHash`) gets that vector instead of being embedded again.
 */
export async function embedChunks(
  index: GroundcheckIndex,
  chunks: Chunk[],
  batchSize: number,
  reusable: readonly ReadonlyMap<string, Float32Array>[] = [],
): Promise<Float32Array[]> {
  return (await embedChunksReusing(index, chunks, batchSize, reusable)).vectors;
}

/**
 * {@link embedChunks}, also saying how many texts went to the embedder. Reused vectors are the
 * ones re-embedding would give: they were made from the same text by the index's embedder (the
 * index checks its fingerprint at open). Repeated texts within `chunks` are embedded once.
 */
export async function embedChunksReusing(
  index: GroundcheckIndex,
  chunks: Chunk[],
  batchSize: number,
  reusable: readonly ReadonlyMap<string, Float32Array>[],
): Promise<{ vectors: Float32Array[]; embedded: number }> {
  const byHash = new Map<string, Float32Array>();
  for (const chunk of chunks) {
    const reused = reusable.map((vectors) => vectors.get(chunk.hash)).find((vector) => vector !== undefined);
    if (reused) byHash.set(chunk.hash, reused);
  }
  const pending = [...new Map(chunks.filter((chunk) => !byHash.has(chunk.hash)).map((chunk) => [chunk.hash, chunk.modelText]))];
  const limit = Math.max(1, Math.min(batchSize, index.embedder.maxBatchSize ?? batchSize));
  for (let start = 0; start < pending.length; start += limit) {
    const batch = pending.slice(start, start + limit);
    const { embeddings } = await index.embedder.embed({ values: batch.map(([, text]) => text), purpose: 'document' });
    batch.forEach(([hash], position) => byHash.set(hash, embeddings[position]!));
  }
  return { vectors: chunks.map((chunk) => byHash.get(chunk.hash)!), embedded: pending.length };
}

/** "2 other files (manual.pdf, logo.png)": what a folder holds that ingest cannot read. */
function describeUnsupported(files: readonly string[]): string {
  const names = files.slice(0, 3).map((file) => file.split(sep).pop()!);
  return `${files.length} other file${files.length === 1 ? '' : 's'} (${names.join(', ')}${files.length > 3 ? ', …' : ''})`;
}

function listDocumentFiles(directory: string): { files: string[]; unsupported: string[] } {
  let stats;
  try {
    stats = statSync(directory);
  } catch {
    throw new InvalidInputError(`folder ${directory} does not exist`, { code: 'not_found' });
  }
  if (!stats.isDirectory()) throw new InvalidInputError(`${directory} is not a folder`, { code: 'not_a_folder' });
  const files: string[] = [];
  const unsupported: string[] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const full = join(folder, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile() && (TEXT_FILE_EXTENSION.test(entry.name) || HTML_FILE_EXTENSION.test(entry.name))) files.push(full);
      else if (entry.isFile()) unsupported.push(full);
    }
  };
  walk(directory);
  return { files, unsupported };
}

/** Ignored files listed by name in the summary; the rest are counted. */
const MAX_LISTED_IGNORED = 10;

/** One line per action, then totals: what `groundcheck ingest` prints. */
export function formatIngestSummary(summary: IngestSummary): string {
  const lines: string[] = [];
  for (const path of summary.added) lines.push(`  added     ${path}`);
  for (const path of summary.replaced) lines.push(`  replaced  ${path}`);
  for (const path of summary.removed) lines.push(`  removed   ${path}`);
  // A folder of images could name hundreds: the first few say what kind, the count says how many.
  for (const path of summary.unsupported.slice(0, MAX_LISTED_IGNORED)) lines.push(`  ignored   ${path} (not ${DOCUMENT_EXTENSIONS})`);
  if (summary.unsupported.length > MAX_LISTED_IGNORED) lines.push(`  ignored   … and ${summary.unsupported.length - MAX_LISTED_IGNORED} more`);
  lines.push(
    `${summary.added.length} added, ${summary.replaced.length} replaced, ${summary.skipped.length} unchanged (skipped), ` +
      `${summary.removed.length} removed; ${summary.chunksWritten} chunks written (${summary.chunksEmbedded} embedded, ` +
      `${summary.chunksWritten - summary.chunksEmbedded} reused unchanged), ${summary.chunksRemoved} removed; ` +
      `index holds ${summary.documents} documents, ${summary.chunks} chunks (${Math.round(summary.durationMs)} ms)`,
  );
  return lines.join('\n');
}
