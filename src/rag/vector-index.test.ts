import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../test-support/fixtures.js';
import { MockEmbeddingModel } from '../testing/index.js';
import { HammingIndex, signCode, codeToBlob } from './binary-codes.js';
import { chunkDocument, parseDocument } from './chunk.js';
import { openIndex, SCHEMA_VERSION, type GroundcheckIndex } from './store.js';

const DIMENSIONS = 48;

/** Deterministic pseudo-random unit vectors (a small LCG), so every run sees the same data. */
function vectors(count: number, seed: number): Float32Array[] {
  let state = seed;
  const next = () => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32) - 0.5;
  return Array.from({ length: count }, () => {
    const vector = Float32Array.from({ length: DIMENSIONS }, next);
    const norm = Math.hypot(...vector);
    return vector.map((value) => value / norm);
  });
}

/** 20 documents of 3 chunks each, one vector per chunk. */
function fill(index: GroundcheckIndex, data: Float32Array[]): void {
  for (let document = 0; document < 20; document++) {
    const body = [0, 1, 2].map((part) => `## Part ${part}\n\nText ${document}-${part}.`).join('\n\n');
    const chunks = chunkDocument(parseDocument(`d${document}.md`, body));
    index.putDocument({ path: `d${document}.md`, slug: `d${document}`, title: `D${document}`, updated: null, contentHash: `h${document}` }, chunks, data.slice(document * 3, document * 3 + 3));
  }
}

const exactTop = (data: Float32Array[], query: Float32Array, k: number) =>
  data
    .map((vector, row) => ({ row, similarity: vector.reduce((sum, value, d) => sum + value * query[d]!, 0) }))
    .sort((a, b) => b.similarity - a.similarity)
    .slice(0, k);

describe('vector index kinds (openIndex vectorIndex)', () => {
  it('binary-rescore re-scores its candidates exactly: with every row a candidate it equals exact search', () => {
    const data = vectors(60, 7);
    const path = join(tempDir(), 'index.db');
    const index = openIndex({ path, embedder: new MockEmbeddingModel({ dimensions: DIMENSIONS }), vectorIndex: 'binary-rescore', rescoreCandidates: 60 });
    fill(index, data);
    const rowidOf = new Map(index.getChunks(Array.from({ length: 60 }, (_, i) => i + 1)).map((chunk) => [chunk.rowid, chunk.rowid - 1]));
    for (const query of vectors(5, 99)) {
      const hits = index.vectorSearch(query, 5);
      const expected = exactTop(data, query, 5);
      expect(hits.map((hit) => rowidOf.get(hit.rowid))).toEqual(expected.map((entry) => entry.row));
      hits.forEach((hit, position) => expect(hit.similarity).toBeCloseTo(expected[position]!.similarity, 5));
    }
    expect(index.getMeta('vector_index')).toBe('binary-rescore');
    index.close();
  });

  it('records the kind, keeps it when reopened without the option, and converts both ways without losing vectors', () => {
    const data = vectors(60, 3);
    const path = join(tempDir(), 'index.db');
    const embedder = new MockEmbeddingModel({ dimensions: DIMENSIONS });
    const float = openIndex({ path, embedder });
    fill(float, data);
    const query = vectors(1, 5)[0]!;
    const exact = float.vectorSearch(query, 10);
    expect(float.vectorIndex).toBe('float');
    float.close();

    const binary = openIndex({ path, embedder, vectorIndex: 'binary-rescore', rescoreCandidates: 60 });
    expect(binary.vectorIndex).toBe('binary-rescore');
    expect(binary.vectorSearch(query, 10).map((hit) => hit.rowid)).toEqual(exact.map((hit) => hit.rowid));
    expect(binary.db.prepare('SELECT count(*) FROM chunks_vec').pluck().get()).toBe(0);
    binary.close();

    const reopened = openIndex({ path, embedder, rescoreCandidates: 60 });
    expect(reopened.vectorIndex).toBe('binary-rescore');
    reopened.close();

    const back = openIndex({ path, embedder, vectorIndex: 'float' });
    expect(back.getMeta('vector_index')).toBe('float');
    expect(back.vectorSearch(query, 10)).toEqual(exact);
    expect(back.db.prepare('SELECT count(*) FROM chunk_vectors').pluck().get()).toBe(0);
    back.close();
  });

  it('binary-rescore: replaced and removed documents leave no stale candidates, and another connection’s writes are seen', () => {
    const data = vectors(60, 11);
    const path = join(tempDir(), 'index.db');
    const embedder = new MockEmbeddingModel({ dimensions: DIMENSIONS });
    const index = openIndex({ path, embedder, vectorIndex: 'binary-rescore', rescoreCandidates: 100 });
    fill(index, data);
    const query = data[0]!;
    const [best] = index.vectorSearch(query, 1);
    expect(best!.similarity).toBeCloseTo(1, 5);
    expect(index.removeDocument('d0.md')).toBe(true);
    expect(index.vectorSearch(query, 60)).toHaveLength(57);
    expect(index.vectorSearch(query, 1)[0]!.similarity).toBeLessThan(0.99);

    // A second connection (another process, say) puts d0 back; the first sees it on its next search.
    const other = openIndex({ path, embedder });
    expect(other.vectorIndex).toBe('binary-rescore');
    fill(other, data);
    other.close();
    expect(index.vectorSearch(query, 1)[0]!.similarity).toBeCloseTo(1, 5);
    expect(index.vectorSearch(query, 100)).toHaveLength(60);
    index.close();
  });

  it('similarities() gives exact cosine for listed rows and skips unknown ones, in both kinds', () => {
    const data = vectors(60, 21);
    for (const vectorIndex of ['float', 'binary-rescore'] as const) {
      const index = openIndex({ path: join(tempDir(), 'index.db'), embedder: new MockEmbeddingModel({ dimensions: DIMENSIONS }), vectorIndex });
      fill(index, data);
      const query = vectors(1, 4)[0]!;
      const result = index.similarities(query, [1, 30, 999]);
      expect([...result.keys()]).toEqual([1, 30]);
      expect(result.get(30)).toBeCloseTo(data[29]!.reduce((sum, value, d) => sum + value * query[d]!, 0), 5);
      index.close();
    }
  });

  it('rejects an unknown kind and a bad rescoreCandidates with errors naming the option', () => {
    const path = join(tempDir(), 'index.db');
    const embedder = new MockEmbeddingModel({ dimensions: DIMENSIONS });
    expect(() => openIndex({ path, embedder, vectorIndex: 'int4' as never })).toThrow(/option vectorIndex "int4" is invalid: use 'float' or 'binary-rescore'/);
    expect(() => openIndex({ path, embedder, rescoreCandidates: 0 })).toThrow(/option rescoreCandidates 0 is invalid/);
    expect(() => openIndex({ path, embedder, rescoreCandidates: 2.5 })).toThrow(/option rescoreCandidates 2.5 is invalid/);
  });

  it('upgrades a schema-1 index in place', () => {
    const path = join(tempDir(), 'index.db');
    const embedder = new MockEmbeddingModel({ dimensions: DIMENSIONS });
    const data = vectors(60, 5);
    const first = openIndex({ path, embedder });
    fill(first, data);
    first.close();
    const raw = new Database(path);
    raw.exec(`DROP TABLE chunk_vectors; DROP TABLE chunk_codes; DELETE FROM meta WHERE key = 'vector_index';`);
    raw.pragma('user_version = 1');
    raw.close();
    const upgraded = openIndex({ path, embedder, vectorIndex: 'binary-rescore', rescoreCandidates: 60 });
    expect(upgraded.db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(upgraded.vectorSearch(data[7]!, 1)[0]!.similarity).toBeCloseTo(1, 5);
    upgraded.close();
  });
});

describe('HammingIndex', () => {
  it('returns the codes nearest by Hamming distance, exactly `count` of them', () => {
    const index = new HammingIndex(64, 2);
    const codes = [0, 1, 3, 7, 15, 31].map((bits) => {
      const vector = Float32Array.from({ length: 64 }, (_, d) => (d < bits ? 1 : -1));
      return signCode(vector);
    });
    codes.forEach((code, row) => index.add(100 + row, codeToBlob(code)));
    expect(index.count).toBe(6);
    const query = signCode(Float32Array.from({ length: 64 }, (_, d) => (d < 6 ? 1 : -1)));
    expect(index.nearest(query, 3)).toEqual([101, 102, 103]);
    expect(index.nearest(query, 10)).toHaveLength(6);
  });
});
