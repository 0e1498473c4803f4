import type { SqliteMigration } from '../sqlite/open.js';

/**
 * The index file's schema, one migration per version (`PRAGMA user_version`), applied by
 * `openSqlite` (kind `index`) when `store.ts` opens the file: all pending ones in one transaction.
 * To change the schema, append a migration; never edit one that has shipped.
 */

/** What the migrations need to know: the embedder's vector length. */
export interface IndexSchemaContext {
  dimensions: number;
}

export const INDEX_MIGRATIONS: readonly SqliteMigration<IndexSchemaContext>[] = [
  {
    version: 1,
    up(db, { dimensions }) {
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
    up: `
      CREATE TABLE IF NOT EXISTS chunk_vectors (id INTEGER PRIMARY KEY, embedding BLOB NOT NULL);
      CREATE TABLE IF NOT EXISTS chunk_codes (id INTEGER PRIMARY KEY, code BLOB NOT NULL);
    `,
  },
  {
    // Crawled pages (`groundcheck ingest <url>`): the document's path is its URL, and this row
    // holds what an incremental re-crawl needs. Documents from folders have none.
    version: 3,
    up: `
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
    `,
  },
  {
    // The full-text index reads its content from the chunks (external content) instead of keeping
    // none. A contentless-delete table drops a deleted row's terms but not its share of the
    // statistics BM25 normalises by (the row count and the column lengths in its `averages`
    // record), so every re-ingest of a document made BM25, and so retrieval, answers and
    // judgments, depend on the index's history: a re-chunked handbook index counted 334 rows for
    // 167 chunks. Deletes now pass the indexed values with the FTS5 'delete' command, and the
    // rebuild below recomputes the statistics of existing files from the chunks.
    version: 4,
    up: `
      DROP TABLE IF EXISTS chunks_fts_vocab;
      DROP TABLE IF EXISTS chunks_fts;
      DROP VIEW IF EXISTS chunks_fts_source;
      CREATE VIEW chunks_fts_source AS
        SELECT c.id AS id, d.title AS title, c.section AS section, c.text AS body
        FROM chunks c JOIN documents d ON d.id = c.document_id;
      CREATE VIRTUAL TABLE chunks_fts USING fts5(
        title, section, body,
        content='chunks_fts_source', content_rowid='id',
        tokenize='porter unicode61 remove_diacritics 2'
      );
      CREATE VIRTUAL TABLE chunks_fts_vocab USING fts5vocab(chunks_fts, 'row');
      INSERT INTO chunks_fts(chunks_fts) VALUES('rebuild');
    `,
  },
];

/** The schema version this code writes. */
export const SCHEMA_VERSION = INDEX_MIGRATIONS.at(-1)!.version;

/** Every table the migrations create, dropped (virtual tables first) when an index is rebuilt for another embedder. */
export const INDEX_TABLES = ['chunks_vec', 'chunk_vectors', 'chunk_codes', 'chunks_fts_vocab', 'chunks_fts', 'chunks', 'page_sources', 'documents', 'meta'] as const;

/** Every view the migrations create, dropped with the tables. */
export const INDEX_VIEWS = ['chunks_fts_source'] as const;

export const SET_META = `INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`;

/** A chunk row with its document's fields, named as `StoredChunk`'s. */
export const CHUNK_SELECT = `
  SELECT c.id AS rowid, c.chunk_id AS chunkId, d.slug AS documentSlug, d.path AS documentPath, d.title,
         d.updated, c.section, c.text, c.model_text AS modelText, c.hash, c.ordinal,
         CASE WHEN s.document_id IS NULL THEN NULL ELSE d.path END AS url
  FROM chunks c JOIN documents d ON d.id = c.document_id LEFT JOIN page_sources s ON s.document_id = d.id`;
