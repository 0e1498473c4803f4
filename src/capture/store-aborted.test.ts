import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { onCleanup, tempDir } from '../test-support/fixtures.js';
import { CAPTURE_MIGRATIONS } from './sqlite-store/schema.js';
import { CAPTURE_SCHEMA_VERSION, openSqliteCaptureStore } from './store.js';
import { plainCapture } from '../test-support/capture-helpers.js';

const RECORD = { query: 'What is the mileage rate?', chunks: [{ id: 'travel#mileage', text: 'Cars: 45p per mile.' }], answer: 'Cars: 45p per mile.' };

/** Schema 3: whether the client received the whole answer, and when its first streamed text went out. */
describe('capture store: aborted captures and time to first token', () => {
  function newStore(path = join(tempDir(), 'captures.db')) {
    const store = openSqliteCaptureStore({ path, backgroundCheckpoints: false });
    onCleanup(() => void store.close());
    return store;
  }
  const claim = async (store: ReturnType<typeof newStore>, judgeVersion = 'heuristic:heuristic:h1') =>
    (await store.claimPending({ judgeVersion, settledBefore: Date.now(), limit: 10, owner: 'w', leaseMs: 60_000, now: Date.now() })).map((capture) => capture.traceId);

  it('stores aborted and firstTokenMs; an aborted capture is never queued for the judge', async () => {
    const store = newStore();
    const hungUp = plainCapture({ ...RECORD, answer: 'Cars: 45p' }, 'hung-up', { aborted: true, firstTokenMs: 12.25 });
    await store.writeCaptures([plainCapture(RECORD, 'complete', { firstTokenMs: 42.5 }), hungUp]);
    expect((await store.getCapture('hung-up'))!.capture).toEqual(hungUp);
    expect((await store.getCapture('complete'))!.capture).toMatchObject({ aborted: false, firstTokenMs: 42.5 });
    expect((await store.pendingCount('heuristic:heuristic:h1'))).toBe(1);
    expect(await claim(store)).toEqual(['complete']);
    expect((await store.pendingCount('heuristic:heuristic:h1'))).toBe(1);
  });

  it('a file of schema 2 is migrated: its captures read back as complete, not streamed', async () => {
    const path = join(tempDir(), 'captures.db');
    const raw = new Database(path);
    // The digest function migration 2 calls; the tables are empty, so it never runs.
    raw.function('gc_evidence_digest', { varargs: true }, () => Buffer.alloc(32));
    for (const migration of CAPTURE_MIGRATIONS.filter((candidate) => candidate.version <= 2)) raw.exec(migration.up as string);
    raw.pragma('application_id = 1195590449');
    raw.pragma('user_version = 2');
    raw.prepare(`INSERT INTO meta (key, value) VALUES ('created_at', '2026-03-01T09:00:00.000Z')`).run();
    raw.prepare(`
      INSERT INTO captures (trace_id, request_id, captured_at, captured_ms, route, method, status, latency_ms, query, mode, answer, refused,
        refusal_reason, prompt_version, chat_model, embedding_model, input_tokens, output_tokens, total_tokens, cost_usd, retrieval_ms, generation_ms, total_ms, truncated)
      VALUES ('old', 'r', '2026-03-01T10:00:00.000Z', 1772359200000, '/api/chat', 'POST', 200, 3, 'q?', 'rag', 'a.', 0, NULL, 'grounded-v2', 'local', NULL,
        NULL, NULL, NULL, NULL, 1, 1, 2, 0)`).run();
    raw.close();

    const store = newStore(path);
    expect(store.db.pragma('user_version', { simple: true })).toBe(CAPTURE_SCHEMA_VERSION);
    expect((await store.getCapture('old'))!.capture).toMatchObject({ traceId: 'old', aborted: false, firstTokenMs: null });
    expect(await claim(store)).toEqual(['old']);
  });
});
