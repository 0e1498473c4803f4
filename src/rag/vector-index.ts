import type Database from 'better-sqlite3';
import { codeToBlob, signCode } from './binary-codes.js';
import { createBinaryRescoreIndex } from './vector-binary-rescore.js';
import { createFloatIndex } from './vector-float.js';
import type { InListQueries } from './in-list.js';
import { blobVector } from './vector-blob.js';

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

export const VECTOR_INDEX_KINDS: readonly VectorIndexKind[] = ['float', 'binary-rescore'];

export interface VectorHit {
  rowid: number;
  /** Cosine similarity, 1 − cosine distance. */
  similarity: number;
}

/**
 * One way of storing and searching the chunk vectors: the index holds one of these, chosen by
 * `vectorIndex`, and never asks which kind it is. Writes run inside the index's transactions.
 */
export interface VectorIndex {
  readonly kind: VectorIndexKind;
  insert(rowid: bigint, vector: Float32Array): void;
  remove(rowid: number): void;
  /** Nearest rows by cosine similarity, best first, at most `limit`. */
  search(vector: Float32Array, limit: number): VectorHit[];
  /** Exact cosine similarity between `vector` and each listed row. Unknown rowids are skipped. */
  similarities(vector: Float32Array, rowids: readonly number[]): Map<number, number>;
  /** The stored vectors of the listed rows (for reuse at re-ingest). Unknown rowids are skipped. */
  vectors(rowids: readonly number[]): Map<number, Float32Array>;
  /** This connection changed the vectors: drop anything read from them. */
  changed(): void;
}

/** What a vector index reads and writes through: the index's connection and helpers. */
export interface VectorIndexContext {
  db: Database.Database;
  dimensions: number;
  inList: InListQueries;
  chunkCount(): number;
  /** binary-rescore: candidates re-scored per search; default max(8·k, 2% of the chunks). */
  rescoreCandidates: number | undefined;
}

/** The vector index of `kind` over the index's tables. */
export function createVectorIndex(kind: VectorIndexKind, context: VectorIndexContext): VectorIndex {
  return kind === 'float' ? createFloatIndex(context) : createBinaryRescoreIndex(context);
}

/**
 * Move every vector from where `from` keeps them to where `to` does. Runs inside the caller's
 * transaction. The one place that knows both layouts: `float` keeps vectors in the `chunks_vec`
 * vec0 table, `binary-rescore` in `chunk_vectors` with their sign codes in `chunk_codes`.
 */
export function convertVectors(db: Database.Database, from: VectorIndexKind, to: VectorIndexKind, dimensions: number): void {
  if (from === 'float' && to === 'binary-rescore') {
    db.exec(`INSERT INTO chunk_vectors (id, embedding) SELECT rowid, embedding FROM chunks_vec`);
    // Codes computed in pages (a statement cannot write while another one is still reading).
    const page = db.prepare(`SELECT id, embedding FROM chunk_vectors WHERE id > ? ORDER BY id LIMIT 1000`);
    const insertCode = db.prepare(`INSERT INTO chunk_codes (id, code) VALUES (?, ?)`);
    for (let after = -1; ; ) {
      const rows = page.all(after) as { id: number; embedding: Buffer }[];
      if (rows.length === 0) break;
      for (const row of rows) insertCode.run(row.id, codeToBlob(signCode(blobVector(row.embedding))));
      after = rows[rows.length - 1]!.id;
    }
    // Recreated empty rather than emptied row by row: a vec0 DELETE per row is slow.
    db.exec(`DROP TABLE chunks_vec; CREATE VIRTUAL TABLE chunks_vec USING vec0(embedding float[${dimensions}] distance_metric=cosine);`);
  } else if (from === 'binary-rescore' && to === 'float') {
    db.exec(`INSERT INTO chunks_vec (rowid, embedding) SELECT id, embedding FROM chunk_vectors; DELETE FROM chunk_vectors; DELETE FROM chunk_codes;`);
  }
}
