import pg from 'pg';
import request from 'supertest';
import { expect, it } from 'vitest';
import { createRagPipeline } from '../../rag/pipeline.js';
import { chatApp, memoryLogger } from '../../test-support/capture-helpers.js';
import { judgmentFor, sampleCapture } from '../../test-support/capture-samples.js';
import { runCli } from '../../test-support/cli.js';
import { handbookIndex, onCleanup } from '../../test-support/fixtures.js';
import { describeWithPostgres } from '../../test-support/postgres.js';
import { createLlmFaithfulnessJudge } from '../../judge/index.js';
import { createOpenAI } from '../../providers/openai.js';
import { errorReply, MockChatModel, startMockOpenAIServer } from '../../testing/index.js';
import { judgeVersionOf } from '../types.js';
import { createJudgeWorker } from '../worker.js';
import { createRedactor } from '../redact.js';
import { openCaptureStore } from '../store.js';
import { safeLocation } from './connection.js';
import { POSTGRES_CAPTURE_MIGRATIONS, POSTGRES_CAPTURE_SCHEMA_VERSION } from './schema.js';
import { openPostgresCaptureStore, PostgresCaptureStore } from './store.js';

// What the contract suite does not cover: the Postgres store's own promises (its redaction key,
// migrations, its location, lease give-back) and selecting it by URL.
describeWithPostgres('Postgres capture store (its own behaviour)', (postgres) => {
  async function reopen(schema: string, options: { create?: boolean } = {}): Promise<PostgresCaptureStore> {
    const store = await openPostgresCaptureStore({ url: postgres.url(), schema, maxConnections: 2, ...options });
    onCleanup(() => void store.close());
    return store;
  }

  it('has a redaction key of its own, random at creation and the same after reopening or from another process', async () => {
    const schema = await postgres.newSchema();
    const first = await reopen(schema);
    const key = first.redactionKey;
    expect(key.length).toBeGreaterThanOrEqual(16);
    await first.close();
    expect((await reopen(schema)).redactionKey).toBe(key);
    // Several processes opening one new store at once agree on one key.
    const fresh = await postgres.newSchema();
    const keys = await Promise.all(Array.from({ length: 4 }, async () => (await reopen(fresh)).redactionKey));
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).not.toBe(key);
  });

  it('the redaction key is known once the store is ready, and not before', async () => {
    const store = new PostgresCaptureStore({ url: postgres.url(), schema: await postgres.newSchema(), maxConnections: 1 });
    onCleanup(() => void store.close());
    expect(() => store.redactionKey).toThrow(/not ready yet: await store.ready\(\)/);
    await store.captureCount();
    expect(store.redactionKey).toMatch(/^[\w-]{16,}$/);
  });

  it('migrates with a version table, once however many open it at once; a newer schema or a missing store is refused', async () => {
    const schema = await postgres.newSchema();
    await Promise.all(Array.from({ length: 5 }, () => reopen(schema)));
    const client = new pg.Client({ connectionString: postgres.url(), options: `-c search_path=${schema}` });
    await client.connect();
    onCleanup(() => void client.end());
    expect((await client.query('SELECT version FROM schema_migrations ORDER BY version')).rows).toEqual(POSTGRES_CAPTURE_MIGRATIONS.map(({ version }) => ({ version })));
    await client.query('INSERT INTO schema_migrations (version) VALUES ($1)', [POSTGRES_CAPTURE_SCHEMA_VERSION + 1]);
    await expect(reopen(schema)).rejects.toMatchObject({ code: 'schema_too_new' });
    await expect(reopen(await postgres.newSchema(), { create: false })).rejects.toMatchObject({ code: 'not_found', message: expect.stringMatching(/no capture store at/) });
  });

  it.each([
    ['postgres://app:s3cret@db.internal:5432/captures', undefined, 'postgres://app@db.internal:5432/captures'],
    ['postgresql://app:s3cret@db.internal/captures?sslmode=require&password=s3cret', undefined, 'postgresql://app@db.internal/captures?sslmode=require'],
    ['postgres://app@127.0.0.1:5432/captures', 'tenant_a', 'postgres://app@127.0.0.1:5432/captures (schema tenant_a)'],
  ])('its location hides the password: %s', (url, schema, expected) => {
    expect(safeLocation(url, schema)).toBe(expected);
    const store = new PostgresCaptureStore({ url, ...(schema ? { schema } : {}) });
    onCleanup(() => void store.close());
    expect(store.location).toBe(expected);
    expect(store.location).not.toContain('s3cret');
  });

  it('gives back early only the leases of owners this process stopped; other owners’ leases wait for expiry', async () => {
    const store = await postgres.newStore();
    await store.writeCaptures([sampleCapture('one'), sampleCapture('two'), sampleCapture('three')]);
    const version = 'heuristic:heuristic:h1';
    const now = Date.parse('2026-03-01T11:00:00.000Z');
    const claim = (owner: string) => store.claimPending({ judgeVersion: version, settledBefore: now, limit: 1, owner, leaseMs: 60_000, now });
    const stopped = store.newLeaseOwner();
    const live = store.newLeaseOwner();
    expect(stopped).toMatch(/^pg:[0-9a-f-]{36}$/);
    await store.releaseLeasesOf(stopped);
    // A claim that was in flight when its worker stopped still lands: the lease nobody holds.
    expect((await claim(stopped)).map((capture) => capture.traceId)).toEqual(['one']);
    expect((await claim(live)).map((capture) => capture.traceId)).toEqual(['two']);
    expect((await claim('worker-on-another-host')).map((capture) => capture.traceId)).toEqual(['three']);
    const self = store.newLeaseOwner();
    expect(await store.reclaimAbandonedLeases(now, self)).toEqual([{ owner: stopped, released: 1 }]);
    expect(await store.reclaimAbandonedLeases(now, self)).toEqual([]);
    expect((await claim(self)).map((capture) => capture.traceId)).toEqual(['one']);
  });

  it('openCaptureStore and captureRag({ store }) take a postgres:// URL; the middleware redacts under the store’s key', async () => {
    const url = postgres.url();
    const chat = new MockChatModel({ text: 'Write to privacy@harbourline.co.uk.' });
    const { app, capture } = chatApp(createRagPipeline({ index: await handbookIndex(), chat }), { store: url, logger: memoryLogger().logger });
    expect(capture.store).toBeInstanceOf(PostgresCaptureStore);
    onCleanup(() => void (capture.store as PostgresCaptureStore).close());
    const response = await request(app).post('/api/chat').send({ message: 'Who do I contact about a data subject access request?' });
    await capture.flush();
    const reader = openCaptureStore({ path: url.replace(/^postgres:/, 'postgresql:') as `postgresql://${string}` });
    onCleanup(() => void reader.close());
    const stored = (await reader.getCapture(response.body.traceId as string))!.capture;
    await reader.ready();
    expect(stored.answer).toBe(`Write to ${createRedactor({ key: reader.redactionKey }).placeholder('email', 'privacy@harbourline.co.uk')}.`);
  });

  it('judge-worker --db postgres://… judges every capture once; GROUNDCHECK_CAPTURE_DB selects the store too', async () => {
    const url = postgres.url();
    const store = openCaptureStore({ path: url as `postgres://${string}` });
    onCleanup(() => void store.close());
    await store.writeCaptures([sampleCapture('cli-1'), sampleCapture('cli-2', { capturedAt: '2026-03-01T10:00:01.000Z' })]);
    const worker = await runCli(['judge-worker', '--db', url, '--judge', 'heuristic', '--settle-ms', '0', '--once'], { env: { GROUNDCHECK_LOG_LEVEL: 'warn' } });
    expect(worker.code, worker.stderr).toBe(0);
    expect(worker.stderr).toContain(`judging ${store.location} with the`);
    const version = (await store.getCapture('cli-1'))!.judgments[0]!.judgeVersion;
    expect(await store.judgmentCount(version)).toBe(await store.captureCount());
    expect(await store.pendingCount(version)).toBe(0);
    const again = await runCli(['judge-worker', '--judge', 'heuristic', '--settle-ms', '0', '--once'], { env: { GROUNDCHECK_CAPTURE_DB: url, GROUNDCHECK_LOG_LEVEL: 'warn' } });
    expect(again.stderr).toContain('stored 0 judgment(s)');
    expect(await store.saveJudgment(judgmentFor('cli-1', { judgeVersion: version }))).toBe(false);
  });

  it('the CLI reports an unreachable server or a missing store as an error, with no password in the message', async () => {
    const empty = `${postgres.url()}?options=${encodeURIComponent(`-c search_path=${await postgres.newSchema()}`)}`;
    const missing = await runCli(['judge-worker', '--db', empty, '--once'], { env: {} });
    expect(missing).toMatchObject({ code: 2, stderr: expect.stringMatching(/no capture store at/) });
    const unreachable = await runCli(['drift', '--db', 'postgres://app:s3cret@127.0.0.1:1/nowhere'], { env: {} });
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toMatch(/ECONNREFUSED/);
    expect(unreachable.stderr).not.toContain('s3cret');
  });

  it('with the real worker, a failing judge is retried with backoff; the judge error is stored only after the last attempt', async () => {
    const server = await startMockOpenAIServer({ chat: () => errorReply(500, 'upstream exploded') });
    onCleanup(() => void server.close());
    const store = await postgres.newStore();
    const T0 = Date.parse('2026-03-01T10:00:00.000Z');
    await store.writeCaptures([sampleCapture('flaky', { capturedAt: new Date(T0).toISOString() })]);
    const judge = createLlmFaithfulnessJudge({ chat: createOpenAI({ apiKey: 'test-key', baseURL: server.url, maxRetries: 0 }).chat('gpt-4o-mini') });
    const version = judgeVersionOf(judge.info);
    // The worker's clock moves only when the test moves it: a retry waits until then.
    let now = T0 + 1000;
    const worker = createJudgeWorker({ store, judge, settleMs: 0, pollMs: 10, retryBaseMs: 60_000, retryMaxMs: 60_000, random: () => 0.5, maxAttempts: 3, now: () => now, logger: memoryLogger().logger });
    worker.start();
    onCleanup(() => void worker.stop());
    for (const attempt of [1, 2]) {
      await expect.poll(() => store.attemptsOf('flaky', version), { timeout: 15_000 }).toBe(attempt);
      expect((await store.getCapture('flaky'))!.judgments).toEqual([]);
      expect(await store.pendingCount(version)).toBe(1);
      now += 60_000;
    }
    await expect.poll(async () => (await store.getCapture('flaky'))!.judgments.length, { timeout: 15_000 }).toBe(1);
    expect((await store.getCapture('flaky'))!.judgments[0]).toMatchObject({ judgeVersion: version, status: 'error', attempts: 3, flags: null, error: expect.stringMatching(/500/) });
    expect(await store.pendingCount(version)).toBe(0);
    expect(server.requests.filter((request) => request.path.endsWith('/chat/completions'))).toHaveLength(3);
  });
});
