import { join } from 'node:path';
import Database from 'better-sqlite3';
import { statSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { onCleanup, tempDir } from '../test-support/fixtures.js';
import { CAPTURE_SCHEMA_VERSION, JUDGE_QUEUE_BATCH, JUDGE_QUEUE_SQL, openSqliteCaptureStore, type SqliteCaptureStore } from './store.js';
import { judgmentFor, sampleCapture } from '../test-support/capture-samples.js';
import type { Capture } from './types.js';
import { openSqlite } from '../sqlite/open.js';
import { createRedactor } from './redact.js';
import { registerCaptureFunctions } from './sqlite-store/functions.js';
import { CAPTURE_MIGRATIONS } from './sqlite-store/schema.js';

function newStore(path = join(tempDir(), 'captures.db')): SqliteCaptureStore {
  const store = openSqliteCaptureStore({ path });
  onCleanup(() => store.close());
  return store;
}

describe('capture store', () => {
  it('round-trips a capture exactly, and stores a trace id once', async () => {
    const store = newStore();
    const capture = sampleCapture('t1');
    await store.writeCaptures([capture, capture]);
    await store.writeCaptures([capture]);
    expect(await store.captureCount()).toBe(1);
    expect(await store.getCapture('t1')).toEqual({ capture, judgments: [] });
    expect(await store.getCapture('nope')).toBeUndefined();
  });

  it('one judgment per capture and judge version: UNIQUE in the schema, a second save is refused', async () => {
    const store = newStore();
    await store.writeCaptures([sampleCapture('t1')]);
    expect(await store.saveJudgment(judgmentFor('t1'))).toBe(true);
    expect(await store.saveJudgment(judgmentFor('t1', { status: 'error', error: 'late duplicate', flags: null, claims: [] }))).toBe(false);
    expect(await store.saveJudgment(judgmentFor('t1', { judgeVersion: 'llm:openai:gpt-4o-mini:v2' }))).toBe(true);
    const { judgments } = (await store.getCapture('t1'))!;
    expect(judgments.map((judgment) => [judgment.judgeVersion, judgment.status])).toEqual([
      ['heuristic:heuristic:h1', 'ok'],
      ['llm:openai:gpt-4o-mini:v2', 'ok'],
    ]);
    expect(judgments[0]).toEqual(judgmentFor('t1'));
    // The constraint lives in the schema, not only in the code path.
    expect(() =>
      store.db
        .prepare(`INSERT INTO judgments (capture_id, judge_version, status, judged_at, record)
                  SELECT capture_id, judge_version, status, judged_at, record FROM judgments LIMIT 1`)
        .run(),
    ).toThrow(/UNIQUE constraint failed/);
  });

  it('claims settled, unjudged captures with a lease; others skip leased, judged and backed-off ones', async () => {
    const store = newStore();
    const base = Date.parse('2026-03-01T10:00:00.000Z');
    await store.writeCaptures([
      sampleCapture('old1'),
      sampleCapture('old2'),
      sampleCapture('fresh', { capturedAt: '2026-03-01T10:00:09.000Z' }),
      sampleCapture('cut', { truncated: true }),
    ]);
    const version = 'heuristic:heuristic:h1';
    const claim = async (owner: string, now: number, limit = 10) =>
      (await store.claimPending({ judgeVersion: version, settledBefore: now - 5000, limit, owner, leaseMs: 60_000, now })).map((capture) => capture.traceId);

    expect(await claim('a', base + 10_000, 1)).toEqual(['old1']);
    expect(await claim('b', base + 10_000)).toEqual(['old2']); // old1 leased by a; fresh not settled; truncated never judged
    expect(await claim('c', base + 14_000)).toEqual(['fresh']);
    expect(await claim('d', base + 14_000)).toEqual([]);
    expect(await store.pendingCount(version)).toBe(3);

    // A failure schedules a retry and releases the lease.
    expect(await store.recordFailure('old1', version, 'timeout', base + 30_000)).toBe(1);
    expect(await claim('e', base + 20_000)).toEqual([]);
    expect(await claim('e', base + 31_000)).toEqual(['old1']); // backoff over; old2 and fresh still leased
    await store.releaseLeasesOf('b');
    expect(await claim('e', base + 31_000)).toEqual(['old2']);
    expect(await store.attemptsOf('old1', version)).toBe(1);

    // Storing a judgment drops the job; the capture is no longer pending.
    await store.saveJudgment(judgmentFor('old1'));
    expect(await store.pendingCount(version)).toBe(2);
    // Leases expire.
    expect(await claim('f', base + 200_000)).toEqual(['old2', 'fresh']);
    expect(store.leaseOwners(base + 200_000)).toEqual(['f']);
  });

  it('refuses foreign and newer files with clear errors', () => {
    const dir = tempDir();
    const foreign = join(dir, 'foreign.db');
    const db = new Database(foreign);
    db.exec('CREATE TABLE t (x)');
    db.close();
    expect(() => openSqliteCaptureStore({ path: foreign })).toThrow(/is a SQLite database but not a groundcheck capture store/);

    const garbage = join(dir, 'garbage.db');
    writeFileSync(garbage, 'x'.repeat(4096));
    expect(() => openSqliteCaptureStore({ path: garbage })).toThrow(/is not a SQLite database/);

    const newer = join(dir, 'newer.db');
    newStore(newer).close();
    const raw = new Database(newer);
    raw.pragma('user_version = 99');
    raw.close();
    expect(() => openSqliteCaptureStore({ path: newer })).toThrow(/newer groundcheck \(capture schema 99/);
    expect(() => openSqliteCaptureStore({ path: join(dir, 'absent.db'), create: false })).toThrow(/no capture store/);
  });

  it('uses WAL', () => {
    const store = newStore();
    expect(store.db.pragma('journal_mode', { simple: true })).toBe('wal');
  });
});

/** The capture store's schema 1 exactly as groundcheck wrote it before schema 2: a fixture, not shared with the code. */
const SCHEMA_1_DDL = `
  CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  CREATE TABLE captures (
    id INTEGER PRIMARY KEY, trace_id TEXT NOT NULL UNIQUE, request_id TEXT NOT NULL, captured_at TEXT NOT NULL,
    captured_ms INTEGER NOT NULL, route TEXT NOT NULL, method TEXT NOT NULL, status INTEGER NOT NULL, latency_ms REAL NOT NULL,
    query TEXT NOT NULL, mode TEXT NOT NULL, answer TEXT NOT NULL, refused INTEGER NOT NULL, refusal_reason TEXT,
    prompt_version TEXT NOT NULL, chat_model TEXT NOT NULL, embedding_model TEXT, input_tokens INTEGER, output_tokens INTEGER,
    total_tokens INTEGER, cost_usd REAL, retrieval_ms REAL NOT NULL, generation_ms REAL NOT NULL, total_ms REAL NOT NULL,
    truncated INTEGER NOT NULL
  );
  CREATE INDEX captures_time ON captures(captured_ms);
  CREATE TABLE capture_chunks (
    capture_id INTEGER NOT NULL REFERENCES captures(id) ON DELETE CASCADE, position INTEGER NOT NULL, chunk_id TEXT NOT NULL,
    document TEXT NOT NULL, title TEXT NOT NULL, section TEXT NOT NULL, updated TEXT, hash TEXT NOT NULL, text TEXT NOT NULL,
    score REAL NOT NULL, fused_score REAL NOT NULL, rank INTEGER NOT NULL, PRIMARY KEY (capture_id, position)
  );
  CREATE TABLE judgments (
    id INTEGER PRIMARY KEY, capture_id INTEGER NOT NULL REFERENCES captures(id) ON DELETE CASCADE, judge_version TEXT NOT NULL,
    judge_kind TEXT NOT NULL, judge_model TEXT NOT NULL, judge_prompt_version TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('ok', 'error')), claims TEXT NOT NULL, verified INTEGER NOT NULL,
    contradicted INTEGER NOT NULL, absent INTEGER NOT NULL, flags TEXT, faithful INTEGER, hallucinated INTEGER, refused INTEGER,
    error TEXT, raw_reply TEXT, attempts INTEGER NOT NULL, input_tokens INTEGER, output_tokens INTEGER, total_tokens INTEGER,
    cost_usd REAL, duration_ms REAL NOT NULL, judged_at TEXT NOT NULL, UNIQUE (capture_id, judge_version)
  );
  CREATE TABLE judge_jobs (
    capture_id INTEGER NOT NULL REFERENCES captures(id) ON DELETE CASCADE, judge_version TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0, next_attempt_ms INTEGER NOT NULL DEFAULT 0, lease_owner TEXT,
    lease_expires_ms INTEGER NOT NULL DEFAULT 0, last_error TEXT, PRIMARY KEY (capture_id, judge_version)
  );
`;

/** Write captures the way schema-1 groundcheck did: every chunk's text in its own row. */
function writeSchema1File(path: string, captures: Capture[], options: { withoutTimeIndex?: boolean } = {}): Database.Database {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.exec(options.withoutTimeIndex ? SCHEMA_1_DDL.replace('CREATE INDEX captures_time ON captures(captured_ms);', '') : SCHEMA_1_DDL);
  db.pragma('application_id = 1195590449');
  db.pragma('user_version = 1');
  db.prepare(`INSERT INTO meta (key, value) VALUES ('created_at', '2026-03-01T09:00:00.000Z')`).run();
  const insertCapture = db.prepare(`
    INSERT INTO captures (trace_id, request_id, captured_at, captured_ms, route, method, status, latency_ms, query, mode, answer, refused,
      refusal_reason, prompt_version, chat_model, embedding_model, input_tokens, output_tokens, total_tokens, cost_usd, retrieval_ms,
      generation_ms, total_ms, truncated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const insertChunk = db.prepare(`
    INSERT INTO capture_chunks (capture_id, position, chunk_id, document, title, section, updated, hash, text, score, fused_score, rank)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  for (const c of captures) {
    const id = insertCapture.run(c.traceId, c.requestId, c.capturedAt, Date.parse(c.capturedAt), c.route, c.method, c.status, c.latencyMs, c.query, c.mode,
      c.answer, c.refused ? 1 : 0, c.refusalReason, c.promptVersion, c.models.chat, c.models.embedding, c.usage.inputTokens, c.usage.outputTokens,
      c.usage.totalTokens, c.costUsd, c.timings.retrievalMs, c.timings.generationMs, c.timings.totalMs, c.truncated ? 1 : 0).lastInsertRowid;
    c.chunks.forEach((k, position) => insertChunk.run(id, position, k.chunkId, k.document, k.title, k.section, k.updated, k.hash, k.text, k.score, k.fusedScore, k.rank));
  }
  return db;
}

describe('capture store schema 2', () => {
  const chunk = (chunkId: string, text: string, hash = `hash-of-${chunkId}`) => ({ ...sampleCapture('x').chunks[0]!, chunkId, text, hash });
  const version = 'heuristic:heuristic:h1';

  it('stores each distinct chunk once and references it; the index hash stays per chunk, even when two texts redact alike', async () => {
    const store = newStore();
    const shared = chunk('travel#mileage', 'Cars: 45p per mile.');
    await store.writeCaptures([
      sampleCapture('a', { chunks: [shared, chunk('leave#parental', 'Twenty weeks.')] }),
      sampleCapture('b', { chunks: [{ ...shared, score: 0.9, rank: 2 }] }),
      // Same stored text as `shared`, different original (another index hash): its own evidence row.
      sampleCapture('c', { chunks: [chunk('travel#mileage', 'Cars: 45p per mile.', 'hash-before-redaction-2')] }),
    ]);
    const count = (table: string) => store.db.prepare(`SELECT count(*) FROM ${table}`).pluck().get();
    const references = store.db.prepare(`SELECT sum(json_array_length(chunk_refs)) FROM captures`).pluck().get();
    expect([references, count('evidence')]).toEqual([4, 3]);
    expect((await store.getCapture('b'))!.capture.chunks).toEqual([{ ...shared, score: 0.9, rank: 2 }]);
    expect((await store.getCapture('c'))!.capture.chunks[0]!.hash).toBe('hash-before-redaction-2');
    expect((await store.getCapture('a'))!.capture.chunks.map(({ chunkId, hash }) => ({ chunkId, hash }))).toEqual([
      { chunkId: 'travel#mileage', hash: 'hash-of-travel#mileage' },
      { chunkId: 'leave#parental', hash: 'hash-of-leave#parental' },
    ]);
    // A chunk reference is the evidence row's id, the scores, the rank and the withheld mark: no text.
    const refs = JSON.parse(store.db.prepare(`SELECT chunk_refs FROM captures WHERE trace_id = 'b'`).pluck().get() as string) as unknown[][];
    const sharedId = store.db.prepare(`SELECT id FROM evidence WHERE hash = ? AND text = ?`).pluck().get(shared.hash, shared.text);
    expect(refs).toEqual([[sharedId, 0.9, shared.fusedScore, 2, 0]]);
    expect(store.db.prepare(`SELECT count(*) FROM sqlite_schema WHERE name = 'capture_chunks'`).pluck().get()).toBe(0);
  });

  it('writes a capture of many chunks (more than one INSERT holds) whole and in order, and one with none', async () => {
    const store = newStore();
    const many = Array.from({ length: 300 }, (_, at) => ({ ...chunk(`doc#part-${at}`, `Passage ${at}.`), rank: at + 1 }));
    await store.writeCaptures([sampleCapture('many', { chunks: many }), sampleCapture('none', { chunks: [] }), sampleCapture('after', { chunks: many.slice(0, 3) })]);
    expect((await store.getCapture('many'))!.capture.chunks).toEqual(many);
    expect((await store.getCapture('none'))!.capture.chunks).toEqual([]);
    expect((await store.getCapture('after'))!.capture.chunks).toEqual(many.slice(0, 3));
    expect(store.db.prepare(`SELECT count(*) FROM evidence`).pluck().get()).toBe(300);
  });

  it('opens a file written by schema 1 (with the id once shared with the LLM cache) and migrates it in place: captures, chunks, judgments and job state intact', async () => {
    const path = join(tempDir(), 'captures.db');
    const old = [
      sampleCapture('judged', { chunks: [chunk('travel#mileage', 'Cars: 45p per mile.'), chunk('leave#parental', 'Twenty weeks at full pay.')] }),
      sampleCapture('backing-off', { chunks: [chunk('travel#mileage', 'Cars: 45p per mile.')] }),
      sampleCapture('waiting', { chunks: [] }),
      sampleCapture('cut', { truncated: true }),
    ];
    const raw = writeSchema1File(path, old);
    const judgment = judgmentFor('judged');
    raw.prepare(`
      INSERT INTO judgments (capture_id, judge_version, judge_kind, judge_model, judge_prompt_version, status, claims, verified, contradicted, absent,
        flags, faithful, hallucinated, refused, error, raw_reply, attempts, input_tokens, output_tokens, total_tokens, cost_usd, duration_ms, judged_at)
      VALUES (1, ?, 'heuristic', 'heuristic', 'h1', 'ok', ?, 1, 0, 0, ?, 1, 0, 0, NULL, NULL, 1, 0, 0, 0, 0, 3, ?)`)
      .run(version, JSON.stringify(judgment.claims), JSON.stringify(judgment.flags), judgment.judgedAt);
    raw.prepare(`INSERT INTO judge_jobs (capture_id, judge_version, attempts, next_attempt_ms, last_error) VALUES (2, ?, 2, ?, 'timeout')`).run(version, 8_000_000_000_000);
    raw.close();

    const store = newStore(path);
    expect(store.db.pragma('user_version', { simple: true })).toBe(CAPTURE_SCHEMA_VERSION);
    // Re-stamped with the capture store's own id ("GCS1"): the legacy shared one is never written again.
    expect(store.db.pragma('application_id', { simple: true })).toBe(0x47435331);
    for (const capture of old) expect((await store.getCapture(capture.traceId))!.capture).toEqual(capture);
    expect((await store.getCapture('judged'))!.judgments).toEqual([judgment]);
    expect(store.db.prepare(`SELECT count(*) FROM evidence`).pluck().get()).toBe(3); // 4 chunk rows, 3 distinct chunks (the sample's own one)
    expect(store.db.prepare(`SELECT value FROM meta WHERE key = 'created_at'`).pluck().get()).toBe('2026-03-01T09:00:00.000Z');
    expect(await store.attemptsOf('backing-off', version)).toBe(2);
    // The queue picks up where schema 1 left off: the judged capture is done, the one in backoff
    // waits, the truncated one is never judged, a new judge version judges every judgeable one.
    const claim = async (judgeVersion: string) =>
      (await store.claimPending({ judgeVersion, settledBefore: Date.now(), limit: 10, owner: 'w', leaseMs: 60_000, now: Date.now() })).map((capture) => capture.traceId);
    expect(await store.pendingCount(version)).toBe(2);
    expect(await claim(version)).toEqual(['waiting']);
    expect(await claim('llm:openai:gpt-4o-mini:v2')).toEqual(['judged', 'backing-off', 'waiting']);
    // New captures go to the new layout and read back alongside the migrated ones.
    await store.writeCaptures([sampleCapture('new', { chunks: [chunk('travel#mileage', 'Cars: 45p per mile.')] })]);
    expect((await store.getCapture('new'))!.capture.chunks).toEqual([chunk('travel#mileage', 'Cars: 45p per mile.')]);
    expect(store.db.prepare(`SELECT count(*) FROM evidence`).pluck().get()).toBe(3);
    expect(store.db.pragma('foreign_key_check')).toEqual([]);
    expect(store.db.pragma('integrity_check', { simple: true })).toBe('ok');
  });

  it('migrates in one transaction: a migration that fails leaves the schema-1 file as it was', () => {
    const path = join(tempDir(), 'captures.db');
    // A file missing an index that schema 2 drops: the migration fails part-way.
    writeSchema1File(path, [sampleCapture('kept')], { withoutTimeIndex: true }).close();
    expect(() => openSqliteCaptureStore({ path })).toThrow(/captures_time/);
    const raw = new Database(path);
    onCleanup(() => raw.close());
    expect(raw.pragma('user_version', { simple: true })).toBe(1);
    expect(raw.prepare(`SELECT text FROM capture_chunks`).pluck().all()).toEqual([sampleCapture('kept').chunks[0]!.text]);
    expect(raw.prepare(`SELECT count(*) FROM sqlite_master WHERE name IN ('evidence', 'judge_marks')`).pluck().get()).toBe(0);
  });

  it("the worker's claim reads its queue by index, never the captures: its cost does not grow with judged captures", async () => {
    const store = newStore();
    const total = JUDGE_QUEUE_BATCH + 700;
    await store.writeCaptures(Array.from({ length: total }, (_, index) => sampleCapture(`t${index}`, { truncated: index % 100 === 0 })));
    const judgeable = total - Math.ceil(total / 100);
    const now = Date.parse('2026-03-01T11:00:00.000Z');
    const claimAll = async (judgeVersion: string) => {
      const seen: string[] = [];
      for (;;) {
        const claimed = await store.claimPending({ judgeVersion, settledBefore: now, limit: 500, owner: 'w', leaseMs: 60_000, now });
        for (const capture of claimed) await store.saveJudgment(judgmentFor(capture.traceId, { judgeVersion }));
        seen.push(...claimed.map((capture) => capture.traceId));
        if (claimed.length === 0 && !(await store.hasUnqueuedCaptures(judgeVersion))) return seen;
      }
    };

    expect(await store.pendingCount(version)).toBe(judgeable);
    const first = await claimAll(version);
    expect(first).toHaveLength(judgeable);
    expect(new Set(first).size).toBe(judgeable);
    expect(first).not.toContain('t0');
    // Everything judged: the version's queue is empty and its mark is at the last capture, so a
    // poll has no row to visit however many captures and judgments the file holds.
    expect(store.db.prepare(`SELECT count(*) FROM judge_jobs`).pluck().get()).toBe(0);
    expect(store.db.prepare(`SELECT last_capture_id FROM judge_marks WHERE judge_version = ?`).pluck().get(version)).toBe(total);
    expect(await store.pendingCount(version)).toBe(0);
    const plans = Object.entries(JUDGE_QUEUE_SQL).flatMap(([name, sql]) =>
      (store.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(sql.includes('@') ? { judgeVersion: version, from: 0, upTo: 1, batch: 1, settledBefore: now, now, limit: 2 } : [version, 1].slice(0, sql.split('?').length - 1)) as { detail: string }[]).map(
        (row) => `${name}: ${row.detail}`,
      ),
    );
    expect(plans.filter((line) => /\bSCAN (captures|c|judge_jobs|q|judgments|j)\b/.test(line))).toEqual([]);
    expect(plans).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^claimable: SEARCH q USING INDEX judge_jobs_settled \(judge_version=\? AND captured_ms<\?\)/),
        expect.stringMatching(/^enqueue: SEARCH c USING INTEGER PRIMARY KEY \(rowid>\? AND rowid<\?\)/),
        expect.stringMatching(/^nextBatch: SEARCH captures USING INTEGER PRIMARY KEY \(rowid>\?\)/),
      ]),
    );

    // A judge version the file has never seen queues the old captures a batch per claim (short
    // write transactions), and judges every judgeable one once.
    const next = 'llm:openai:gpt-4o-mini:v2';
    expect(await store.hasUnqueuedCaptures(next)).toBe(true);
    const [oldest] = await store.claimPending({ judgeVersion: next, settledBefore: now, limit: 1, owner: 'w', leaseMs: 60_000, now });
    expect(oldest!.traceId).toBe('t1');
    expect(store.db.prepare(`SELECT count(*) FROM judge_jobs WHERE judge_version = ?`).pluck().get(next)).toBe(JUDGE_QUEUE_BATCH - JUDGE_QUEUE_BATCH / 100);
    expect(await store.hasUnqueuedCaptures(next)).toBe(true);
    await store.saveJudgment(judgmentFor('t1', { judgeVersion: next }));
    const second = await claimAll(next);
    expect(['t1', ...second].sort()).toEqual([...first].sort());
    expect(await store.pendingCount(next)).toBe(0);
  });
});

describe('capture store checkpoints', () => {
  const many = (prefix: string) => Array.from({ length: 300 }, (_, index) => sampleCapture(`${prefix}${index}`, { query: `question ${index} ${'x'.repeat(400)}` }));

  it('a background thread copies the write-ahead log into the file; the writing connection only keeps a backstop', async () => {
    const path = join(tempDir(), 'captures.db');
    const store = newStore(path);
    const before = statSync(path).size;
    await store.writeCaptures(many('bg'));
    // 300 captures are a few hundred log pages, below both inline thresholds: only the thread checkpoints them.
    expect(store.db.pragma('wal_autocheckpoint', { simple: true })).toBe(10_000);
    await expect.poll(() => statSync(path).size, { timeout: 10_000 }).toBeGreaterThan(before + 100_000);
  });

  it('with backgroundCheckpoints: false, checkpoints stay SQLite’s own (inline, past 1000 log pages)', async () => {
    const path = join(tempDir(), 'captures.db');
    const store = openSqliteCaptureStore({ path, backgroundCheckpoints: false });
    onCleanup(() => store.close());
    const before = statSync(path).size;
    await store.writeCaptures(many('inline'));
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(store.db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    expect(statSync(path).size).toBe(before);
  });

  it('if the thread cannot run, the store goes back to inline checkpoints and keeps writing', async () => {
    const path = join(tempDir(), 'captures.db');
    // The thread loads its driver when the first capture is written: a missing one fails it.
    const store = openSqliteCaptureStore({ path, checkpointDriver: join(tempDir(), 'no-such-driver.cjs') });
    onCleanup(() => store.close());
    await store.writeCaptures([sampleCapture('still-written')]);
    await expect.poll(() => store.db.pragma('wal_autocheckpoint', { simple: true }), { timeout: 10_000 }).toBe(1000);
    await store.writeCaptures([sampleCapture('and-this')]);
    expect(await store.captureCount()).toBe(2);
  });
});

describe('capture store redaction key (schema 6)', () => {
  it('a new file gets a random key of 43 characters, the same after reopen; a schema-5 file gets one on open and keeps it', async () => {
    const path = join(tempDir(), 'captures.db');
    const store = openSqliteCaptureStore({ path, backgroundCheckpoints: false });
    const key = store.redactionKey;
    expect(key).toMatch(/^[\w-]{43}$/);
    await store.close();
    const again = openSqliteCaptureStore({ path, backgroundCheckpoints: false });
    onCleanup(() => again.close());
    expect(again.redactionKey).toBe(key);

    const oldPath = join(tempDir(), 'old.db');
    const { db } = openSqlite({ path: oldPath, kind: 'capture-store', migrations: CAPTURE_MIGRATIONS.slice(0, 5), configure: registerCaptureFunctions });
    db.close();
    const migrated = openSqliteCaptureStore({ path: oldPath, backgroundCheckpoints: false });
    const oldKey = migrated.redactionKey;
    expect(migrated.db.pragma('user_version', { simple: true })).toBe(CAPTURE_SCHEMA_VERSION);
    expect(oldKey).toMatch(/^[\w-]{43}$/);
    expect(oldKey).not.toBe(key);
    await migrated.close();
    const reopened = openSqliteCaptureStore({ path: oldPath, backgroundCheckpoints: false });
    onCleanup(() => reopened.close());
    expect(reopened.redactionKey).toBe(oldKey);
  });

  it('placeholders keyed with the store key (what captureRag does by default) match across a restart', async () => {
    const path = join(tempDir(), 'captures.db');
    const tokenAfterOpen = async () => {
      const store = openSqliteCaptureStore({ path, backgroundCheckpoints: false });
      const redact = createRedactor({ key: store.redactionKey }).redactText;
      await store.close();
      return redact('write to jane.doe@example.com');
    };
    const first = await tokenAfterOpen();
    expect(first).toMatch(/\[email:[0-9a-f]+\]/);
    expect(await tokenAfterOpen()).toBe(first);
  });
});

/** A chunk with its own id, text, hash, scores and rank (the rest from the sample capture's first chunk). */
function scoredChunk(chunkId: string, score: number, fusedScore: number, rank: number) {
  return { ...sampleCapture('x').chunks[0]!, chunkId, text: `Text of ${chunkId}.`, hash: `hash-of-${chunkId}`, score, fusedScore, rank };
}

/** A stored capture's `chunk_refs` text, as the file holds it. */
function chunkRefsOf(store: SqliteCaptureStore, traceId: string): unknown {
  return store.db.prepare(`SELECT chunk_refs FROM captures WHERE trace_id = ?`).pluck().get(traceId);
}

describe('capture store chunk references (schema 8)', () => {

  it('a schema-7 file is migrated: chunk rows become each capture’s chunk_refs, in position order, scores exact, withheld chunks after the prompt’s; the rows are gone', async () => {
    const path = join(tempDir(), 'captures.db');
    const { db } = openSqlite({ path, kind: 'capture-store', migrations: CAPTURE_MIGRATIONS.slice(0, 7), configure: registerCaptureFunctions });
    // Scores whose 16th and 17th digits matter (SQLite's JSON functions would keep 15).
    const prompt = [scoredChunk('a#1', 0.1 + 0.2, 1 / 61, 2), scoredChunk('b#2', 1 / 3, 0.016129032258064516, 1)];
    const withheld = [scoredChunk('c#3', 2 / 3, 1 / 62, 1)];
    const captures = [
      sampleCapture('answered', { chunks: prompt }),
      sampleCapture('gated', { chunks: [], refused: true, withheldChunks: withheld }),
      sampleCapture('bare', { chunks: [] }),
    ];
    const insertCapture = db.prepare(`
      INSERT INTO captures (trace_id, request_id, captured_at, captured_ms, route, method, status, latency_ms, query, mode, answer, refused, refusal_reason,
        prompt_version, chat_model, embedding_model, input_tokens, output_tokens, total_tokens, cost_usd, retrieval_ms, generation_ms, total_ms, truncated, aborted, first_token_ms)
      VALUES (@traceId, @requestId, @capturedAt, 0, @route, @method, @status, @latencyMs, @query, @mode, @answer, @refused, NULL, @promptVersion, @chat, @embedding,
        @inputTokens, @outputTokens, @totalTokens, NULL, @retrievalMs, @generationMs, @totalMs, 0, 0, NULL)`);
    const insertEvidence = db.prepare(`
      INSERT INTO evidence (digest, chunk_id, document, title, section, updated, hash, text) VALUES (gc_evidence_digest(@chunkId, @document, @title, @section, @updated, @hash, @text),
        @chunkId, @document, @title, @section, @updated, @hash, @text) ON CONFLICT DO NOTHING`);
    const insertChunk = db.prepare(`
      INSERT INTO capture_chunks (capture_id, position, evidence, score, fused_score, rank, withheld)
      VALUES (?, ?, gc_evidence_digest(@chunkId, @document, @title, @section, @updated, @hash, @text), @score, @fusedScore, @rank, ?)`);
    for (const capture of captures) {
      const id = Number(
        insertCapture.run({ ...capture, refused: capture.refused ? 1 : 0, ...capture.models, ...capture.usage, ...capture.timings }).lastInsertRowid,
      );
      // Rows inserted out of position order: the migration orders them by position.
      const rows = [...capture.chunks.map((item, at) => [item, at, 0] as const), ...(capture.withheldChunks ?? []).map((item, at) => [item, capture.chunks.length + at, 1] as const)].reverse();
      for (const [item, position, mark] of rows) {
        insertEvidence.run(item);
        insertChunk.run(id, position, item, mark);
      }
    }
    db.close();

    const store = newStore(path);
    expect(store.db.pragma('user_version', { simple: true })).toBe(CAPTURE_SCHEMA_VERSION);
    expect(store.db.prepare(`SELECT count(*) FROM sqlite_schema WHERE name = 'capture_chunks'`).pluck().get()).toBe(0);
    for (const capture of captures) expect((await store.getCapture(capture.traceId))!.capture).toEqual(capture);
    expect(store.db.prepare(`SELECT chunk_refs FROM captures WHERE trace_id = 'bare'`).pluck().get()).toBe('[]');
    // The migration writes each reference as the store does: a capture written now of the same chunks holds the same text.
    await store.writeCaptures([sampleCapture('answered-again', { chunks: prompt })]);
    const refsOf = (traceId: string) => chunkRefsOf(store, traceId);
    expect(refsOf('answered-again')).toBe(refsOf('answered'));
    expect(store.db.pragma('integrity_check', { simple: true })).toBe('ok');
  });

  it('the drift filter finds a capture by any of its references, withheld ones too, whether few keys drifted (each looked for in the text) or many (the references parsed)', async () => {
    const store = newStore();
    const chunks = Array.from({ length: 13 }, (_, at) => scoredChunk(`doc#${at}`, 0.5, 0.01, at + 1));
    await store.writeCaptures([
      sampleCapture('a', { capturedAt: '2026-03-01T10:00:00.000Z', chunks: chunks.slice(0, 4) }),
      sampleCapture('b', { capturedAt: '2026-03-01T10:01:00.000Z', chunks: chunks.slice(4, 12) }),
      sampleCapture('gated', { capturedAt: '2026-03-01T10:02:00.000Z', chunks: [], refused: true, withheldChunks: chunks.slice(12) }),
      sampleCapture('none', { capturedAt: '2026-03-01T10:03:00.000Z', chunks: [] }),
    ]);
    const listed = async (changed: number[]) => {
      const current = new Map([...chunks, sampleCapture('x').chunks[0]!].map((item) => [item.chunkId, item.hash]));
      for (const at of changed) current.set(`doc#${at}`, 'changed');
      return (await store.listCaptures({ filter: { driftedFrom: current } })).map((item) => item.capture.traceId);
    };
    expect(await listed([])).toEqual([]);
    expect(await listed([5])).toEqual(['b']);
    expect(await listed([12])).toEqual(['gated']);
    expect(await listed([3, 11])).toEqual(['b', 'a']);
    // Nine keys and more: the other form of the query, the same answers.
    expect(await listed([4, 5, 6, 7, 8, 9, 10, 11, 12])).toEqual(['gated', 'b']);
    expect(await listed([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])).toEqual(['b', 'a']);
    expect(await listed([0, 1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12])).toEqual(['gated', 'b', 'a']);
  });

  it('a chunk score that JSON cannot hold (NaN, Infinity) is refused with its capture alone, as the schema refused it before; the rest of the batch is written', async () => {
    const store = newStore();
    const nan = sampleCapture('nan', { chunks: [scoredChunk('a#1', Number.NaN, 0.1, 1)] });
    const result = await store.writeRawCaptures([sampleCapture('fine'), nan, sampleCapture('also-fine', { withheldChunks: [scoredChunk('b#2', 0.5, Infinity, 1)] })], { redactionKey: null, limits: null, returnStored: false });
    expect(result.outcomes.map((outcome) => outcome.kind)).toEqual(['written', 'refused', 'refused']);
    expect(result.outcomes[1]).toMatchObject({ error: { message: "a captured chunk's score must be a finite number, got NaN" } });
    expect(result.outcomes[2]).toMatchObject({ error: { message: "a captured chunk's fusedScore must be a finite number, got Infinity" } });
    expect((await store.getCapture('fine'))!.capture).toEqual(sampleCapture('fine'));
    expect(await store.getCapture('nan')).toBeUndefined();
    await expect(store.writeCaptures([nan])).rejects.toThrow(/score must be a finite number/);
  });

  it('a reference to evidence the file lacks (a file edited by hand) marks that capture unreadable, naming what is missing, and fails no read of the captures beside it', async () => {
    const store = newStore();
    const whole = sampleCapture('whole', { chunks: [scoredChunk('b#2', 0.5, 0.1, 1)] });
    await store.writeCaptures([sampleCapture('edited', { chunks: [scoredChunk('a#1', 0.4, 0.2, 1), scoredChunk('c#3', 0.3, 0.1, 2)] }), whole]);
    store.db.prepare(`DELETE FROM evidence WHERE chunk_id = 'a#1'`).run();
    const { capture } = (await store.getCapture('edited'))!;
    expect(capture.unreadable).toBe('capture edited names evidence 1, which this store file lacks (was the file edited by hand?)');
    // Only what could be read, and never passed off as the whole capture.
    expect(capture.chunks.map((item) => item.chunkId)).toEqual(['c#3']);
    expect((await store.getCapture('whole'))!.capture).toEqual(whole);
    const listed = await store.listCaptures({ limit: 10 });
    expect(listed.map((entry) => [entry.capture.traceId, entry.capture.unreadable])).toEqual([
      ['whole', undefined],
      ['edited', capture.unreadable],
    ]);
  });
});

describe('capture store evidence ids (schema 9)', () => {

  it('a schema-8 file is migrated: each hex key in chunk_refs becomes its evidence row’s id, the numbers keep their text, and captures read back the same', async () => {
    const path = join(tempDir(), 'captures.db');
    const old = openSqlite({ path, kind: 'capture-store', migrations: CAPTURE_MIGRATIONS.slice(0, 8), configure: registerCaptureFunctions }).db;
    const digest = (item: ReturnType<typeof scoredChunk>) => old.prepare(`SELECT lower(hex(gc_evidence_digest(@chunkId, @document, @title, @section, @updated, @hash, @text)))`).pluck().get(item) as string;
    const items = [scoredChunk('a#1', 0.1 + 0.2, 1 / 61, 2), scoredChunk('b#2', 1 / 3, 0.016129032258064516, 1), scoredChunk('c#3', 2 / 3, 1 / 62, 1)];
    const insertEvidence = old.prepare(`
      INSERT INTO evidence (digest, chunk_id, document, title, section, updated, hash, text) VALUES (gc_evidence_digest(@chunkId, @document, @title, @section, @updated, @hash, @text),
        @chunkId, @document, @title, @section, @updated, @hash, @text)`);
    // Inserted c, a, b: ids follow the old rows' order.
    for (const item of [items[2]!, items[0]!, items[1]!]) insertEvidence.run(item);
    const ref = (item: ReturnType<typeof scoredChunk>, withheld: 0 | 1) => `["${digest(item)}",${item.score},${item.fusedScore},${item.rank},${withheld}]`;
    const missing = 'ab'.repeat(32);
    const rows: [string, string][] = [
      ['answered', `[${ref(items[0]!, 0)},${ref(items[1]!, 0)}]`],
      ['gated', `[${ref(items[2]!, 1)}]`],
      ['bare', '[]'],
      ['edited', `[["${missing}",0.5,0.1,1,0]]`],
    ];
    const insertCapture = old.prepare(`
      INSERT INTO captures (trace_id, request_id, captured_at, captured_ms, route, method, status, latency_ms, query, mode, answer, refused,
        prompt_version, chat_model, retrieval_ms, generation_ms, total_ms, truncated, aborted, chunk_refs)
      VALUES (?, 'r', '2026-03-01T10:00:00.000Z', 0, '/chat', 'POST', 200, 1, 'q', 'rag', 'a', 0, 'p', 'm', 1, 1, 1, 0, 0, ?)`);
    for (const [traceId, refs] of rows) insertCapture.run(traceId, refs);
    const refOfB = ref(items[1]!, 0);
    old.close();

    const store = newStore(path);
    expect(store.db.pragma('user_version', { simple: true })).toBe(CAPTURE_SCHEMA_VERSION);
    const refsOf = (traceId: string) => chunkRefsOf(store, traceId);
    expect(refsOf('answered')).toBe(`[[2,${0.1 + 0.2},${1 / 61},2,0],[3,${1 / 3},0.016129032258064516,1,0]]`);
    expect(refsOf('gated')).toBe(`[[1,${2 / 3},${1 / 62},1,1]]`);
    expect(refsOf('bare')).toBe('[]');
    expect(refsOf('edited')).toBe(`[["${missing}",0.5,0.1,1,0]]`);
    const read = (await store.getCapture('answered'))!.capture;
    expect(read.chunks.map((item) => [item.chunkId, item.score, item.fusedScore, item.rank, item.text])).toEqual(items.slice(0, 2).map((item) => [item.chunkId, item.score, item.fusedScore, item.rank, item.text]));
    expect((await store.getCapture('gated'))!.capture.withheldChunks!.map((item) => item.chunkId)).toEqual(['c#3']);
    expect((await store.getCapture('edited'))!.capture).toMatchObject({ chunks: [], unreadable: `capture edited names evidence ${missing}, which this store file lacks (was the file edited by hand?)` });
    // A process still running schema-8 code writes hex keys into the migrated file (a rolling upgrade): read by digest.
    store.db.prepare(`UPDATE captures SET chunk_refs = ? WHERE trace_id = 'bare'`).run(`[${refOfB},[2,0.5,0.1,3,1]]`);
    const mixed = (await store.getCapture('bare'))!.capture;
    expect([mixed.chunks.map((item) => [item.chunkId, item.score]), mixed.withheldChunks!.map((item) => [item.chunkId, item.rank])]).toEqual([[['b#2', 1 / 3]], [['a#1', 3]]]);
    // A capture written now of the same chunks names the same rows, with the same text.
    await store.writeCaptures([sampleCapture('answered-again', { chunks: items.slice(0, 2) })]);
    expect(refsOf('answered-again')).toBe(refsOf('answered'));
    expect(store.db.prepare(`SELECT count(*) FROM evidence`).pluck().get()).toBe(3);
    expect(store.db.pragma('integrity_check', { simple: true })).toBe('ok');
  });

  it('a store reopened on a file finds the evidence rows already there by digest: no duplicate rows, the same ids', async () => {
    const path = join(tempDir(), 'captures.db');
    const items = [scoredChunk('a#1', 0.5, 0.1, 1), scoredChunk('b#2', 0.25, 0.05, 2)];
    const first = newStore(path);
    await first.writeCaptures([sampleCapture('one', { chunks: items })]);
    await first.close();
    const second = newStore(path);
    await second.writeCaptures([sampleCapture('two', { chunks: [...items].reverse() })]);
    const refsOf = (traceId: string) => chunkRefsOf(second, traceId);
    expect(refsOf('one')).toBe('[[1,0.5,0.1,1,0],[2,0.25,0.05,2,0]]');
    expect(refsOf('two')).toBe('[[2,0.25,0.05,2,0],[1,0.5,0.1,1,0]]');
    expect(second.db.prepare(`SELECT count(*) FROM evidence`).pluck().get()).toBe(2);
    expect((await second.getCapture('two'))!.capture.chunks.map((item) => item.chunkId)).toEqual(['b#2', 'a#1']);
  });

  it('a file migrated by a newer groundcheck while this store has it open (a rolling upgrade): each capture is refused with a message saying so, never written in the older form', async () => {
    const path = join(tempDir(), 'captures.db');
    const store = newStore(path);
    await store.writeCaptures([sampleCapture('before')]);
    const newer = new Database(path);
    newer.pragma(`user_version = ${CAPTURE_SCHEMA_VERSION + 1}`);
    newer.close();
    const result = await store.writeRawCaptures([sampleCapture('after-1'), sampleCapture('after-2')], { redactionKey: null, limits: null, returnStored: false });
    expect(result.outcomes.map((outcome) => outcome.kind)).toEqual(['refused', 'refused']);
    expect(result.outcomes[0]).toMatchObject({ error: { message: `the capture store file has schema version ${CAPTURE_SCHEMA_VERSION + 1}, but this process writes version ${CAPTURE_SCHEMA_VERSION}: another process migrated it; restart this one on the same groundcheck version` } });
    expect(await store.captureCount()).toBe(1);
  });

  it('a failed write forgets the ids of the evidence rows it inserted: the next write inserts them again instead of naming rows that were rolled back', async () => {
    const store = newStore();
    const fresh = scoredChunk('new#1', 0.5, 0.1, 1);
    // The second capture's NaN fails the whole write when written through the plain path.
    await expect(store.writeCaptures([sampleCapture('first', { chunks: [fresh] }), sampleCapture('bad', { chunks: [scoredChunk('z#9', Number.NaN, 0.1, 1)] })])).rejects.toThrow(/finite number/);
    expect(store.db.prepare(`SELECT count(*) FROM evidence`).pluck().get()).toBe(0);
    await store.writeCaptures([sampleCapture('first', { chunks: [fresh] })]);
    expect((await store.getCapture('first'))!.capture.chunks.map((item) => item.chunkId)).toEqual(['new#1']);
  });
});
