import type { VectorHit, VectorIndex, VectorIndexContext } from './vector-index-spec.js';
import { blobVector, vectorBlob } from './vector-blob.js';

/** `float`: exact cosine KNN by sqlite-vec over the float32 vectors in `chunks_vec`; nothing held in memory. */
export function createFloatIndex({ db }: VectorIndexContext): VectorIndex {
  const insert = db.prepare(`INSERT INTO chunks_vec (rowid, embedding) VALUES (?, ?)`);
  const remove = db.prepare(`DELETE FROM chunks_vec WHERE rowid = ?`);
  const knn = db.prepare(`SELECT rowid, distance FROM chunks_vec WHERE embedding MATCH ? AND k = ? ORDER BY distance`);
  // One point lookup per row: on vec0 a rowid IN (…) list scans the whole table.
  const distance = db.prepare(`SELECT vec_distance_cosine(embedding, ?) FROM chunks_vec WHERE rowid = ?`).pluck();
  const embedding = db.prepare(`SELECT embedding FROM chunks_vec WHERE rowid = ?`).pluck();
  return {
    kind: 'float',
    insert(rowid, vector) {
      insert.run(rowid, vectorBlob(vector));
    },
    remove(rowid) {
      remove.run(BigInt(rowid));
    },
    search(vector, limit): VectorHit[] {
      const rows = knn.all(vectorBlob(vector), limit) as { rowid: number; distance: number }[];
      return rows.map((row) => ({ rowid: Number(row.rowid), similarity: 1 - row.distance }));
    },
    similarities(vector, rowids) {
      const result = new Map<number, number>();
      const blob = vectorBlob(vector);
      for (const rowid of rowids) {
        const found = distance.get(blob, BigInt(rowid)) as number | undefined | null;
        if (found !== undefined && found !== null) result.set(rowid, 1 - found);
      }
      return result;
    },
    vectors(rowids) {
      const result = new Map<number, Float32Array>();
      for (const rowid of rowids) {
        const blob = embedding.get(BigInt(rowid)) as Buffer | undefined;
        if (blob) result.set(rowid, blobVector(blob));
      }
      return result;
    },
    changed() {},
  };
}
