import Database from 'better-sqlite3';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { IndexError } from '../errors.js';
import { createLocalEmbedder } from '../providers/local/embedder.js';
import { tempDir } from '../test-support/fixtures.js';
import { MockEmbeddingModel } from '../testing/index.js';
import { chunkDocument, parseDocument } from './chunk.js';
import { openIndex, SCHEMA_VERSION } from './store.js';

function catchError(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}

describe('openIndex', () => {
  it('creates a WAL database with a schema version and the embedder recorded', () => {
    const path = join(tempDir(), 'nested', 'index.db');
    const index = openIndex({ path, embedder: createLocalEmbedder({ dimensions: 256 }) });
    expect(index.db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(index.db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(index.getMeta('embedder_fingerprint')).toBe('local-hash-v1;d=256;bigram=0;ngram=0.5;n=3-5');
    expect(index.getMeta('embedder_dimensions')).toBe('256');
    index.close();
  });

  it('names a missing path or embedder (plain-JavaScript callers) instead of failing deep inside', () => {
    const path = join(tempDir(), 'index.db');
    const missingEmbedder = catchError(() => openIndex({ path } as never));
    expect(missingEmbedder).toMatchObject({ code: 'invalid_option', message: expect.stringMatching(/option embedder is required: createLocalEmbedder\(\)/) });
    const missingPath = catchError(() => openIndex({ embedder: createLocalEmbedder() } as never));
    expect(missingPath).toMatchObject({ code: 'invalid_option', message: expect.stringMatching(/option path is required/) });
    expect(existsSync(path)).toBe(false);
  });

  it('refuses another embedder with an error that says to re-ingest, and rebuilds when asked', () => {
    const path = join(tempDir(), 'index.db');
    const first = openIndex({ path, embedder: createLocalEmbedder({ dimensions: 256 }) });
    const document = parseDocument('a.md', '## A\n\nSome text.');
    first.putDocument({ path: 'a.md', slug: 'a', title: 'A', updated: null, contentHash: 'x' }, chunkDocument(document), [new Float32Array(256).fill(0.1)]);
    first.close();

    const error = catchError(() => openIndex({ path, embedder: new MockEmbeddingModel({ dimensions: 64 }) }));
    expect(error).toBeInstanceOf(IndexError);
    expect((error as IndexError).code).toBe('embedder_mismatch');
    expect((error as Error).message).toMatch(/built with embedder "local-hash-v1;d=256;bigram=0;ngram=0\.5;n=3-5".*"mock:mock-embedding;d=64".*re-ingest/);

    const rebuilt = openIndex({ path, embedder: new MockEmbeddingModel({ dimensions: 64 }), rebuild: true });
    expect(rebuilt.chunkCount()).toBe(0);
    expect(rebuilt.getMeta('embedder_fingerprint')).toBe('mock:mock-embedding;d=64');
    rebuilt.close();
  });

  it('rejects a file that is not SQLite, a foreign SQLite database, a newer schema and a missing file', () => {
    const dir = tempDir();
    const notSqlite = join(dir, 'notes.db');
    writeFileSync(notSqlite, 'this is not a database at all, just some text that is long enough '.repeat(20));
    expect(catchError(() => openIndex({ path: notSqlite, embedder: createLocalEmbedder() }))).toMatchObject({ code: 'not_a_database' });

    const foreign = join(dir, 'app.db');
    const db = new Database(foreign);
    db.exec('CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)');
    db.close();
    expect(catchError(() => openIndex({ path: foreign, embedder: createLocalEmbedder() }))).toMatchObject({ code: 'foreign_database' });

    const newer = join(dir, 'newer.db');
    openIndex({ path: newer, embedder: createLocalEmbedder() }).close();
    const raw = new Database(newer);
    raw.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    raw.close();
    expect(catchError(() => openIndex({ path: newer, embedder: createLocalEmbedder() }))).toMatchObject({ code: 'schema_too_new' });

    expect(catchError(() => openIndex({ path: join(dir, 'missing.db'), embedder: createLocalEmbedder(), create: false }))).toMatchObject({
      code: 'not_found',
    });
  });

  it('replaces a document in place and removes its vectors and full-text rows', () => {
    const index = openIndex({ path: join(tempDir(), 'index.db'), embedder: new MockEmbeddingModel({ dimensions: 4 }) });
    const put = (text: string) => {
      const chunks = chunkDocument(parseDocument('a.md', `## A\n\n${text}`));
      index.putDocument({ path: 'a.md', slug: 'a', title: 'A', updated: null, contentHash: text }, chunks, [Float32Array.from([1, 0, 0, 0])]);
    };
    put('alpha bravo');
    put('charlie delta');
    expect(index.chunkCount()).toBe(1);
    expect(index.textSearch('"alpha"', 5)).toEqual([]);
    expect(index.textSearch('"charlie"', 5)).toHaveLength(1);
    expect(index.vectorSearch(Float32Array.from([1, 0, 0, 0]), 10)).toHaveLength(1);
    expect(index.removeDocument('a.md')).toBe(true);
    expect(index.vectorSearch(Float32Array.from([1, 0, 0, 0]), 10)).toEqual([]);
    expect(index.textSearch('"charlie"', 5)).toEqual([]);
    index.close();
  });

  /** Write one document with one chunk of `text` (a fixed vector: these tests read the full-text side). */
  const put = (store: ReturnType<typeof openIndex>, file: string, text: string) => {
    const chunks = chunkDocument(parseDocument(file, `## A\n\n${text}`));
    store.putDocument({ path: file, slug: file, title: 'A', updated: null, contentHash: text }, chunks, chunks.map(() => Float32Array.from([1, 0, 0, 0])));
  };

  it('corpus statistics follow every write: this connection\'s and another process\'s', () => {
    const path = join(tempDir(), 'index.db');
    const embedder = new MockEmbeddingModel({ dimensions: 4 });
    const index = openIndex({ path, embedder });
    const statistics = index.corpusStatistics();
    put(index, 'a.md', 'alpha bravo');
    // Read twice: the second answer may come from the cache.
    expect([statistics.documentFrequencies(['alpha', 'charli']), statistics.documentFrequencies(['alpha', 'charli'])]).toEqual([new Map([['alpha', 1]]), new Map([['alpha', 1]])]);
    expect(statistics.documentCount()).toBe(1);
    // A write on this connection.
    put(index, 'b.md', 'alpha charlie');
    expect(statistics.documentFrequencies(['alpha', 'charli'])).toEqual(new Map([['alpha', 2], ['charli', 1]]));
    expect(statistics.documentCount()).toBe(2);
    // A write by another connection (another process ingesting into the same file).
    const other = openIndex({ path, embedder });
    other.removeDocument('a.md');
    other.close();
    expect(statistics.documentFrequencies(['alpha', 'charli'])).toEqual(new Map([['alpha', 1], ['charli', 1]]));
    expect(statistics.documentCount()).toBe(1);
    index.close();
  });

  it('phrase and prefix lookups, kept between questions, follow every write too', () => {
    const path = join(tempDir(), 'index.db');
    const embedder = new MockEmbeddingModel({ dimensions: 4 });
    const index = openIndex({ path, embedder });
    put(index, 'a.md', 'Late check-out costs £30.');
    // Asked twice: the second answer may come from the cache.
    expect([index.holdsPhrase(['check', 'out']), index.holdsPhrase(['check', 'out'])]).toEqual([true, true]);
    expect([index.holdsPhrase(['pay', 'day']), index.vocabularyWithPrefix('payda')]).toEqual([false, []]);
    // A write on this connection.
    put(index, 'b.md', 'Your payday is on the 25th; pay day moves in December.');
    expect([index.holdsPhrase(['pay', 'day']), index.vocabularyWithPrefix('payda')]).toEqual([true, ['paydai']]);
    // A write by another connection.
    const other = openIndex({ path, embedder });
    other.removeDocument('a.md');
    other.close();
    expect(index.holdsPhrase(['check', 'out'])).toBe(false);
    // Not a phrase the index could hold: no FTS5 syntax reaches the query.
    expect(index.holdsPhrase(['check"', 'out'])).toBe(false);
    index.close();
  });

  it('upgrades a schema-2 index in place, and keeps crawled pages\' sources beside their documents', () => {
    const path = join(tempDir(), 'index.db');
    const embedder = new MockEmbeddingModel({ dimensions: 4 });
    const vector = [Float32Array.from([1, 0, 0, 0])];
    const old = openIndex({ path, embedder });
    old.putDocument({ path: 'a.md', slug: 'a', title: 'A', updated: null, contentHash: 'x' }, chunkDocument(parseDocument('a.md', '## A\n\nFolder text.')), vector);
    old.close();
    // What a schema-2 file looks like: no page_sources table.
    const raw = new Database(path);
    raw.exec('DROP TABLE page_sources');
    raw.pragma('user_version = 2');
    raw.close();

    const index = openIndex({ path, embedder });
    expect(index.db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(index.listDocuments()).toMatchObject([{ path: 'a.md', url: null }]);
    const url = 'https://docs.example.com/leave';
    const source = { origin: 'https://docs.example.com', etag: '"v1"', lastModified: null, depth: 1, processingKey: 'key-1', fetchedAt: '2026-05-01T10:00:00.000Z' };
    index.putDocument({ path: url, slug: 'docs-example-com/leave', title: 'Leave', updated: '2026-01-12', contentHash: 'y' }, chunkDocument({ ...parseDocument('leave', '## Parental\n\nTwenty weeks.'), slug: 'docs-example-com/leave' }), vector, source);
    expect(index.listPages('https://docs.example.com')).toEqual([
      { id: expect.any(Number), path: url, slug: 'docs-example-com/leave', title: 'Leave', updated: '2026-01-12', contentHash: 'y', chunkCount: 1, url, ...source },
    ]);
    expect(index.listPages('https://other.example')).toEqual([]);
    expect(index.getChunk('docs-example-com/leave#parental')?.url).toBe(url);
    expect(index.getChunk('a#a')?.url).toBeNull();

    expect(index.touchPage(url, { etag: '"v2"', lastModified: 'Tue, 03 Mar 2026 10:00:00 GMT', depth: 2, fetchedAt: '2026-05-02T10:00:00.000Z' })).toBe(true);
    expect(index.touchPage('a.md', { etag: null, lastModified: null, depth: 0, fetchedAt: '2026-05-02T10:00:00.000Z' })).toBe(false);
    expect(index.listPages('https://docs.example.com')[0]).toMatchObject({ etag: '"v2"', lastModified: 'Tue, 03 Mar 2026 10:00:00 GMT', depth: 2, processingKey: 'key-1' });

    expect(index.removeDocument(url)).toBe(true);
    expect(index.db.prepare('SELECT count(*) FROM page_sources').pluck().get()).toBe(0);
    index.close();
  });
});
