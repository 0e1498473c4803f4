import Database from 'better-sqlite3';
import request from 'supertest';
import { unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sampleCapture } from '../../test-support/capture-samples.js';
import { chatApp, memoryLogger, metricValue } from '../../test-support/capture-helpers.js';
import { handbookIndex, onCleanup, tempDir } from '../../test-support/fixtures.js';
import { createRagPipeline } from '../../rag/pipeline.js';
import { MockChatModel } from '../../testing/index.js';
import { createCaptureWriter } from '../capture-writer.js';
import { captureRag } from '../middleware.js';
import { createCaptureMetrics } from '../metrics.js';
import { createRedactor } from '../redact.js';
import { openSqliteCaptureStore, type OpenCaptureStoreOptions, type SqliteCaptureStore } from '../store.js';
import { DEFAULT_CAPTURE_LIMITS } from '../to-capture.js';
import type { Capture } from '../types.js';

// captureRag's writes to a SQLite store go to the store's writer thread, which redacts, caps and
// writes them on its own connection: the same rows as on the caller's thread, nothing lost when
// the thread dies, and a lock held elsewhere waited out there.

function storeAt(path: string, options: OpenCaptureStoreOptions = {}) {
  const store = openSqliteCaptureStore({ path, backgroundCheckpoints: false, writerThread: true, ...options });
  onCleanup(() => void store.close());
  return store;
}

function writerFor(store: ReturnType<typeof storeAt>, options: { onWritten?: (captures: readonly Capture[]) => void } = {}) {
  const metrics = createCaptureMetrics();
  const { logger, lines } = memoryLogger();
  const redactor = createRedactor({ key: store.redactionKey });
  const writer = createCaptureWriter({
    store,
    metrics,
    logger,
    captureLogLevel: 'info',
    // Never called when the store prepares the captures: a call here fails the test.
    redact: () => {
      throw new Error('redacted on the request thread');
    },
    defaultRedaction: { key: undefined },
    limits: { ...DEFAULT_CAPTURE_LIMITS, maxAnswerChars: 40 },
    maxQueue: 1000,
    onWritten: options.onWritten,
  });
  return { writer, metrics, lines, redactor };
}

const personal = (traceId: string, overrides: Partial<Capture> = {}) =>
  sampleCapture(traceId, { query: `Mail jo.bloggs@example.com or call 07700 900123 about ${traceId}`, answer: 'Write to hr@example.com.', ...overrides });

describe('the capture writer thread', () => {
  it('captureRag over HTTP with a writerThread store: the capture is written by the thread, redacted under the store key', async () => {
    const store = storeAt(join(tempDir(), 'captures.db'));
    const pipeline = createRagPipeline({ index: await handbookIndex(), chat: new MockChatModel({ text: 'Write to privacy@harbourline.co.uk.' }) });
    const { logger } = memoryLogger();
    const { app, capture } = chatApp(pipeline, { store, logger });
    const response = await request(app).post('/api/chat').send({ message: 'How many weeks of parental leave does a birth parent get?' });
    expect(response.status).toBe(200);
    await capture.flush();
    expect(store.backgroundThreadIds()).toHaveLength(1);
    const stored = (await store.getCapture(response.body.traceId as string))!.capture;
    const redactor = createRedactor({ key: store.redactionKey });
    expect(stored.query).toBe('How many weeks of parental leave does a birth parent get?');
    expect(stored.answer).toBe(redactor.redactText('Write to privacy@harbourline.co.uk.'));
    expect(stored.answer).not.toContain('@');
    expect(stored.chunks.length).toBeGreaterThan(0);
    await capture.close();
  });

  it('durable: true with the writer thread: the capture is in the store when the client has the response', async () => {
    const store = storeAt(join(tempDir(), 'captures.db'));
    const pipeline = createRagPipeline({ index: await handbookIndex(), chat: new MockChatModel({ text: 'Twenty weeks at full pay.' }) });
    const { app, capture } = chatApp(pipeline, { store, durable: true, logger: memoryLogger().logger });
    const response = await request(app).post('/api/chat').send({ message: 'How many weeks of parental leave does a birth parent get?' });
    expect(response.status).toBe(200);
    expect((await store.getCapture(response.body.traceId as string))?.capture).toMatchObject({ traceId: response.body.traceId, answer: 'Twenty weeks at full pay.' });
    expect(store.backgroundThreadIds()).toHaveLength(1);
    expect(capture.queued).toBe(0);
    await capture.close();
  });

  it("captureRag({ store: path, writerThread: true }) opens the store with its writer thread; with a store object the option is refused, naming where it goes", async () => {
    const path = join(tempDir(), 'captures.db');
    const capture = captureRag({ store: path, writerThread: true, logger: memoryLogger().logger });
    onCleanup(() => void (capture.store as SqliteCaptureStore).close());
    const store = capture.store as SqliteCaptureStore;
    const written = await store.writeRawCaptures([personal('via-option')], { redactionKey: store.redactionKey, limits: null, returnStored: false });
    expect(written.outcomes.map((outcome) => outcome.kind)).toEqual(['written']);
    expect(store.backgroundThreadIds()).toHaveLength(2);
    expect(() => captureRag({ store, writerThread: true })).toThrow(/option writerThread true is invalid: it applies when captureRag opens the store from a path; for a store you open, pass writerThread to openSqliteCaptureStore/);
    expect(() => captureRag({ store: path, writerThread: 'yes' as unknown as boolean })).toThrow(/option writerThread "yes" is invalid: use true or false/);
    await capture.close();
  });

  it('redacts, caps and writes on a thread of its own, giving the rows the caller-thread path gives', async () => {
    const folder = tempDir();
    const threaded = storeAt(join(folder, 'threaded.db'));
    const { writer, metrics, lines, redactor } = writerFor(threaded);
    const captures = [personal('t1'), personal('t2', { answer: 'x'.repeat(100) })];
    writer.enqueue(captures);
    await writer.flush();

    expect(threaded.backgroundThreadIds()).toHaveLength(1);
    expect(threaded.backgroundThreadIds()[0]).not.toBe(process.pid);
    const stored = (await threaded.getCapture('t1'))!.capture;
    expect(stored.query).toBe(redactor.redactText(captures[0]!.query));
    expect(stored.query).not.toContain('example.com');
    expect(stored.answer).toBe(redactor.redactText('Write to hr@example.com.'));
    const capped = (await threaded.getCapture('t2'))!.capture;
    expect(capped).toMatchObject({ truncated: true });
    expect(capped.answer.length).toBeLessThanOrEqual(40);
    expect(await metricValue(metrics.captures)).toBe(2);
    // The log line tells the stored form: the capped answer's length, and that it was cut.
    const logged = lines.filter((line) => line.event === 'rag.capture').map((line) => line.capture as { truncated: boolean; answerLength: number });
    expect(logged).toEqual([
      expect.objectContaining({ truncated: false, answerLength: stored.answer.length }),
      expect.objectContaining({ truncated: true, answerLength: capped.answer.length }),
    ]);

    // The same captures through the caller's thread (a store of the same key): the same rows.
    const inline = storeAt(join(folder, 'inline.db'), { writerThread: false });
    const sameKey = await inline.writeRawCaptures(captures, { redactionKey: threaded.redactionKey, limits: { ...DEFAULT_CAPTURE_LIMITS, maxAnswerChars: 40 }, returnStored: false });
    expect(sameKey.outcomes.map((outcome) => outcome.kind)).toEqual(['written', 'written']);
    expect(inline.backgroundThreadIds()).toEqual([]);
    for (const id of ['t1', 't2']) expect((await inline.getCapture(id))!.capture).toEqual((await threaded.getCapture(id))!.capture);
    await writer.close(1000);
  });

  it('the thread checks the file before and after each write: a deleted file fails the batch as file_deleted, and it is written into the recreated file', async () => {
    const folder = tempDir();
    const path = join(folder, 'moved.db');
    const store = storeAt(path);
    const options = { redactionKey: store.redactionKey, limits: DEFAULT_CAPTURE_LIMITS, returnStored: false };
    await store.writeRawCaptures([personal('before')], options);
    expect(store.backgroundThreadIds()).toHaveLength(1);
    unlinkSync(path);
    // Seen by the running thread (its code names the change), not by a stat on this thread.
    const failed = await store.writeRawCaptures([personal('after')], options).then(
      () => null,
      (error: unknown) => error as { reason?: string; cause?: { code?: string } },
    );
    expect(failed).toMatchObject({ reason: 'file_deleted', cause: { code: 'GROUNDCHECK_FILE_DELETED' } });
    expect(store.health()).toMatchObject({ status: 'degraded', reason: 'file_deleted' });
    // The store reopens its path on the next write; the batch goes into the new file.
    const written = await store.writeRawCaptures([personal('after')], options);
    expect(written.outcomes.map((outcome) => outcome.kind)).toEqual(['written']);
    expect(await store.getCapture('after')).toBeDefined();
    expect(await store.getCapture('before')).toBeUndefined();
  });

  it('options are posted to the thread only when they change, and a change reaches it: each batch is redacted under its own key', async () => {
    const store = storeAt(join(tempDir(), 'keys.db'));
    const base = { limits: DEFAULT_CAPTURE_LIMITS, returnStored: false };
    await store.writeRawCaptures([personal('a1')], { ...base, redactionKey: 'first-store-key-0123456789' });
    await store.writeRawCaptures([personal('a2')], { ...base, redactionKey: 'first-store-key-0123456789' });
    await store.writeRawCaptures([personal('b1')], { ...base, redactionKey: 'second-store-key-0123456789' });
    const query = async (id: string) => (await store.getCapture(id))!.capture.query;
    // The same key gives the same placeholder for the same address; another key another one.
    const tokenOf = (text: string) => /\[email:[^\]]*\]/.exec(text)?.[0];
    expect(tokenOf(await query('a1'))).toBeDefined();
    expect(tokenOf(await query('a2'))).toBe(tokenOf(await query('a1')));
    expect(tokenOf(await query('b1'))).not.toBe(tokenOf(await query('a1')));
    expect(await query('b1')).toBe(createRedactor({ key: 'second-store-key-0123456789' }).redactText(personal('b1').query));
  });

  it('a capture the redaction chokes on is lost alone and counted; one the schema refuses is refused alone', async () => {
    const store = storeAt(join(tempDir(), 'captures.db'));
    const { writer, metrics, lines } = writerFor(store);
    const choking = { ...personal('bad-text'), answer: 42 as unknown as string };
    const refused = { ...personal('bad-row'), requestId: null as unknown as string };
    writer.enqueue([personal('ok-1'), choking, refused, personal('ok-2')]);
    await writer.flush();

    expect(await store.captureCount()).toBe(2);
    expect(await store.getCapture('ok-1')).toBeDefined();
    expect(await store.getCapture('ok-2')).toBeDefined();
    expect(await metricValue(metrics.captureFailures, { reason: 'build' })).toBe(1);
    expect(await metricValue(metrics.captureFailures, { reason: 'store' })).toBe(1);
    const failed = lines.filter((line) => line.event === 'rag.capture.failed');
    expect(failed.map((line) => line.traceId)).toEqual(['bad-text', 'bad-row']);
    await writer.close(1000);
  });

  it('onWritten with a parameter gets the captures as stored (redacted on the thread); without one it is called with none', async () => {
    const store = storeAt(join(tempDir(), 'captures.db'));
    const received: (readonly Capture[])[] = [];
    const { writer, redactor } = writerFor(store, { onWritten: (captures) => received.push(captures) });
    writer.enqueue([personal('t1')]);
    await writer.flush();
    expect(received).toHaveLength(1);
    expect(received[0]!.map((capture) => capture.query)).toEqual([redactor.redactText(personal('t1').query)]);
    await writer.close(1000);

    let calls: unknown[][] = [];
    const nudged = writerFor(store, {
      onWritten: function nudge() {
        // eslint-disable-next-line prefer-rest-params
        calls.push([...arguments]);
      },
    });
    nudged.writer.enqueue([personal('t2'), personal('t3')]);
    await nudged.writer.flush();
    expect(calls).toEqual([[]]);
    expect(await store.captureCount()).toBe(3);
    calls = [];
    await nudged.writer.close(1000);
  });

  it('a writer thread that dies mid-write loses nothing: the batch is written again, on a new thread, then on the caller’s after three deaths', async () => {
    const path = join(tempDir(), 'captures.db');
    const store = storeAt(path, { busyTimeoutMs: 300 });
    const { writer, metrics } = writerFor(store);
    writer.enqueue([personal('first')]);
    await writer.flush();
    const other = new Database(path);
    onCleanup(() => other.close());
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    onCleanup(() => void process.off('warning', onWarning));
    for (let round = 0; round < 3; round++) {
      expect(store.backgroundThreadIds()).toHaveLength(1);
      // The thread is inside SQLite, waiting for the lock, when it dies: its write is in flight.
      other.exec('BEGIN IMMEDIATE');
      const writing = writer.writeNow([personal(`in-flight-${round}`)]);
      await new Promise((resolve) => setTimeout(resolve, 50));
      await store.crashWriterThreadForTests();
      other.exec('COMMIT');
      await writing;
      await writer.flush();
      expect(await store.getCapture(`in-flight-${round}`)).toBeDefined();
    }
    expect(await metricValue(metrics.storeDegraded, { reason: 'io_error' })).toBe(3);
    // Three threads died: the store writes on the caller's thread now, and says so once.
    expect(store.backgroundThreadIds()).toEqual([]);
    await expect.poll(() => warnings.filter((warning) => (warning as { code?: string }).code === 'GROUNDCHECK_WRITER_THREAD_FALLBACK').length).toBe(1);
    expect(warnings.find((warning) => (warning as { code?: string }).code === 'GROUNDCHECK_WRITER_THREAD_FALLBACK')!.message).toMatch(/failed 3 times .*written on the caller's thread/);
    writer.enqueue([personal('inline')]);
    await writer.flush();
    expect(await store.captureCount()).toBe(5);
    expect(await metricValue(metrics.captureFailures)).toBe(0);
    expect(writer.health()).toMatchObject({ status: 'ok', queued: 0 });
    await writer.close(1000);
  });

  it('a write lock held past busyTimeoutMs: the store shows busy while the event loop runs on, and every capture is written once it is released', async () => {
    const path = join(tempDir(), 'captures.db');
    const store = storeAt(path, { busyTimeoutMs: 150 });
    const { writer, metrics } = writerFor(store);
    writer.enqueue([personal('first')]);
    await writer.flush();

    const other = new Database(path);
    onCleanup(() => other.close());
    other.exec('BEGIN IMMEDIATE');
    writer.enqueue([personal('during-1'), personal('during-2')]);
    // The thread waits inside SQLite; timers on this thread keep firing meanwhile.
    const started = performance.now();
    let ticks = 0;
    const ticker = setInterval(() => (ticks += 1), 10);
    await expect.poll(() => writer.health(), { timeout: 3000 }).toMatchObject({ status: 'degraded', reason: 'busy', queued: 2 });
    clearInterval(ticker);
    expect(ticks).toBeGreaterThanOrEqual(Math.floor((performance.now() - started) / 10 / 3));
    expect(await metricValue(metrics.storeDegraded, { reason: 'busy' })).toBe(1);
    other.exec('COMMIT');
    await writer.flush();
    expect(await store.captureCount()).toBe(3);
    expect(writer.health()).toMatchObject({ status: 'ok', queued: 0 });
    // The failed batch made the hand-over start its chunk numbering afresh: the chunk sent whole
    // with the first capture, then by number, is stored the same in all three.
    const chunksOf = async (traceId: string) => (await store.getCapture(traceId))!.capture.chunks;
    const first = await chunksOf('first');
    expect(first.map((chunk) => chunk.chunkId)).toEqual(personal('first').chunks.map((chunk) => chunk.chunkId));
    expect(await chunksOf('during-1')).toEqual(first);
    expect(await chunksOf('during-2')).toEqual(first);
    await writer.close(1000);
  });
});
