import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { IndexError } from '../errors.js';
import type { CorpusStatistics, EmbeddingModel } from '../providers/spec.js';
import type { Chunk } from './chunk.js';

/**
 * The index: one SQLite file holding documents, chunks, a sqlite-vec `vec0` table (cosine) and an
 * FTS5 table (porter). This module is the only place that writes SQL against it.
 */

/** Marks a SQLite file as a groundcheck index (`PRAGMA application_id`, "GCK1"). */
const APPLICATION_ID = 0x47434b31;
export const SCHEMA_VERSION = 1;

export interface OpenIndexOptions {
  /** Path of the SQLite file. Parent folders are created when `create` is true. */
  path: string;
  /** The embedder queries and ingests will use; must match the one that built the index. */
  embedder: EmbeddingModel;
  /** Create the file when it does not exist. [create=true] */
  create?: boolean;
  /** When the index was built by another embedder, wipe it instead of failing. [rebuild=false] */
  rebuild?: boolean;
}

export interface StoredDocument {
  id: number;
  path: string;
  slug: string;
  title: string;
  updated: string | null;
  contentHash: string;
  chunkCount: number;
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
];

/**
 * Open (or create) an index file.
 *
 * @throws IndexError `not_found` (no file and `create: false`), `not_a_database`, `foreign_database`,
 *   `schema_too_new`, `embedder_mismatch` (says to re-ingest).
 * @example
 * const index = openIndex({ path: '.groundcheck/index.db', embedder: createLocalEmbedder() });
 */
export function openIndex(options: OpenIndexOptions): GroundcheckIndex {
  return new GroundcheckIndex(options);
}

export class GroundcheckIndex {
  readonly path: string;
  readonly embedder: EmbeddingModel;
  readonly db: Database.Database;
  private readonly statements: ReturnType<GroundcheckIndex['prepareStatements']>;
  private readonly vocabularyStatements = new Map<number, Database.Statement>();
  private readonly similarityStatements = new Map<number, Database.Statement>();

  constructor(options: OpenIndexOptions) {
    this.path = options.path;
    this.embedder = options.embedder;
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
      sqliteVec.load(this.db);
      this.prepareSchema(options);
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
        DROP TABLE IF EXISTS chunks_fts_vocab;
        DROP TABLE IF EXISTS chunks_fts;
        DROP TABLE IF EXISTS chunks;
        DROP TABLE IF EXISTS documents;
        DROP TABLE IF EXISTS meta;
      `);
      this.db.pragma('user_version = 0');
    })();
    this.migrate(0, dimensions);
    this.writeEmbedderMeta();
  }

  private writeEmbedderMeta(): void {
    const set = this.db.prepare(`INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`);
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
               (SELECT count(*) FROM chunks c WHERE c.document_id = d.id) AS chunkCount
        FROM documents d ORDER BY d.path`),
      insertDocument: db.prepare(`
        INSERT INTO documents (path, slug, title, updated, content_hash, ingested_at)
        VALUES (@path, @slug, @title, @updated, @contentHash, @ingestedAt)`),
      documentRowids: db.prepare(`SELECT id FROM chunks WHERE document_id = ?`).pluck(),
      deleteDocument: db.prepare(`DELETE FROM documents WHERE id = ?`),
      insertChunk: db.prepare(`
        INSERT INTO chunks (chunk_id, document_id, ordinal, section, text, model_text, hash, token_count)
        VALUES (@chunkId, @documentId, @ordinal, @section, @text, @modelText, @hash, @tokenCount)`),
      insertFts: db.prepare(`INSERT INTO chunks_fts (rowid, title, section, body) VALUES (?, ?, ?, ?)`),
      deleteFts: db.prepare(`DELETE FROM chunks_fts WHERE rowid = ?`),
      insertVec: db.prepare(`INSERT INTO chunks_vec (rowid, embedding) VALUES (?, ?)`),
      deleteVec: db.prepare(`DELETE FROM chunks_vec WHERE rowid = ?`),
      knn: db.prepare(`SELECT rowid, distance FROM chunks_vec WHERE embedding MATCH ? AND k = ? ORDER BY distance`),
      chunkCount: db.prepare(`SELECT count(*) FROM chunks`).pluck(),
      chunkById: db.prepare(`${CHUNK_SELECT} WHERE c.chunk_id = ?`),
      allChunkHashes: db.prepare(`SELECT chunk_id AS chunkId, hash FROM chunks`),
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

  /** Number of chunks in the index. */
  chunkCount(): number {
    return this.statements.chunkCount.get() as number;
  }

  /**
   * Insert a document with its chunks and their vectors (one per chunk, same order), replacing any
   * document at the same path, in one transaction.
   */
  putDocument(
    document: { path: string; slug: string; title: string; updated: string | null; contentHash: string },
    chunks: Chunk[],
    vectors: Float32Array[],
  ): void {
    if (vectors.length !== chunks.length) throw new Error(`putDocument: ${chunks.length} chunks but ${vectors.length} vectors`);
    for (const vector of vectors) this.checkDimensions(vector);
    this.db.transaction(() => {
      const existing = this.listDocuments().find((stored) => stored.path === document.path || stored.slug === document.slug);
      if (existing) this.removeDocumentById(existing.id);
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
        this.statements.insertVec.run(rowid, vectorBlob(vectors[index]!));
      });
    })();
  }

  /** Remove a document and everything derived from it. */
  removeDocument(path: string): boolean {
    const existing = this.listDocuments().find((stored) => stored.path === path);
    if (!existing) return false;
    this.db.transaction(() => this.removeDocumentById(existing.id))();
    return true;
  }

  private removeDocumentById(documentId: number): void {
    const rowids = this.statements.documentRowids.all(documentId) as number[];
    for (const rowid of rowids) {
      this.statements.deleteFts.run(BigInt(rowid));
      this.statements.deleteVec.run(BigInt(rowid));
    }
    this.statements.deleteDocument.run(documentId);
  }

  /** Nearest chunks by cosine similarity (sqlite-vec KNN). */
  vectorSearch(vector: Float32Array, k: number): VectorHit[] {
    this.checkDimensions(vector);
    const limit = Math.max(1, Math.min(4096, Math.floor(k)));
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
    const rows = this.db
      .prepare(
        `SELECT rowid, bm25(chunks_fts, ?, ?, ?) AS score FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY score LIMIT ?`,
      )
      .all(weights.title, weights.section, weights.body, matchExpression, limit) as { rowid: number; score: number }[];
    return rows.map((row) => ({ rowid: Number(row.rowid), bm25: row.score }));
  }

  /** Cosine similarity between `vector` and each listed chunk (for chunks found by text only). */
  similarities(vector: Float32Array, rowids: readonly number[]): Map<number, number> {
    const result = new Map<number, number>();
    if (rowids.length === 0) return result;
    this.checkDimensions(vector);
    let statement = this.similarityStatements.get(rowids.length);
    if (!statement) {
      statement = this.db.prepare(
        `SELECT rowid, vec_distance_cosine(embedding, ?) AS distance FROM chunks_vec WHERE rowid IN (${rowids.map(() => '?').join(',')})`,
      );
      this.similarityStatements.set(rowids.length, statement);
    }
    const rows = statement.all(vectorBlob(vector), ...rowids.map((rowid) => BigInt(rowid))) as { rowid: number; distance: number }[];
    for (const row of rows) result.set(Number(row.rowid), 1 - row.distance);
    return result;
  }

  /** Chunk rows by rowid, in the order asked. Unknown rowids are skipped. */
  getChunks(rowids: readonly number[]): StoredChunk[] {
    if (rowids.length === 0) return [];
    const rows = this.db.prepare(`${CHUNK_SELECT} WHERE c.id IN (${rowids.map(() => '?').join(',')})`).all(...rowids) as StoredChunk[];
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

  /** Statistics from the FTS5 vocabulary, handed to embedders that weight terms by IDF. */
  corpusStatistics(): CorpusStatistics {
    return {
      documentCount: () => this.chunkCount(),
      documentFrequencies: (terms) => {
        const result = new Map<string, number>();
        const unique = [...new Set(terms)];
        for (let start = 0; start < unique.length; start += 200) {
          const batch = unique.slice(start, start + 200);
          let statement = this.vocabularyStatements.get(batch.length);
          if (!statement) {
            statement = this.db.prepare(
              `SELECT term, doc FROM chunks_fts_vocab WHERE term IN (${batch.map(() => '?').join(',')})`,
            );
            this.vocabularyStatements.set(batch.length, statement);
          }
          for (const row of statement.all(...batch) as { term: string; doc: number }[]) result.set(row.term, row.doc);
        }
        return result;
      },
    };
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

const CHUNK_SELECT = `
  SELECT c.id AS rowid, c.chunk_id AS chunkId, d.slug AS documentSlug, d.path AS documentPath, d.title,
         d.updated, c.section, c.text, c.model_text AS modelText, c.hash, c.ordinal
  FROM chunks c JOIN documents d ON d.id = c.document_id`;

function vectorBlob(vector: Float32Array): Buffer {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
}
