import type Database from 'better-sqlite3';
import { codeToBlob, signCode } from './binary-codes.js';
import { createBinaryRescoreIndex } from './vector-binary-rescore.js';
import { createFloatIndex } from './vector-float.js';
import type { VectorIndex, VectorIndexContext, VectorIndexKind } from './vector-index-spec.js';
import { blobVector } from './vector-blob.js';

export { VECTOR_INDEX_KINDS, type VectorHit, type VectorIndex, type VectorIndexContext, type VectorIndexKind } from './vector-index-spec.js';

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
