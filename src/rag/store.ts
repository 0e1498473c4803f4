import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { IndexError, InvalidInputError } from '../errors.js';
import type { CorpusStatistics, EmbeddingModel } from '../providers/spec.js';
import { codeToBlob, HammingIndex, signCode } from './binary-codes.js';
import type { Chunk } from './chunk.js';

/**
 * The index: one SQLite file holding documents, chunks, the vectors (a sqlite-vec `vec0` table,
 * cosine, or plain float32 BLOBs with 1-bit codes; see {@link VectorIndexKind}) and an FTS5 table
 * (porter). This module is the only place that writes SQL against it.
 */

/** Marks a SQLite file as a groundcheck index (`PRAGMA application_id`, "GCK1"). */
const APPLICATION_ID = 0x47434b31;
export const SCHEMA_VERSION = 3;

/**
 * How vector search runs (`OpenIndexOptions.vectorIndex`).
 *
 * - `float`: exact cosine KNN by sqlite-vec over float32 vectors. Nothing is held in memory; every
 *   query reads every vector, so time grows with rows × dimensions.
 * - `binary-rescore`: approximate. Each vector also gets a 1-bit sign code (dimensions / 8 bytes),
 *   all codes are held in memory and scanned by Hamming distance, and the `rescoreCandidates`
 *   nearest are re-scored by exact cosine from their float32 vectors, so the similarities it
 *   returns (and the relevance gate) are exact; only a true neighbour missing from the candidates
 *   is lost. For dense embedders (OpenAI-compatible): not for the offline hashed embedder, whose
 *   sparse vectors make poor sign codes.
 */
export type VectorIndexKind = 'float' | 'binary-rescore';

const VECTOR_INDEX_KINDS: readonly VectorIndexKind[] = ['float', 'binary-rescore'];

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
   * then exact cosine on the best candidates). See {@link VectorIndexKind} and the README
   * (Retrieval, Performance) for the measured trade-off. The kind is recorded in the index;
   * opening with another kind converts the index in place, in one transaction (its vectors are
   * kept, only where they are stored changes). [vectorIndex=the kind the index has; `float` for a new one]
   */
  vectorIndex?: VectorIndexKind;
  /**
   * `binary-rescore` only: how many Hamming-nearest candidates are re-scored exactly per search.
   * More means higher recall and slower queries. By default it grows with the index: the larger
   * of 8·k and 2% of the chunks, because the Hamming rank of a true neighbour grows with the
   * number of rows around it (on 384-d clustered vectors this held recall@8 at 0.95–0.97 from 10k
   * to 100k rows; README, Performance). [rescoreCandidates=max(8·k, 2% of chunks)]
   */
  rescoreCandidates?: number;
}

export interface StoredDocument {
  id: number;
  path: string;
  slug: string;
  title: string;
  updated: string | null;
  /** Hash of the document's source and of the chunking that produced its stored chunks (see `ingestDirectory`). */
  contentHash: string;
  chunkCount: number;
  /** The page the document was crawled from (then also its `path`); `null` for a document from a folder. */
  url: string | null;
}

/** What a crawl remembers of a page it stored, to re-crawl it incrementally. */
export interface PageSource {
  /** `https://docs.example.com`: the origin the page belongs to. */
  origin: string;
  /** `ETag` of the last fetch, sent back as `If-None-Match`. */
  etag: string | null;
  /** `Last-Modified` of the last fetch (the header as sent), sent back as `If-Modified-Since`. */
  lastModified: string | null;
  /** Links from the start page to this one when it was found. */
  depth: number;
  /** Extractor and chunking the stored chunks were made with; a 304 is trusted only while it is the current one. */
  processingKey: string;
  /** When the page was last fetched (ISO 8601). */
  fetchedAt: string;
}

/** A crawled document and its page source. */
export interface StoredPage extends StoredDocument, PageSource {
  url: string;
}

export interface StoredChunk {
  rowid: number;
  chunkId: string;
  documentSlug: string;
  documentPath: string;
  title: string;
  updated: string | null;
  section: string;
  text: string;
  modelText: string;
  hash: string;
  ordinal: number;
  /** The page the chunk's document was crawled from; `null` for a document from a folder. */
  url: string | null;
}

export interface VectorHit {
  rowid: number;
  /** Cosine similarity, 1 − cosine distance. */
  similarity: number;
}

export interface TextHit {
  rowid: number;
  /** FTS5 bm25(); lower (more negative) is better. */
  bm25: number;
}

/** Relative weights of the FTS5 columns in BM25 scoring. */
export interface TextFieldWeights {
  title: number;
  section: number;
  body: number;
}

export const DEFAULT_FIELD_WEIGHTS: TextFieldWeights = { title: 1, section: 2, body: 1 };

interface Migration {
  version: number;
  up(db: Database.Database, dimensions: number): void;
}

const MIGRATIONS: Migration[] = [
  {
    version: 1,
    up(db, dimensions) {
      db.exec(`
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE documents (
          id INTEGER PRIMARY KEY,
          path TEXT NOT NULL UNIQUE,
          slug TEXT NOT NULL UNIQUE,
          title TEXT NOT NULL,
          updated TEXT,
          content_hash TEXT NOT NULL,
          ingested_at TEXT NOT NULL
        );
        CREATE TABLE chunks (
          id INTEGER PRIMARY KEY,
          chunk_id TEXT NOT NULL UNIQUE,
          document_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
          ordinal INTEGER NOT NULL,
          section TEXT NOT NULL,
          text TEXT NOT NULL,
          model_text TEXT NOT NULL,
          hash TEXT NOT NULL,
          token_count INTEGER NOT NULL
        );
        CREATE INDEX chunks_document ON chunks(document_id);
        CREATE VIRTUAL TABLE chunks_fts USING fts5(
          title, section, body,
          content='', contentless_delete=1,
          tokenize='porter unicode61 remove_diacritics 2'
        );
        CREATE VIRTUAL TABLE chunks_fts_vocab USING fts5vocab(chunks_fts, 'row');
        CREATE VIRTUAL TABLE chunks_vec USING vec0(embedding float[${dimensions}] distance_metric=cosine);
      `);
    },
  },
  {
    // The binary-rescore vector index keeps vectors in plain rowid tables (point lookups by rowid
    // are fast there; on vec0 a rowid IN (…) list scans the whole table). Older groundcheck
    // versions would not maintain these tables, hence a schema version of its own.
    version: 2,
    up(db) {
      db.exec(`
        CREATE TABLE IF NOT EXISTS chunk_vectors (id INTEGER PRIMARY KEY, embedding BLOB NOT NULL);
        CREATE TABLE IF NOT EXISTS chunk_codes (id INTEGER PRIMARY KEY, code BLOB NOT NULL);
      `);
    },
  },
  {
    // Crawled pages (`groundcheck ingest <url>`): the document's path is its URL, and this row
    // holds what an incremental re-crawl needs. Documents from folders have none.
    version: 3,
    up(db) {
      db.exec(`
        CREATE TABLE IF NOT EXISTS page_sources (
          document_id INTEGER PRIMARY KEY REFERENCES documents(id) ON DELETE CASCADE,
          origin TEXT NOT NULL,
          etag TEXT,
          last_modified TEXT,
          depth INTEGER NOT NULL,
          processing_key TEXT NOT NULL,
          fetched_at TEXT NOT NULL
        );
        CREATE INDEX IF NOT EXISTS page_sources_origin ON page_sources(origin);
      `);
    },
  },
];

/**
 * Open (or create) an index file.
 *
 * @throws IndexError `not_found` (no file and `create: false`), `not_a_database`, `foreign_database`,
 *   `schema_too_new`, `embedder_mismatch` (says to re-ingest).
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
  private readonly statements: ReturnType<GroundcheckIndex['prepareStatements']>;
  /** Statements with an `IN (?, …)` list, by query and list length (see {@link inListRows}). */
  private readonly inListStatements = new Map<string, Database.Statement>();
  /** The vector index in use (recorded in the index meta as `vector_index`). */
  readonly vectorIndex: VectorIndexKind;
  private readonly rescoreCandidates: number | undefined;
  /** binary-rescore: the codes in memory, with the `data_version` they were read at; null = stale. */
  private hamming: { index: HammingIndex; dataVersion: number } | null = null;

  constructor(options: OpenIndexOptions) {
    // Plain-JavaScript callers get no type check: name what is missing instead of a TypeError deep inside.
    if (typeof options?.path !== 'string' || options.path === '') {
      throw new InvalidInputError('option path is required: the index file, e.g. openIndex({ path: ".groundcheck/index.db", embedder })', { code: 'invalid_option' });
    }
    if (typeof options.embedder?.embed !== 'function' || typeof options.embedder.fingerprint !== 'string') {
      throw new InvalidInputError('option embedder is required: createLocalEmbedder() for the offline default, or an OpenAI-compatible one (openai.embedding(...))', { code: 'invalid_option' });
    }
    this.path = options.path;
    this.embedder = options.embedder;
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
    this.rescoreCandidates = rescoreCandidates;
    const create = options.create ?? true;
    const exists = options.path !== ':memory:' && existsSync(options.path);
    if (!exists && !create && options.path !== ':memory:') {
      throw new IndexError('not_found', `no index at ${options.path}: run \`groundcheck ingest <folder> --db ${options.path}\` first`);
    }
    if (exists && statSync(options.path).isDirectory()) {
      throw new IndexError('not_a_database', `${options.path} is a folder, not an index file`);
    }
    if (!exists && options.path !== ':memory:') mkdirSync(dirname(options.path), { recursive: true });

    try {
      this.db = new Database(options.path);
      this.db.pragma('journal_mode = WAL');
    } catch (error) {
      throw new IndexError('not_a_database', `${options.path} is not a SQLite database (${(error as Error).message})`, { cause: error });
    }
    try {
      this.db.pragma('foreign_keys = ON');
      this.db.pragma('busy_timeout = 5000');
      // Vector search reads every vector on each query. Through SQLite's default 2 MB page cache
      // that is a read() per page; memory-mapping the file (address space, not heap: the OS
      // shares and reclaims the pages) made a 5k × 1,024-d search 1.5× faster and exact
      // similarity lookups 8× faster (README, Performance).
      this.db.pragma(`mmap_size = ${MMAP_BYTES}`);
      this.db.pragma(`cache_size = -${CACHE_KIB}`);
      sqliteVec.load(this.db);
      this.prepareSchema(options);
      this.vectorIndex = this.applyVectorIndex(options.vectorIndex);
    } catch (error) {
      this.db.close();
      throw error;
    }
    this.statements = this.prepareStatements();
    this.embedder.bindCorpusStatistics?.(this.corpusStatistics());
  }

  private prepareSchema(options: OpenIndexOptions): void {
    const applicationId = this.db.pragma('application_id', { simple: true }) as number;
    const userVersion = this.db.pragma('user_version', { simple: true }) as number;
    const tableCount = (this.db.prepare(`SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'`).get() as { n: number }).n;

    if (applicationId !== APPLICATION_ID) {
      if (tableCount > 0 || applicationId !== 0) {
        throw new IndexError(
          'foreign_database',
          `${options.path} is a SQLite database but not a groundcheck index; pass another --db path`,
        );
      }
      this.migrate(0, options.embedder.dimensions);
      this.db.pragma(`application_id = ${APPLICATION_ID}`);
      this.writeEmbedderMeta();
      return;
    }
    if (userVersion > SCHEMA_VERSION) {
      throw new IndexError(
        'schema_too_new',
        `${options.path} was written by a newer groundcheck (schema ${userVersion}, this one knows ${SCHEMA_VERSION}); upgrade groundcheck`,
      );
    }
    const storedFingerprint = this.getMeta('embedder_fingerprint');
    if (storedFingerprint !== options.embedder.fingerprint) {
      if (options.rebuild) {
        this.resetForEmbedder(options.embedder.dimensions);
        return;
      }
      throw new IndexError(
        'embedder_mismatch',
        `${options.path} was built with embedder "${storedFingerprint ?? 'unknown'}" but this run uses ` +
          `"${options.embedder.fingerprint}"; re-ingest with the current embedder ` +
          `(groundcheck ingest <folder> --db ${options.path} --rebuild) or configure the embedder that built it`,
      );
    }
    if (userVersion < SCHEMA_VERSION) this.migrate(userVersion, options.embedder.dimensions);
  }

  private migrate(fromVersion: number, dimensions: number): void {
    const pending = MIGRATIONS.filter((migration) => migration.version > fromVersion);
    this.db.transaction(() => {
      for (const migration of pending) {
        migration.up(this.db, dimensions);
        this.db.pragma(`user_version = ${migration.version}`);
      }
    })();
  }

  private resetForEmbedder(dimensions: number): void {
    this.db.transaction(() => {
      this.db.exec(`
        DROP TABLE IF EXISTS chunks_vec;
        DROP TABLE IF EXISTS chunk_vectors;
        DROP TABLE IF EXISTS chunk_codes;
        DROP TABLE IF EXISTS chunks_fts_vocab;
        DROP TABLE IF EXISTS chunks_fts;
        DROP TABLE IF EXISTS chunks;
        DROP TABLE IF EXISTS page_sources;
        DROP TABLE IF EXISTS documents;
        DROP TABLE IF EXISTS meta;
      `);
      this.db.pragma('user_version = 0');
    })();
    this.migrate(0, dimensions);
    this.writeEmbedderMeta();
  }

  /**
   * Resolve the vector index kind (the option, else what the index records, else `float`) and
   * convert the stored vectors when it differs from what the index holds.
   */
  private applyVectorIndex(wanted: VectorIndexKind | undefined): VectorIndexKind {
    const stored = (this.getMeta('vector_index') as VectorIndexKind | undefined) ?? 'float';
    const kind = wanted ?? stored;
    if (kind === stored && this.getMeta('vector_index') !== undefined) return kind;
    this.db.transaction(() => {
      if (kind !== stored) this.convertVectors(stored, kind);
      this.db.prepare(SET_META).run('vector_index', kind);
    })();
    return kind;
  }

  /** Move every vector to where `to` keeps them. Runs inside the caller's transaction. */
  private convertVectors(from: VectorIndexKind, to: VectorIndexKind): void {
    const dimensions = this.embedder.dimensions;
    if (from === 'float' && to === 'binary-rescore') {
      this.db.exec(`INSERT INTO chunk_vectors (id, embedding) SELECT rowid, embedding FROM chunks_vec`);
      // Codes computed in pages (a statement cannot write while another one is still reading).
      const page = this.db.prepare(`SELECT id, embedding FROM chunk_vectors WHERE id > ? ORDER BY id LIMIT 1000`);
      const insertCode = this.db.prepare(`INSERT INTO chunk_codes (id, code) VALUES (?, ?)`);
      for (let after = -1; ; ) {
        const rows = page.all(after) as { id: number; embedding: Buffer }[];
        if (rows.length === 0) break;
        for (const row of rows) insertCode.run(row.id, codeToBlob(signCode(blobVector(row.embedding))));
        after = rows[rows.length - 1]!.id;
      }
      // Recreated empty rather than emptied row by row: a vec0 DELETE per row is slow.
      this.db.exec(`DROP TABLE chunks_vec; CREATE VIRTUAL TABLE chunks_vec USING vec0(embedding float[${dimensions}] distance_metric=cosine);`);
    } else if (from === 'binary-rescore' && to === 'float') {
      this.db.exec(`INSERT INTO chunks_vec (rowid, embedding) SELECT id, embedding FROM chunk_vectors; DELETE FROM chunk_vectors; DELETE FROM chunk_codes;`);
    }
  }

  private writeEmbedderMeta(): void {
    const set = this.db.prepare(SET_META);
    this.db.transaction(() => {
      set.run('schema_version', String(SCHEMA_VERSION));
      set.run('embedder_fingerprint', this.embedder.fingerprint);
      set.run('embedder_provider', this.embedder.provider);
      set.run('embedder_model', this.embedder.modelId);
      set.run('embedder_dimensions', String(this.embedder.dimensions));
      set.run('created_at', new Date().toISOString());
    })();
  }

  private prepareStatements() {
    const db = this.db;
    return {
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
      documentRowids: db.prepare(`SELECT id FROM chunks WHERE document_id = ?`).pluck(),
      deleteDocument: db.prepare(`DELETE FROM documents WHERE id = ?`),
      insertChunk: db.prepare(`
        INSERT INTO chunks (chunk_id, document_id, ordinal, section, text, model_text, hash, token_count)
        VALUES (@chunkId, @documentId, @ordinal, @section, @text, @modelText, @hash, @tokenCount)`),
      insertFts: db.prepare(`INSERT INTO chunks_fts (rowid, title, section, body) VALUES (?, ?, ?, ?)`),
      deleteFts: db.prepare(`DELETE FROM chunks_fts WHERE rowid = ?`),
      insertVec: db.prepare(`INSERT INTO chunks_vec (rowid, embedding) VALUES (?, ?)`),
      deleteVec: db.prepare(`DELETE FROM chunks_vec WHERE rowid = ?`),
      insertPlainVector: db.prepare(`INSERT INTO chunk_vectors (id, embedding) VALUES (?, ?)`),
      insertCode: db.prepare(`INSERT INTO chunk_codes (id, code) VALUES (?, ?)`),
      deletePlainVector: db.prepare(`DELETE FROM chunk_vectors WHERE id = ?`),
      deleteCode: db.prepare(`DELETE FROM chunk_codes WHERE id = ?`),
      allCodes: db.prepare(`SELECT id, code FROM chunk_codes ORDER BY id`),
      // One point lookup per row: on vec0 a rowid IN (…) list scans the whole table.
      vecDistance: db.prepare(`SELECT vec_distance_cosine(embedding, ?) FROM chunks_vec WHERE rowid = ?`).pluck(),
      knn: db.prepare(`SELECT rowid, distance FROM chunks_vec WHERE embedding MATCH ? AND k = ? ORDER BY distance`),
      textSearch: db.prepare(`SELECT rowid, bm25(chunks_fts, ?, ?, ?) AS score FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY score LIMIT ?`),
      // Changes when another connection commits; this connection's own writes reset `hamming` instead.
      dataVersion: db.prepare(`PRAGMA data_version`).pluck(),
      chunkCount: db.prepare(`SELECT count(*) FROM chunks`).pluck(),
      chunkById: db.prepare(`${CHUNK_SELECT} WHERE c.chunk_id = ?`),
      allChunkHashes: db.prepare(`SELECT chunk_id AS chunkId, hash FROM chunks`),
      documentChunkHashes: db.prepare(`SELECT c.id, c.hash FROM chunks c JOIN documents d ON d.id = c.document_id WHERE d.path = ?`),
      vecEmbedding: db.prepare(`SELECT embedding FROM chunks_vec WHERE rowid = ?`).pluck(),
      plainEmbedding: db.prepare(`SELECT embedding FROM chunk_vectors WHERE id = ?`).pluck(),
    };
  }

  getMeta(key: string): string | undefined {
    try {
      return this.db.prepare(`SELECT value FROM meta WHERE key = ?`).pluck().get(key) as string | undefined;
    } catch {
      return undefined; // no meta table yet
    }
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
      const documentId = Number(
        this.statements.insertDocument.run({ ...document, ingestedAt: new Date().toISOString() }).lastInsertRowid,
      );
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
        this.statements.insertFts.run(rowid, chunk.title, chunk.section, chunk.text);
        this.insertVector(rowid, vectors[index]!);
      });
      if (page) {
        const { origin, etag, lastModified, depth, processingKey, fetchedAt } = page;
        this.statements.insertPageSource.run({ documentId, origin, etag, lastModified, depth, processingKey, fetchedAt });
      }
    })();
    this.hamming = null;
  }

  private insertVector(rowid: bigint, vector: Float32Array): void {
    if (this.vectorIndex === 'float') {
      this.statements.insertVec.run(rowid, vectorBlob(vector));
    } else {
      this.statements.insertPlainVector.run(rowid, vectorBlob(vector));
      this.statements.insertCode.run(rowid, codeToBlob(signCode(vector)));
    }
  }

  /** Remove a document and everything derived from it. */
  removeDocument(path: string): boolean {
    const existing = this.statements.documentByPath.get(path) as { id: number } | undefined;
    if (!existing) return false;
    this.db.transaction(() => this.removeDocumentById(existing.id))();
    this.hamming = null;
    return true;
  }

  private removeDocumentById(documentId: number): void {
    const rowids = this.statements.documentRowids.all(documentId) as number[];
    for (const rowid of rowids) {
      this.statements.deleteFts.run(BigInt(rowid));
      if (this.vectorIndex === 'float') {
        this.statements.deleteVec.run(BigInt(rowid));
      } else {
        this.statements.deletePlainVector.run(rowid);
        this.statements.deleteCode.run(rowid);
      }
    }
    this.statements.deleteDocument.run(documentId);
  }

  /**
   * Nearest chunks by cosine similarity, best first: exact sqlite-vec KNN for the `float` vector
   * index; Hamming-nearest sign codes re-scored by exact cosine for `binary-rescore`.
   */
  vectorSearch(vector: Float32Array, k: number): VectorHit[] {
    this.checkDimensions(vector);
    const limit = Math.max(1, Math.min(4096, Math.floor(k)));
    if (this.vectorIndex === 'binary-rescore') {
      const codes = this.hammingIndex();
      const rescore = this.rescoreCandidates ?? Math.max(8 * limit, Math.ceil(0.02 * codes.count));
      const candidates = codes.nearest(signCode(vector), Math.max(limit, rescore));
      const exact = [...this.similarities(vector, candidates)].map(([rowid, similarity]) => ({ rowid, similarity }));
      return exact.sort((a, b) => b.similarity - a.similarity || a.rowid - b.rowid).slice(0, limit);
    }
    const rows = this.statements.knn.all(vectorBlob(vector), limit) as { rowid: number; distance: number }[];
    return rows.map((row) => ({ rowid: Number(row.rowid), similarity: 1 - row.distance }));
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
    const result = new Map<number, number>();
    if (rowids.length === 0) return result;
    this.checkDimensions(vector);
    const blob = vectorBlob(vector);
    if (this.vectorIndex === 'float') {
      for (const rowid of rowids) {
        const distance = this.statements.vecDistance.get(blob, BigInt(rowid)) as number | undefined;
        if (distance !== undefined && distance !== null) result.set(rowid, 1 - distance);
      }
      return result;
    }
    const rows = this.inListRows<{ id: number; distance: number }>(
      'vectors',
      (list) => `SELECT id, vec_distance_cosine(embedding, ?) AS distance FROM chunk_vectors WHERE id IN (${list})`,
      rowids,
      [blob],
    );
    for (const row of rows) result.set(row.id, 1 - row.distance);
    return result;
  }

  /**
   * binary-rescore: the codes in memory. Reloaded after this connection writes, and when another
   * connection (an ingest in another process) has committed since they were read.
   */
  private hammingIndex(): HammingIndex {
    const dataVersion = this.statements.dataVersion.get() as number;
    if (this.hamming && this.hamming.dataVersion === dataVersion) return this.hamming.index;
    const index = new HammingIndex(this.embedder.dimensions, this.chunkCount());
    for (const row of this.statements.allCodes.iterate() as Iterable<{ id: number; code: Buffer }>) index.add(row.id, row.code);
    this.hamming = { index, dataVersion };
    return index;
  }

  /** Chunk rows by rowid, in the order asked. Unknown rowids are skipped. */
  getChunks(rowids: readonly number[]): StoredChunk[] {
    if (rowids.length === 0) return [];
    const rows = this.inListRows<StoredChunk>('chunks', (list) => `${CHUNK_SELECT} WHERE c.id IN (${list})`, rowids);
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
    const vectors = new Map<string, Float32Array>();
    const embedding = this.vectorIndex === 'float' ? this.statements.vecEmbedding : this.statements.plainEmbedding;
    for (const path of new Set(paths)) {
      for (const row of this.statements.documentChunkHashes.all(path) as { id: number; hash: string }[]) {
        if (vectors.has(row.hash)) continue;
        const blob = embedding.get(BigInt(row.id)) as Buffer | undefined;
        if (blob) vectors.set(row.hash, blobVector(blob));
      }
    }
    return vectors;
  }

  /** Statistics from the FTS5 vocabulary, handed to embedders that weight terms by IDF. */
  corpusStatistics(): CorpusStatistics {
    return {
      documentCount: () => this.chunkCount(),
      documentFrequencies: (terms) => {
        const rows = this.inListRows<{ term: string; doc: number }>(
          'vocabulary',
          (list) => `SELECT term, doc FROM chunks_fts_vocab WHERE term IN (${list})`,
          [...new Set(terms)],
        );
        return new Map(rows.map((row) => [row.term, row.doc]));
      },
    };
  }

  /**
   * Rows of `sql(list)` for every value, queried in batches of up to 500 values bound into the
   * `IN (list)` placeholders (after any `leading` parameters). Each batch length gets its statement
   * prepared once per connection, not on every search.
   */
  private inListRows<Row>(query: string, sql: (list: string) => string, values: readonly (number | string)[], leading: readonly unknown[] = []): Row[] {
    const rows: Row[] = [];
    for (let start = 0; start < values.length; start += IN_LIST_BATCH) {
      const batch = values.slice(start, start + IN_LIST_BATCH);
      const key = `${query}:${batch.length}`;
      let statement = this.inListStatements.get(key);
      if (!statement) {
        statement = this.db.prepare(sql(batch.map(() => '?').join(',')));
        this.inListStatements.set(key, statement);
      }
      rows.push(...(statement.all(...leading, ...batch) as Row[]));
    }
    return rows;
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

/** Values bound per `IN (…)` statement; well under SQLite's limit of 32,766 parameters. */
const IN_LIST_BATCH = 500;

const SET_META = `INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`;

const CHUNK_SELECT = `
  SELECT c.id AS rowid, c.chunk_id AS chunkId, d.slug AS documentSlug, d.path AS documentPath, d.title,
         d.updated, c.section, c.text, c.model_text AS modelText, c.hash, c.ordinal,
         CASE WHEN s.document_id IS NULL THEN NULL ELSE d.path END AS url
  FROM chunks c JOIN documents d ON d.id = c.document_id LEFT JOIN page_sources s ON s.document_id = d.id`;

function blobVector(blob: Buffer): Float32Array {
  return new Float32Array(blob.buffer.slice(blob.byteOffset, blob.byteOffset + blob.byteLength));
}

function vectorBlob(vector: Float32Array): Buffer {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
}
