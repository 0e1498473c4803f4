import type Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { IndexError, InvalidInputError } from '../errors.js';
import type { CorpusStatistics, EmbeddingModel } from '../providers/spec.js';
import { acronymTable } from '../text/acronyms.js';
import { openSqlite } from '../sqlite/open.js';
import type { Chunk } from './chunk.js';
import { InListQueries } from './in-list.js';
import { DEFAULT_FIELD_WEIGHTS, type PageSource, type StoredChunk, type StoredDocument, type StoredPage, type TextFieldWeights, type TextHit } from './index-types.js';
import { CHUNK_SELECT, INDEX_MIGRATIONS, INDEX_TABLES, INDEX_VIEWS, SCHEMA_VERSION, SET_META } from './index-schema.js';
import { convertVectors, createVectorIndex, VECTOR_INDEX_KINDS, type VectorHit, type VectorIndex, type VectorIndexKind } from './vector-index.js';

/**
 * The index: one SQLite file holding documents, chunks, the vectors (see {@link VectorIndexKind}:
 * `vector-index.ts` and one file per kind) and an FTS5 table (porter). Its schema is in
 * `index-schema.ts`; `openSqlite` opens the file (kind `index`). These modules are the only
 * places that write SQL against it.
 */

export { SCHEMA_VERSION } from './index-schema.js';
export type { VectorHit, VectorIndexKind } from './vector-index.js';
export { DEFAULT_FIELD_WEIGHTS, type StoredDocument, type PageSource, type StoredPage, type StoredChunk, type TextHit, type TextFieldWeights } from './index-types.js';

/** Largest part of the index file SQLite memory-maps (1 GiB; the rest is read as usual). */
const MMAP_BYTES = 1024 * 1024 * 1024;
/** Page cache per connection, in KiB (32 MiB instead of SQLite's 2 MiB). */
const CACHE_KIB = 32 * 1024;

export interface OpenIndexOptions {
  /** Path of the SQLite file. Parent folders are created when `create` is true. */
  path: string;
  /** The embedder queries and ingests will use; must match the one that built the index. */
  embedder: EmbeddingModel;
  /** Create the file when it does not exist. [create=true] */
  create?: boolean;
  /** When the index was built by another embedder, wipe it instead of failing. [rebuild=false] */
  rebuild?: boolean;
  /**
   * How vector search runs: `float` (exact, sqlite-vec) or `binary-rescore` (in-memory sign codes,
   * then exact cosine on the best candidates). See {@link VectorIndexKind}, the README
   * (Retrieval) and docs/performance.md (Scale) for the measured trade-off. The kind is recorded in the index;
   * opening with another kind converts the index in place, in one transaction (its vectors are
   * kept, only where they are stored changes). [vectorIndex=the kind the index has; `float` for a new one]
   */
  vectorIndex?: VectorIndexKind;
  /**
   * `binary-rescore` only: how many Hamming-nearest candidates are re-scored exactly per search.
   * More means higher recall and slower queries. By default it grows with the index: the larger
   * of 8·k and 2% of the chunks, because the Hamming rank of a true neighbour grows with the
   * number of rows around it (on 384-d clustered vectors this held recall@8 at 0.95–0.97 from 10k
   * to 100k rows; docs/performance.md). [rescoreCandidates=max(8·k, 2% of chunks)]
   */
  rescoreCandidates?: number;
  /** Clock for the documents' `ingested_at` and the index's `created_at`, ms since epoch. [now=Date.now] */
  now?: () => number;
}

/**
 * Open (or create) an index file.
 *
 * @throws DatabaseFileError `not_found` (no file and `create: false`), `not_a_database`, `foreign_database`,
 *   `wrong_file_kind` (a capture store or an LLM cache), `schema_too_new`.
 * @throws IndexError `embedder_mismatch` (says to re-ingest).
 * @throws InvalidInputError `invalid_option` for a bad `vectorIndex` or `rescoreCandidates`.
 * @example
 * const index = openIndex({ path: '.groundcheck/index.db', embedder: createLocalEmbedder() });
 * // A large index built by a dense embedder: approximate, ~5× faster search at 100k chunks.
 * const big = openIndex({ path: 'big.db', embedder: openai.embedding('text-embedding-3-small'), vectorIndex: 'binary-rescore' });
 */
export function openIndex(options: OpenIndexOptions): GroundcheckIndex {
  return new GroundcheckIndex(options);
}

export class GroundcheckIndex {
  readonly path: string;
  readonly embedder: EmbeddingModel;
  readonly db: Database.Database;
  /** The vector index in use (recorded in the index meta as `vector_index`). */
  readonly vectorIndex: VectorIndexKind;
  private readonly vectors: VectorIndex;
  private readonly statements: ReturnType<typeof prepareStatements>;
  private vocabulary: VocabularyCache = emptyVocabulary('');
  private readonly inList: InListQueries;
  private readonly now: () => number;

  constructor(options: OpenIndexOptions) {
    // Plain-JavaScript callers get no type check: name what is missing instead of a TypeError deep inside.
    if (typeof options?.path !== 'string' || options.path === '') {
      throw new InvalidInputError('option path is required: the index file, e.g. openIndex({ path: ".groundcheck/index.db", embedder })', { code: 'invalid_option' });
    }
    if (typeof options.embedder?.embed !== 'function' || typeof options.embedder.fingerprint !== 'string') {
      throw new InvalidInputError('option embedder is required: createLocalEmbedder() for the offline default, or an OpenAI-compatible one (openai.embedding(...))', { code: 'invalid_option' });
    }
    if (options.vectorIndex !== undefined && !VECTOR_INDEX_KINDS.includes(options.vectorIndex)) {
      throw new InvalidInputError(
        `option vectorIndex ${JSON.stringify(options.vectorIndex)} is invalid: use ${VECTOR_INDEX_KINDS.map((kind) => `'${kind}'`).join(' or ')}`,
        { code: 'invalid_option' },
      );
    }
    const rescoreCandidates = options.rescoreCandidates;
    if (rescoreCandidates !== undefined && (!Number.isInteger(rescoreCandidates) || rescoreCandidates < 1 || rescoreCandidates > 1_000_000)) {
      throw new InvalidInputError(`option rescoreCandidates ${String(rescoreCandidates)} is invalid: use an integer from 1 to 1000000`, {
        code: 'invalid_option',
      });
    }
    this.path = options.path;
    this.embedder = options.embedder;
    this.now = options.now ?? Date.now;
    const dimensions = this.embedder.dimensions;
    let rebuilt = false;
    const { db, created } = openSqlite({
      path: options.path,
      kind: 'index',
      migrations: INDEX_MIGRATIONS,
      context: { dimensions },
      create: options.create ?? true,
      notFoundMessage: `no index at ${options.path}: run \`groundcheck ingest <folder> --db ${options.path}\` first`,
      pathHint: 'pass another --db path',
      pragmas: [
        'foreign_keys = ON',
        // Vector search reads every vector on each query. Through SQLite's default 2 MB page cache
        // that is a read() per page; memory-mapping the file (address space, not heap: the OS
        // shares and reclaims the pages) made a 5k × 1,024-d search 1.5× faster and exact
        // similarity lookups 8× faster (docs/performance.md).
        `mmap_size = ${MMAP_BYTES}`,
        `cache_size = -${CACHE_KIB}`,
      ],
      configure: (connection) => sqliteVec.load(connection),
      check: (connection) => {
        const storedFingerprint = readMeta(connection, 'embedder_fingerprint');
        if (storedFingerprint === this.embedder.fingerprint) return;
        if (!options.rebuild) {
          throw new IndexError(
            'embedder_mismatch',
            `${options.path} was built with embedder "${storedFingerprint ?? 'unknown'}" but this run uses ` +
              `"${this.embedder.fingerprint}"; re-ingest with the current embedder ` +
              `(groundcheck ingest <folder> --db ${options.path} --rebuild) or configure the embedder that built it`,
          );
        }
        connection.transaction(() => {
          for (const view of INDEX_VIEWS) connection.exec(`DROP VIEW IF EXISTS ${view}`);
          for (const table of INDEX_TABLES) connection.exec(`DROP TABLE IF EXISTS ${table}`);
          connection.pragma('user_version = 0');
        })();
        rebuilt = true;
        return 'reset';
      },
      onCreate: (connection) => writeEmbedderMeta(connection, this.embedder, this.now),
    });
    this.db = db;
    try {
      // A rebuilt index is migrated again by the opener, in its own transaction after the reset.
      if (rebuilt && !created) writeEmbedderMeta(db, this.embedder, this.now);
      this.vectorIndex = this.applyVectorIndex(options.vectorIndex);
      this.statements = prepareStatements(db);
      this.inList = new InListQueries(db);
      this.vectors = createVectorIndex(this.vectorIndex, {
        db,
        dimensions,
        inList: this.inList,
        chunkCount: () => this.chunkCount(),
        rescoreCandidates,
      });
    } catch (error) {
      db.close();
      throw error;
    }
    this.embedder.bindCorpusStatistics?.(this.corpusStatistics());
  }

  /**
   * Resolve the vector index kind (the option, else what the index records, else `float`) and
   * convert the stored vectors when it differs from what the index holds.
   */
  private applyVectorIndex(wanted: VectorIndexKind | undefined): VectorIndexKind {
    const recorded = this.getMeta('vector_index') as VectorIndexKind | undefined;
    const stored = recorded ?? 'float';
    const kind = wanted ?? stored;
    if (kind === stored && recorded !== undefined) return kind;
    this.db.transaction(() => {
      if (kind !== stored) convertVectors(this.db, stored, kind, this.embedder.dimensions);
      this.db.prepare(SET_META).run('vector_index', kind);
    })();
    return kind;
  }

  getMeta(key: string): string | undefined {
    return readMeta(this.db, key);
  }

  listDocuments(): StoredDocument[] {
    return this.statements.listDocuments.all() as StoredDocument[];
  }

  /** The crawled documents of one origin (`https://docs.example.com`), with their page sources. */
  listPages(origin: string): StoredPage[] {
    return this.statements.listPages.all(origin) as StoredPage[];
  }

  /**
   * Record a fresh fetch of a crawled page whose content did not change (a new `ETag` or date,
   * the same text), without touching its chunks. Returns false when no crawled document has that path.
   */
  touchPage(path: string, fetch: Pick<PageSource, 'etag' | 'lastModified' | 'depth' | 'fetchedAt'>): boolean {
    const { etag, lastModified, depth, fetchedAt } = fetch;
    return this.statements.updatePageSource.run({ path, etag, lastModified, depth, fetchedAt }).changes > 0;
  }

  /** Number of chunks in the index. */
  chunkCount(): number {
    return this.statements.chunkCount.get() as number;
  }

  /**
   * Insert a document with its chunks and their vectors (one per chunk, same order), replacing any
   * document at the same path, in one transaction. A crawled page also gets its `page` source
   * (its `path` is then its URL).
   */
  putDocument(
    document: { path: string; slug: string; title: string; updated: string | null; contentHash: string },
    chunks: Chunk[],
    vectors: Float32Array[],
    page?: PageSource,
  ): void {
    if (vectors.length !== chunks.length) throw new Error(`putDocument: ${chunks.length} chunks but ${vectors.length} vectors`);
    for (const vector of vectors) this.checkDimensions(vector);
    this.db.transaction(() => {
      // Indexed lookups, not a scan of every document: ingesting n files stays O(n), not O(n²).
      const existing = this.statements.documentByPathOrSlug.all(document.path, document.slug) as { id: number }[];
      for (const stored of existing) this.removeDocumentById(stored.id);
      const documentId = Number(this.statements.insertDocument.run({ ...document, ingestedAt: new Date(this.now()).toISOString() }).lastInsertRowid);
      chunks.forEach((chunk, index) => {
        const rowid = BigInt(
          this.statements.insertChunk.run({
            chunkId: chunk.chunkId,
            documentId,
            ordinal: chunk.ordinal,
            section: chunk.section,
            text: chunk.text,
            modelText: chunk.modelText,
            hash: chunk.hash,
            tokenCount: chunk.tokenCount,
          }).lastInsertRowid,
        );
        this.statements.insertFts.run(rowid);
        this.vectors.insert(rowid, vectors[index]!);
      });
      if (page) {
        const { origin, etag, lastModified, depth, processingKey, fetchedAt } = page;
        this.statements.insertPageSource.run({ documentId, origin, etag, lastModified, depth, processingKey, fetchedAt });
      }
    })();
    this.vectors.changed();
  }

  /** Remove a document and everything derived from it. */
  removeDocument(path: string): boolean {
    const existing = this.statements.documentByPath.get(path) as { id: number } | undefined;
    if (!existing) return false;
    this.db.transaction(() => this.removeDocumentById(existing.id))();
    this.vectors.changed();
    return true;
  }

  private removeDocumentById(documentId: number): void {
    // The full-text index forgets a row only when told the exact values it indexed.
    const indexed = this.statements.documentFtsRows.all(documentId) as { id: number; title: string; section: string; body: string }[];
    for (const row of indexed) {
      this.statements.deleteFts.run(BigInt(row.id), row.title, row.section, row.body);
      this.vectors.remove(row.id);
    }
    this.statements.deleteDocument.run(documentId);
  }

  /**
   * Nearest chunks by cosine similarity, best first: exact sqlite-vec KNN for the `float` vector
   * index; Hamming-nearest sign codes re-scored by exact cosine for `binary-rescore`.
   */
  vectorSearch(vector: Float32Array, k: number): VectorHit[] {
    this.checkDimensions(vector);
    return this.vectors.search(vector, Math.max(1, Math.min(4096, Math.floor(k))));
  }

  /**
   * Best chunks by FTS5 BM25 for an already-sanitized MATCH expression (see `buildMatchQuery`).
   * An empty expression matches nothing.
   */
  textSearch(matchExpression: string, k: number, weights: TextFieldWeights = DEFAULT_FIELD_WEIGHTS): TextHit[] {
    if (matchExpression.trim() === '') return [];
    const limit = Math.max(1, Math.floor(k));
    const rows = this.statements.textSearch.all(weights.title, weights.section, weights.body, matchExpression, limit) as { rowid: number; score: number }[];
    return rows.map((row) => ({ rowid: Number(row.rowid), bm25: row.score }));
  }

  /** Exact cosine similarity between `vector` and each listed chunk. Unknown rowids are skipped. */
  similarities(vector: Float32Array, rowids: readonly number[]): Map<number, number> {
    if (rowids.length === 0) return new Map();
    this.checkDimensions(vector);
    return this.vectors.similarities(vector, rowids);
  }

  /** Chunk rows by rowid, in the order asked. Unknown rowids are skipped. */
  getChunks(rowids: readonly number[]): StoredChunk[] {
    if (rowids.length === 0) return [];
    const rows = this.inList.rows<StoredChunk>('chunks', (list) => `${CHUNK_SELECT} WHERE c.id IN (${list})`, rowids);
    const byRowid = new Map(rows.map((row) => [row.rowid, row]));
    return rowids.map((rowid) => byRowid.get(rowid)).filter((row): row is StoredChunk => row !== undefined);
  }

  getChunk(chunkId: string): StoredChunk | undefined {
    return this.statements.chunkById.get(chunkId) as StoredChunk | undefined;
  }

  /** Every chunk id with its content hash (for drift checks). */
  chunkHashes(): Map<string, string> {
    const rows = this.statements.allChunkHashes.all() as { chunkId: string; hash: string }[];
    return new Map(rows.map((row) => [row.chunkId, row.hash]));
  }

  /**
   * The stored vectors of the chunks of the documents at `paths`, by chunk content hash (the hash
   * of the exact text that was embedded). Every vector in an index was made by the embedder whose
   * fingerprint the index checks at open, so ingest reuses them for chunk texts that did not change
   * instead of embedding them again. Unknown paths are skipped.
   */
  vectorsByChunkHash(paths: readonly string[]): Map<string, Float32Array> {
    const byHash = new Map<string, Float32Array>();
    for (const path of new Set(paths)) {
      const rows = this.statements.documentChunkHashes.all(path) as { id: number; hash: string }[];
      const stored = this.vectors.vectors(rows.map((row) => row.id));
      for (const row of rows) {
        const vector = stored.get(row.id);
        if (vector && !byHash.has(row.hash)) byHash.set(row.hash, vector);
      }
    }
    return byHash;
  }

  /**
   * Statistics from the FTS5 vocabulary: handed to embedders that weight terms by IDF, and read by
   * retrieval's spelling check and term-coverage gate. One question's words are looked up by all
   * three in turn (about 50 µs a query on the handbook index), so the answers are kept while the
   * index is unchanged: the cache is dropped when this connection has written anything
   * (`total_changes()`) or another connection has committed (`PRAGMA data_version`), checked with
   * one statement per lookup.
   */
  corpusStatistics(): CorpusStatistics {
    return {
      documentCount: () => {
        const cache = this.currentVocabulary();
        if (cache.documentCount === null) cache.documentCount = this.chunkCount();
        return cache.documentCount;
      },
      documentFrequencies: (terms) => {
        const cache = this.currentVocabulary();
        const missing = [...new Set(terms)].filter((term) => !cache.frequencies.has(term));
        if (missing.length > 0) {
          const rows = this.inList.rows<{ term: string; doc: number }>('vocabulary', (list) => `SELECT term, doc FROM chunks_fts_vocab WHERE term IN (${list})`, missing);
          // Bounded: a long-running app sees an open vocabulary of questions.
          if (cache.frequencies.size + missing.length > MAX_CACHED_TERMS) cache.frequencies.clear();
          for (const term of missing) cache.frequencies.set(term, 0);
          for (const row of rows) cache.frequencies.set(row.term, row.doc);
        }
        const found = new Map<string, number>();
        for (const term of terms) {
          const doc = cache.frequencies.get(term) ?? 0;
          if (doc > 0) found.set(term, doc);
        }
        return found;
      },
    };
  }

  /** The vocabulary cache for the index as it is now (a fresh one after any write, here or elsewhere). */
  private currentVocabulary(): VocabularyCache {
    const { changes, version } = this.statements.vocabularyVersion.get() as { changes: number; version: number };
    const key = `${changes}:${version}`;
    if (this.vocabulary.key !== key) this.vocabulary = emptyVocabulary(key);
    return this.vocabulary;
  }

  /**
   * The acronyms the corpus spells out, by `acronymKey` ("spl" → "shared parental leave"; see
   * `src/text/acronyms.ts`): read from every chunk's headings and text the first time they are
   * asked for, and kept while the index is unchanged (like `corpusStatistics`). Retrieval asks only
   * for a question's acronym the corpus never writes.
   */
  acronymSpellings(): ReadonlyMap<string, string> {
    const cache = this.currentVocabulary();
    if (cache.acronyms === null) {
      const rows = this.statements.acronymPassages.all() as { section: string; text: string }[];
      cache.acronyms = acronymTable(rows.map((row) => ({ heading: row.section, text: row.text })));
    }
    return cache.acronyms;
  }

  /**
   * Terms of the full-text vocabulary (Porter stems, as FTS5 stores them) that start with
   * `prefix`, alphabetically, at most `limit` of them: for checking whether a question's word has
   * a close form in the corpus ("month" for "monthly").
   */
  vocabularyWithPrefix(prefix: string, limit = 50): string[] {
    if (prefix === '') return [];
    return this.cachedLookup(`prefix:${limit}:${prefix}`, () => this.statements.termsInRange.all(prefix, `${prefix}\u{10ffff}`, limit) as string[]);
  }

  /**
   * Whether the corpus holds these words side by side, in this order, in some chunk (an FTS5 phrase
   * query, Porter-stemmed like the index: "check out" finds "check-out"). Words of letters and
   * digits only; anything else is no phrase the index could hold, and gives false.
   */
  holdsPhrase(words: readonly string[]): boolean {
    if (words.length === 0 || !words.every((word) => /^[\p{L}\p{N}]+$/u.test(word))) return false;
    const phrase = `"${words.join(' ')}"`;
    return this.cachedLookup(`phrase:${phrase}`, () => this.statements.phraseCount.get(phrase) !== undefined);
  }

  /**
   * A vocabulary lookup kept while the index is unchanged (like `corpusStatistics`): retrieval asks
   * the gate's and the search's questions of the same words, and questions repeat their words.
   */
  private cachedLookup<T extends string[] | boolean>(key: string, read: () => T): T {
    const cache = this.currentVocabulary();
    const known = cache.lookups.get(key);
    if (known !== undefined) return known as T;
    const value = read();
    // Bounded, as the frequencies are: a long-running app sees an open vocabulary of questions.
    if (cache.lookups.size >= MAX_CACHED_TERMS) cache.lookups.clear();
    cache.lookups.set(key, value);
    return value;
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  private checkDimensions(vector: Float32Array): void {
    if (vector.length !== this.embedder.dimensions) {
      throw new Error(`vector has ${vector.length} dimensions; the index expects ${this.embedder.dimensions}`);
    }
  }
}

/** Terms whose document frequency the vocabulary cache keeps at most. */
const MAX_CACHED_TERMS = 20_000;

/** Document frequencies (0: not in the corpus) and the chunk count, for the index at `key` (`total_changes:data_version`). */
interface VocabularyCache {
  key: string;
  documentCount: number | null;
  frequencies: Map<string, number>;
  /** The acronyms the corpus spells out (`acronymTable`), built when first asked for. */
  acronyms: Map<string, string> | null;
  /** Prefix and phrase lookups (`vocabularyWithPrefix`, `holdsPhrase`), by kind and argument. */
  lookups: Map<string, string[] | boolean>;
}

/** Nothing read yet for the index as it is at `key`. */
function emptyVocabulary(key: string): VocabularyCache {
  return { key, documentCount: null, frequencies: new Map(), acronyms: null, lookups: new Map() };
}

function prepareStatements(db: Database.Database) {
  return {
    vocabularyVersion: db.prepare('SELECT total_changes() AS changes, data_version AS version FROM pragma_data_version()'),
    listDocuments: db.prepare(`
      SELECT d.id, d.path, d.slug, d.title, d.updated, d.content_hash AS contentHash,
             (SELECT count(*) FROM chunks c WHERE c.document_id = d.id) AS chunkCount,
             CASE WHEN s.document_id IS NULL THEN NULL ELSE d.path END AS url
      FROM documents d LEFT JOIN page_sources s ON s.document_id = d.id ORDER BY d.path`),
    listPages: db.prepare(`
      SELECT d.id, d.path, d.slug, d.title, d.updated, d.content_hash AS contentHash,
             (SELECT count(*) FROM chunks c WHERE c.document_id = d.id) AS chunkCount, d.path AS url,
             s.origin, s.etag, s.last_modified AS lastModified, s.depth, s.processing_key AS processingKey, s.fetched_at AS fetchedAt
      FROM documents d JOIN page_sources s ON s.document_id = d.id WHERE s.origin = ? ORDER BY d.path`),
    insertPageSource: db.prepare(`
      INSERT INTO page_sources (document_id, origin, etag, last_modified, depth, processing_key, fetched_at)
      VALUES (@documentId, @origin, @etag, @lastModified, @depth, @processingKey, @fetchedAt)`),
    updatePageSource: db.prepare(`
      UPDATE page_sources SET etag = @etag, last_modified = @lastModified, depth = @depth, fetched_at = @fetchedAt
      WHERE document_id = (SELECT id FROM documents WHERE path = @path)`),
    insertDocument: db.prepare(`
      INSERT INTO documents (path, slug, title, updated, content_hash, ingested_at)
      VALUES (@path, @slug, @title, @updated, @contentHash, @ingestedAt)`),
    documentByPathOrSlug: db.prepare(`SELECT id FROM documents WHERE path = ? OR slug = ?`),
    documentByPath: db.prepare(`SELECT id FROM documents WHERE path = ?`),
    documentFtsRows: db.prepare(`SELECT id, title, section, body FROM chunks_fts_source WHERE id IN (SELECT id FROM chunks WHERE document_id = ?)`),
    deleteDocument: db.prepare(`DELETE FROM documents WHERE id = ?`),
    insertChunk: db.prepare(`
      INSERT INTO chunks (chunk_id, document_id, ordinal, section, text, model_text, hash, token_count)
      VALUES (@chunkId, @documentId, @ordinal, @section, @text, @modelText, @hash, @tokenCount)`),
    // Indexed from the content view, so the values a later 'delete' passes are the indexed ones.
    insertFts: db.prepare(`INSERT INTO chunks_fts (rowid, title, section, body) SELECT id, title, section, body FROM chunks_fts_source WHERE id = ?`),
    deleteFts: db.prepare(`INSERT INTO chunks_fts (chunks_fts, rowid, title, section, body) VALUES ('delete', ?, ?, ?, ?)`),
    textSearch: db.prepare(`SELECT rowid, bm25(chunks_fts, ?, ?, ?) AS score FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY score LIMIT ?`),
    chunkCount: db.prepare(`SELECT count(*) FROM chunks`).pluck(),
    acronymPassages: db.prepare(`SELECT section, text FROM chunks`),
    chunkById: db.prepare(`${CHUNK_SELECT} WHERE c.chunk_id = ?`),
    allChunkHashes: db.prepare(`SELECT chunk_id AS chunkId, hash FROM chunks`),
    phraseCount: db.prepare(`SELECT 1 FROM chunks_fts WHERE chunks_fts MATCH ? LIMIT 1`).pluck(),
    termsInRange: db.prepare(`SELECT term FROM chunks_fts_vocab WHERE term >= ? AND term < ? ORDER BY term LIMIT ?`).pluck(),
    documentChunkHashes: db.prepare(`SELECT c.id, c.hash FROM chunks c JOIN documents d ON d.id = c.document_id WHERE d.path = ?`),
  };
}

function readMeta(db: Database.Database, key: string): string | undefined {
  try {
    return db.prepare(`SELECT value FROM meta WHERE key = ?`).pluck().get(key) as string | undefined;
  } catch {
    return undefined; // no meta table yet
  }
}

function writeEmbedderMeta(db: Database.Database, embedder: EmbeddingModel, now: () => number): void {
  const set = db.prepare(SET_META);
  db.transaction(() => {
    set.run('schema_version', String(SCHEMA_VERSION));
    set.run('embedder_fingerprint', embedder.fingerprint);
    set.run('embedder_provider', embedder.provider);
    set.run('embedder_model', embedder.modelId);
    set.run('embedder_dimensions', String(embedder.dimensions));
    set.run('created_at', new Date(now()).toISOString());
  })();
}
