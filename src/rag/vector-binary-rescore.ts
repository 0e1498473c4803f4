import { codeToBlob, HammingIndex, signCode } from './binary-codes.js';
import type { VectorHit, VectorIndex, VectorIndexContext } from './vector-index-spec.js';
import { blobVector, vectorBlob } from './vector-blob.js';

/**
 * `binary-rescore`: a 1-bit sign code per vector (`chunk_codes`), all held in memory and scanned by
 * Hamming distance; the best candidates re-scored by exact cosine from their float32 vectors
 * (`chunk_vectors`, a plain rowid table: point lookups there are fast, unlike on vec0).
 */
export function createBinaryRescoreIndex(context: VectorIndexContext): VectorIndex {
  const { db, dimensions, inList } = context;
  const insertVector = db.prepare(`INSERT INTO chunk_vectors (id, embedding) VALUES (?, ?)`);
  const insertCode = db.prepare(`INSERT INTO chunk_codes (id, code) VALUES (?, ?)`);
  const deleteVector = db.prepare(`DELETE FROM chunk_vectors WHERE id = ?`);
  const deleteCode = db.prepare(`DELETE FROM chunk_codes WHERE id = ?`);
  const allCodes = db.prepare(`SELECT id, code FROM chunk_codes ORDER BY id`);
  // Changes when another connection commits; this connection's own writes call changed() instead.
  const dataVersion = db.prepare(`PRAGMA data_version`).pluck();
  /** The codes in memory, with the `data_version` they were read at; null = stale. */
  let hamming: { index: HammingIndex; dataVersion: number } | null = null;

  /** Reloaded after this connection writes, and when another connection (an ingest in another process) has committed since they were read. */
  function codes(): HammingIndex {
    const version = dataVersion.get() as number;
    if (hamming && hamming.dataVersion === version) return hamming.index;
    const index = new HammingIndex(dimensions, context.chunkCount());
    for (const row of allCodes.iterate() as Iterable<{ id: number; code: Buffer }>) index.add(row.id, row.code);
    hamming = { index, dataVersion: version };
    return index;
  }

  const vectorIndex: VectorIndex = {
    kind: 'binary-rescore',
    insert(rowid, vector) {
      insertVector.run(rowid, vectorBlob(vector));
      insertCode.run(rowid, codeToBlob(signCode(vector)));
    },
    remove(rowid) {
      deleteVector.run(rowid);
      deleteCode.run(rowid);
    },
    search(vector, limit): VectorHit[] {
      const index = codes();
      const rescore = context.rescoreCandidates ?? Math.max(8 * limit, Math.ceil(0.02 * index.count));
      const candidates = index.nearest(signCode(vector), Math.max(limit, rescore));
      const exact = [...vectorIndex.similarities(vector, candidates)].map(([rowid, similarity]) => ({ rowid, similarity }));
      return exact.sort((a, b) => b.similarity - a.similarity || a.rowid - b.rowid).slice(0, limit);
    },
    similarities(vector, rowids) {
      const result = new Map<number, number>();
      const rows = inList.rows<{ id: number; distance: number }>(
        'vectors',
        (list) => `SELECT id, vec_distance_cosine(embedding, ?) AS distance FROM chunk_vectors WHERE id IN (${list})`,
        rowids,
        [vectorBlob(vector)],
      );
      for (const row of rows) result.set(row.id, 1 - row.distance);
      return result;
    },
    vectors(rowids) {
      const rows = inList.rows<{ id: number; embedding: Buffer }>('stored-vectors', (list) => `SELECT id, embedding FROM chunk_vectors WHERE id IN (${list})`, rowids);
      return new Map(rows.map((row) => [row.id, blobVector(row.embedding)]));
    },
    changed() {
      hamming = null;
    },
  };
  return vectorIndex;
}
