import type Database from 'better-sqlite3';
import type { InListQueries } from './in-list.js';

/** What a vector index is (the interface every strategy implements); `vector-index.ts` picks one. */

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
