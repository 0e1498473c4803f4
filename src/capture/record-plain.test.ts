import { existsSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import express from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { textHash } from '../contract/hash.js';
import type { PlainTrace } from '../contract/plain-trace.js';
import { REFUSAL_SENTENCE } from '../contract/refusal.js';
import type { RagTrace } from '../contract/trace.js';
import { createHeuristicFaithfulnessJudge } from '../judge/index.js';
import { memoryLogger, metricValue } from '../test-support/capture-helpers.js';
import { onCleanup, tempDir } from '../test-support/fixtures.js';
import { createCaptureMetrics } from './metrics.js';
import { captureRag, type CaptureRagOptions } from './middleware.js';
import { DEFAULT_CAPTURE_DB_PATH, openCaptureStore, SqliteCaptureStore } from './store.js';
import type { Capture } from './types.js';
import { verdictOf } from './verdict.js';
import { createJudgeWorker } from './worker.js';

/** An app that is not built with groundcheck: its own retrieval, its own answer, its own chunk ids. */
const GOOD: PlainTrace = {
  query: 'How long is probation?',
  chunks: [
    { id: 'hr-7', text: 'Probation lasts six months for every new employee.', title: 'HR Guide', score: 0.82 },
    { id: 'hr-9', text: 'The notice period during probation is one week.', updated: '2026-02-01' },
  ],
  answer: 'Probation lasts six months for every new employee.',
  model: 'acme-gpt',
  usage: { inputTokens: 120, outputTokens: 11 },
};

function storeIn(dir = tempDir()) {
  const store = openCaptureStore({ path: join(dir, 'captures.db') });
  onCleanup(() => void store.close());
  return store;
}

/** An app whose one route records each body it is given in one request (so they share one write batch). */
function recordingApp(options: CaptureRagOptions) {
  const capture = captureRag(options);
  const app = express();
  app.use(capture);
  app.post('/record', express.json(), (req, res) => {
    const ids = (req.body.records as unknown[]).map((value) => req.rag!.record(value as PlainTrace));
    res.json({ ids });
  });
  return { app, capture };
}

describe('req.rag.record with the plain shape of any app', () => {
  it('one bad object in a batch of three: the two good ones are stored, the bad one is one build failure, logged with its reason', async () => {
    const store = storeIn();
    const metrics = createCaptureMetrics();
    const { logger, lines } = memoryLogger();
    const batches: number[] = [];
    const { app, capture } = recordingApp({ store: { writeCaptures: (captures) => (batches.push(captures.length), store.writeCaptures(captures)) }, metrics, logger });
    const bad = { query: 'Where is the office?', chunks: [{ id: 'loc-1', text: 42 }], answer: 'In Leeds.' };
    const second = { ...GOOD, query: 'What is the notice period during probation?', answer: 'One week.' };

    const response = await request(app).post('/record').send({ records: [GOOD, bad, second] });
    expect(response.status).toBe(200);
    await capture.flush();

    const [firstId, badId, secondId] = response.body.ids as (string | null)[];
    expect(badId).toBeNull();
    expect(batches).toEqual([2]);
    expect((await store.captureCount())).toBe(2);
    expect(await metricValue(metrics.captureFailures, { reason: 'build' })).toBe(1);
    expect(await metricValue(metrics.captures)).toBe(2);
    expect(lines.filter((line) => line.event === 'rag.capture.rejected')).toEqual([
      expect.objectContaining({ level: 50, reason: 'chunks.0.text: Invalid input: expected string, received number' }),
    ]);
    // The app's chunks exactly, its ids and scores, no [Source: …] line, hashes of its own text.
    const stored = (await store.getCapture(firstId!))!.capture;
    expect(stored).toMatchObject({
      query: GOOD.query,
      answer: GOOD.answer,
      route: '/record',
      status: 200,
      aborted: false,
      firstTokenMs: null,
      refused: false,
      promptVersion: 'app',
      models: { chat: 'acme-gpt', embedding: null },
      usage: { inputTokens: 120, outputTokens: 11, totalTokens: null },
    });
    expect(stored.chunks).toEqual([
      { chunkId: 'hr-7', document: 'hr-7', title: 'HR Guide', section: '', updated: null, text: GOOD.chunks[0]!.text, hash: textHash(GOOD.chunks[0]!.text), score: 0.82, fusedScore: 0.82, rank: 1 },
      { chunkId: 'hr-9', document: 'hr-9', title: '', section: '', updated: '2026-02-01', text: GOOD.chunks[1]!.text, hash: textHash(GOOD.chunks[1]!.text), score: 0, fusedScore: 0, rank: 2 },
    ]);
    expect((await store.getCapture(secondId!))!.capture.answer).toBe('One week.');
  });

  it('a capture the store refuses is lost alone: the rest of its batch is written, one store failure is counted', async () => {
    const store = storeIn();
    const metrics = createCaptureMetrics();
    const { logger, lines } = memoryLogger();
    const capture = captureRag({ store, metrics, logger });
    const app = express();
    app.use(capture);
    const traces: RagTrace[] = [];
    app.get('/three', (req, res) => {
      for (const query of ['first?', 'second?', 'third?']) {
        const id = req.rag!.record({ ...GOOD, query });
        traces.push(req.rag!.traces.find((trace) => trace.id === id)!);
      }
      // A trace with a timing that is not a number: it passes record()'s checks, and SQLite's
      // NOT NULL constraint refuses it when the batch is written.
      traces[1]!.timings.retrievalMs = Number.NaN;
      res.json({ ok: true });
    });
    expect((await request(app).get('/three')).status).toBe(200);
    await capture.flush();

    expect((await store.captureCount())).toBe(2);
    expect([(await store.getCapture(traces[0]!.id))?.capture.query, (await store.getCapture(traces[1]!.id)), (await store.getCapture(traces[2]!.id))?.capture.query]).toEqual(['first?', undefined, 'third?']);
    expect(await metricValue(metrics.captureFailures, { reason: 'store' })).toBe(1);
    expect(await metricValue(metrics.captures)).toBe(2);
    expect(lines.filter((line) => line.event === 'rag.capture.failed')).toEqual([
      expect.objectContaining({ traceId: traces[1]!.id, err: expect.objectContaining({ message: expect.stringMatching(/NOT NULL/) }) }),
    ]);
  });

  it('a redaction that throws on one capture loses that one only (a build failure)', async () => {
    const store = storeIn();
    const metrics = createCaptureMetrics();
    const redact = (captured: Capture): Capture => {
      if (captured.query.includes('poison')) throw new Error('redactor choked');
      return captured;
    };
    const { app, capture } = recordingApp({ store, metrics, redact, logger: memoryLogger().logger });
    await request(app).post('/record').send({ records: [GOOD, { ...GOOD, query: 'poison?' }, { ...GOOD, query: 'third?' }] });
    await capture.flush();
    expect((await store.captureCount())).toBe(2);
    expect(await metricValue(metrics.captureFailures, { reason: 'build' })).toBe(1);
  });

  it('a plain refusal in the app’s own words is a refusal; captured plain traces are judged like any other, without [Source: …] lines', async () => {
    const store = storeIn();
    const { logger } = memoryLogger();
    const { app, capture } = recordingApp({ store, logger, refusalSentence: 'Sorry, the handbook does not cover that.' });
    const refusal = { query: 'Can I bring my dog?', chunks: [], answer: 'Sorry, the handbook does not cover that.' };
    const response = await request(app).post('/record').send({ records: [GOOD, refusal, { ...refusal, answer: REFUSAL_SENTENCE }] });
    await capture.flush();
    const [answeredId, refusedId, standardId] = response.body.ids as string[];
    expect([(await store.getCapture(refusedId!))!.capture.refused, (await store.getCapture(standardId!))!.capture.refused, (await store.getCapture(answeredId!))!.capture.refused]).toEqual([true, true, false]);

    const worker = createJudgeWorker({ store, judge: createHeuristicFaithfulnessJudge(), settleMs: 0, pollMs: 10, logger });
    worker.start();
    onCleanup(() => void worker.stop());
    await worker.whenIdle();
    const judged = (await store.getCapture(answeredId!))!;
    expect(judged.judgments).toHaveLength(1);
    expect(judged.judgments[0]!.claims.map((claim) => [claim.verdict, claim.evidenceChunkId])).toEqual([['verified', 'hr-7']]);
    expect(verdictOf(judged.capture, judged.judgments[0]!, true).verdict).toBe('correct');
  });

  it('captureRag() with no arguments writes to the default store, .groundcheck/captures.db under the working folder', async () => {
    const dir = tempDir();
    const previous = process.cwd();
    process.chdir(dir);
    onCleanup(() => process.chdir(previous));
    const capture = captureRag();
    onCleanup(() => (capture.store as SqliteCaptureStore).close());
    expect(capture.store).toBeInstanceOf(SqliteCaptureStore);
    const app = express();
    app.use(capture);
    let id: string | null = null;
    app.get('/', (req, res) => {
      id = req.rag!.record(GOOD);
      res.end();
    });
    await request(app).get('/');
    await capture.flush();
    expect(existsSync(join(dir, DEFAULT_CAPTURE_DB_PATH))).toBe(true);
    expect((await (capture.store as SqliteCaptureStore).getCapture(id!))!.capture.query).toBe(GOOD.query);
  });

  it('a client that hangs up before a JSON answer is sent: the capture is stored aborted, and is not judged', async () => {
    const store = storeIn();
    const capture = captureRag({ store, logger: memoryLogger().logger });
    const app = express();
    app.use(capture);
    let arrived!: () => void;
    const handling = new Promise<void>((resolve) => (arrived = resolve));
    let id: string | null = null;
    app.get('/slow', (req, res) => {
      id = req.rag!.record(GOOD);
      arrived();
      // The answer is ready only after the client gave up.
      res.on('close', () => res.json({ late: true }));
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => server.once('listening', resolve));
    onCleanup(() => server.close());
    const client = httpRequest(`http://127.0.0.1:${(server.address() as AddressInfo).port}/slow`);
    client.on('error', () => undefined);
    client.end();
    await handling;
    client.destroy();
    await expect.poll(async () => capture.queued + (await store.captureCount())).toBe(1);
    await capture.flush();
    expect((await store.getCapture(id!))!.capture).toMatchObject({ aborted: true, firstTokenMs: null });
    expect(verdictOf((await store.getCapture(id!))!.capture, null, true).verdict).toBe('aborted');
    expect((await store.pendingCount('heuristic:heuristic:h1'))).toBe(0);
  });
});
