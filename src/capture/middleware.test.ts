import { parseDocuments } from '../contract/formats.js';
import { retrieve } from '../rag/retrieve.js';
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import express from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createRagPipeline } from '../rag/pipeline.js';
import type { RagTrace } from '../contract/trace.js';
import { chatApp, memoryLogger, metricValue } from '../test-support/capture-helpers.js';
import { handbookIndex, onCleanup, tempDir } from '../test-support/fixtures.js';
import { MockChatModel } from '../testing/index.js';
import { httpLogger } from './logging.js';
import { createCaptureMetrics } from './metrics.js';
import { captureRag, MAX_WRITE_BATCH } from './middleware.js';
import { createRedactor } from './redact.js';
import { openCaptureStore } from './store.js';
import type { Capture, CaptureSink } from './types.js';

function storeIn(dir = tempDir()) {
  const store = openCaptureStore({ path: join(dir, 'captures.db') });
  onCleanup(() => store.close());
  return store;
}

/** The `<document>` blocks of a prompt, in order. */
/** The documents of a generation prompt, read with the contract's parser of the format it was written in. */
function promptDocuments(prompt: string): { id: string; text: string }[] {
  return parseDocuments(prompt);
}

const KEY = 'middleware-test-key-0123456789';

describe('captureRag', () => {
  it("a capture's chunks are exactly the chunks whose text was in the prompt (ids, hashes, text, scores)", async () => {
    const chat = new MockChatModel({ text: 'Twenty weeks at full pay (Leave Policy, updated 2026-01-12).' });
    const pipeline = createRagPipeline({ index: await handbookIndex(), chat });
    const store = storeIn();
    const { logger, lines } = memoryLogger();
    const { app, capture } = chatApp(pipeline, { store, redact: false, logger });

    const response = await request(app).post('/api/chat').send({ message: 'How many weeks of parental leave does a birth parent get?' });
    expect(response.status).toBe(200);
    await capture.flush();

    const stored = await store.getCapture(response.body.traceId as string);
    expect(stored).toBeDefined();
    const prompt = chat.calls[0]!.messages.map((message) => message.content).join('\n');
    const documents = promptDocuments(prompt);
    expect(documents.length).toBeGreaterThan(0);
    expect(stored!.capture.chunks.map((chunk) => ({ id: chunk.chunkId, text: chunk.text }))).toEqual(documents);
    // Scores and ids are those the client was shown; hashes are the index's hashes of that text.
    expect(stored!.capture.chunks.map((chunk) => [chunk.chunkId, Math.round(chunk.score * 10_000) / 10_000])).toEqual(
      (response.body.sources as { chunkId: string; score: number }[]).map((source) => [source.chunkId, source.score]),
    );
    for (const chunk of stored!.capture.chunks) expect(chunk.hash).toBe(pipeline.index.getChunk(chunk.chunkId)!.hash);
    // Similarity, fused score and rank exactly as retrieval computed them (retrieval is deterministic: run it again).
    const again = await retrieve(pipeline.index, 'How many weeks of parental leave does a birth parent get?');
    expect(stored!.capture.chunks.map(({ chunkId, score, fusedScore, rank }) => ({ chunkId, score, fusedScore, rank }))).toEqual(
      again.chunks.map(({ chunkId, score, fusedScore, rank }) => ({ chunkId, score, fusedScore, rank })),
    );
    expect(stored!.capture).toMatchObject({
      traceId: response.body.traceId,
      route: '/api/chat',
      method: 'POST',
      status: 200,
      query: 'How many weeks of parental leave does a birth parent get?',
      mode: 'rag',
      answer: response.body.answer,
      refused: false,
      refusalReason: null,
      models: { chat: 'mock:mock-chat', embedding: 'local:local-hash-v1' },
      usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 },
      truncated: false,
    });
    expect(stored!.capture.latencyMs).toBeGreaterThan(0);

    // One structured log line per capture, without the text (at debug, the default level).
    const captureLines = lines.filter((line) => line.event === 'rag.capture');
    expect(captureLines).toHaveLength(1);
    expect(captureLines[0]).toMatchObject({
      level: 20,
      traceId: response.body.traceId,
      requestId: stored!.capture.requestId,
      capture: {
        route: '/api/chat',
        status: 200,
        mode: 'rag',
        chunkIds: documents.map((document) => document.id),
        scores: (response.body.sources as { score: number }[]).map((source) => source.score),
        refused: false,
        answerLength: (response.body.answer as string).length,
        latencyMs: expect.any(Number),
        truncated: false,
      },
    });
  });

  it('with default redaction the chunks are the prompt chunks with personal data masked, hashes unchanged', async () => {
    const chat = new MockChatModel({ text: 'Write to privacy@harbourline.co.uk.' });
    const pipeline = createRagPipeline({ index: await handbookIndex(), chat });
    const store = storeIn();
    const { app, capture } = chatApp(pipeline, { store, logger: memoryLogger().logger, redactionKey: KEY });
    const response = await request(app).post('/api/chat').send({ message: 'Who do I contact about a data subject access request?' });
    await capture.flush();
    const stored = (await store.getCapture(response.body.traceId as string))!.capture;
    const documents = promptDocuments(chat.calls[0]!.messages.map((message) => message.content).join('\n'));
    const redactor = createRedactor({ key: KEY });
    expect(stored.chunks.map((chunk) => ({ id: chunk.chunkId, text: chunk.text }))).toEqual(documents.map((document) => ({ ...document, text: redactor.redactText(document.text) })));
    expect(documents.some((document) => document.text.includes('privacy@harbourline.co.uk'))).toBe(true);
    // The address in the answer and in the chunk get the same token: the judge can still match them.
    const address = redactor.placeholder('email', 'privacy@harbourline.co.uk');
    expect(stored.answer).toBe(`Write to ${address}.`);
    expect(stored.chunks.some((chunk) => chunk.text.includes(address))).toBe(true);
  });

  it.each([
    ['throws', () => { throw new Error('disk full'); }],
    ['rejects', () => Promise.reject(new Error('disk full'))],
  ])('a store that %s on every write: every request still answers 200, the failure counter rises and an error is logged', async (_name, write) => {
    const pipeline = createRagPipeline({ index: await handbookIndex(), chat: new MockChatModel({ text: 'Forty-five pence per mile.' }) });
    const broken: CaptureSink = { writeCaptures: write as CaptureSink['writeCaptures'] };
    const { logger, lines } = memoryLogger();
    const metrics = createCaptureMetrics();
    const { app, capture } = chatApp(pipeline, { store: broken, logger, metrics });
    const server = app.listen(0, '127.0.0.1');
    onCleanup(() => server.close());

    const responses = await Promise.all(Array.from({ length: 12 }, () => request(server).post('/api/chat').send({ message: 'What is the mileage rate?' })));
    expect(responses.map((response) => response.status)).toEqual(Array(12).fill(200));
    await capture.flush();
    expect(await metricValue(metrics.captureFailures, { reason: 'store' })).toBe(12);
    expect(await metricValue(metrics.captures)).toBe(0);
    const errors = lines.filter((line) => line.event === 'rag.capture.failed');
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.flatMap((line) => line.traceIds as string[]).sort()).toEqual(responses.map((response) => response.body.traceId as string).sort());
    expect(errors[0]).toMatchObject({ level: 50, err: { message: 'disk full' } });
  });

  it('redaction happens before the write: the raw e-mail address never appears in the .db or -wal bytes, nor in the logs', async () => {
    const dir = tempDir();
    const store = storeIn(dir);
    const pipeline = createRagPipeline({ index: await handbookIndex(), chat: new MockChatModel({ text: 'You asked as jane.doe@example.org; call 07700 900123.' }) });
    const { logger, raw } = memoryLogger();
    const app = express();
    app.use(httpLogger(logger));
    const { app: chat, capture } = chatApp(pipeline, { store, logger, redactionKey: KEY });
    app.use(chat);
    const response = await request(app).post('/api/chat?email=jane.doe%40example.org').set('x-user-email', 'jane.doe@example.org').send({ message: 'I am jane.doe@example.org, card 4111111111111111: how do I claim mileage?' });
    expect(response.status).toBe(200);
    await capture.flush();

    const stored = (await store.getCapture(response.body.traceId as string))!.capture;
    const redactor = createRedactor({ key: KEY });
    const email = redactor.placeholder('email', 'jane.doe@example.org');
    expect(stored.query).toBe(`I am ${email}, card ${redactor.placeholder('card', '4111111111111111')}: how do I claim mileage?`);
    expect(stored.answer).toBe(`You asked as ${email}; call ${redactor.placeholder('phone', '07700 900123')}.`);
    for (const file of ['captures.db', 'captures.db-wal']) {
      const path = join(dir, file);
      if (!existsSync(path)) continue;
      const bytes = readFileSync(path);
      expect(bytes.includes('jane.doe@example.org'), file).toBe(false);
      expect(bytes.includes('4111111111111111'), file).toBe(false);
    }
    expect(existsSync(join(dir, 'captures.db-wal'))).toBe(true);
    expect(readFileSync(join(dir, 'captures.db-wal')).includes(email)).toBe(true);
    // Nor in the request log: not from the body, the query string or a header.
    expect(raw.join('')).not.toContain('jane.doe');
    expect(raw.join('')).toMatch(/\[email:[0-9a-f]{8}\]/);
  });

  it('sampleRate 0 keeps nothing and counts what it dropped; the response is unchanged', async () => {
    const pipeline = createRagPipeline({ index: await handbookIndex(), chat: new MockChatModel({ text: 'ok' }) });
    const store = storeIn();
    const metrics = createCaptureMetrics();
    const { app, capture } = chatApp(pipeline, { store, sampleRate: 0, metrics, logger: memoryLogger().logger });
    for (let index = 0; index < 3; index++) expect((await request(app).post('/api/chat').send({ message: 'What is the mileage rate?' })).status).toBe(200);
    await capture.flush();
    expect(await store.captureCount()).toBe(0);
    expect(await metricValue(metrics.sampledOut)).toBe(3);
  });

  it('records several traces per request, traces recorded after the response, and takes the request id from pino-http', async () => {
    const pipeline = createRagPipeline({ index: await handbookIndex(), chat: new MockChatModel({ text: 'ok' }) });
    const store = storeIn();
    const { logger } = memoryLogger();
    const capture = captureRag({ store, logger });
    const app = express();
    app.use(httpLogger(logger));
    app.use(capture);
    let late: Promise<string> | undefined;
    app.get('/two', async (req, res) => {
      const first = await pipeline.ask('What is the mileage rate?');
      const second = await pipeline.ask('What is the mileage rate?', { mode: 'norag' });
      req.rag!.record(first);
      req.rag!.record(second);
      res.status(201).json({ ids: [first.id, second.id], requestId: req.id });
      late = pipeline.ask('How long is the probation period?').then((trace) => {
        req.rag!.record(trace);
        return trace.id;
      });
    });
    const response = await request(app).get('/two?x=1');
    const lateId = await late!;
    await capture.flush();
    const [first, second] = await Promise.all((response.body.ids as string[]).map(async (id) => (await store.getCapture(id))!.capture));
    expect(first).toMatchObject({ route: '/two', status: 201, mode: 'rag', requestId: String(response.body.requestId) });
    expect(second).toMatchObject({ route: '/two', mode: 'norag', chunks: [] });
    expect((await store.getCapture(lateId))?.capture.query).toBe('How long is the probation period?');
    expect(await store.captureCount()).toBe(3);
  });

  it('a value that is not a trace is counted and logged as a failed capture; nothing reaches the request or the process', async () => {
    const pipeline = createRagPipeline({ index: await handbookIndex(), chat: new MockChatModel({ text: 'ok' }) });
    const store = storeIn();
    const { logger, lines } = memoryLogger();
    const metrics = createCaptureMetrics();
    const capture = captureRag({ store, logger, metrics });
    const app = express();
    app.use(capture);
    let lateError: unknown = 'not called';
    app.get('/odd', async (req, res) => {
      req.rag!.record({ id: 42 } as unknown as RagTrace);
      req.rag!.record({ ...(await pipeline.ask('What is the mileage rate?')), withheldChunks: [{ chunkId: 'x' }] } as unknown as RagTrace);
      req.rag!.record(await pipeline.ask('What is the mileage rate?'));
      res.json({ ok: true });
      setImmediate(() => {
        try {
          req.rag!.record(null as unknown as RagTrace);
          lateError = null;
        } catch (error) {
          lateError = error;
        }
      });
    });
    expect((await request(app).get('/odd')).status).toBe(200);
    await expect.poll(() => lateError).toBeNull();
    await capture.flush();
    expect(await store.captureCount()).toBe(1);
    expect(await metricValue(metrics.captureFailures, { reason: 'build' })).toBe(3);
    // Rejected when recorded, each with the field at fault.
    expect(lines.filter((line) => line.event === 'rag.capture.rejected').map((line) => line.reason)).toEqual([
      'query: Invalid input: expected string, received undefined',
      'withheldChunks.0: expected chunkId, text and hash strings',
      'record: Invalid input: expected object, received null',
    ]);
  });

  it(`writes at most MAX_WRITE_BATCH (${MAX_WRITE_BATCH}) captures per transaction, however many are waiting`, async () => {
    const pipeline = createRagPipeline({ index: await handbookIndex(), chat: new MockChatModel({ text: 'ok' }) });
    const trace = await pipeline.ask('What is the mileage rate?');
    const batches: number[] = [];
    const capture = captureRag({ store: { writeCaptures: (captures) => void batches.push(captures.length) }, logger: memoryLogger().logger });
    const app = express();
    app.use(capture);
    // One request records many traces: they are queued together when its response closes.
    app.get('/many', (req, res) => {
      for (let index = 0; index < 2 * MAX_WRITE_BATCH + 5; index++) req.rag!.record({ ...trace, id: `${trace.id}-${index}` });
      res.json({ ok: true });
    });
    expect((await request(app).get('/many')).status).toBe(200);
    await capture.flush();
    expect(batches).toEqual([MAX_WRITE_BATCH, MAX_WRITE_BATCH, 5]);
  });

  it('size caps: oversized fields are cut and the capture is marked truncated', async () => {
    const pipeline = createRagPipeline({ index: await handbookIndex(), chat: new MockChatModel({ text: 'x'.repeat(500) }) });
    const store = storeIn();
    const { app, capture } = chatApp(pipeline, { store, limits: { maxAnswerChars: 100, maxChunks: 2 }, logger: memoryLogger().logger });
    const response = await request(app).post('/api/chat').send({ message: 'What is the mileage rate?' });
    await capture.flush();
    const stored: Capture = (await store.getCapture(response.body.traceId as string))!.capture;
    expect(stored.answer).toHaveLength(100);
    expect(stored.answer.endsWith('…[truncated]')).toBe(true);
    expect(stored.chunks).toHaveLength(2);
    expect(stored.truncated).toBe(true);
  });

  it.each([
    ['info', 'info', 'info', [30]],
    ['trace', 'trace', 'trace', [10]],
    ['silent', 'silent', 'trace', []],
    // A line the logger would drop is not built: nothing reaches the destination.
    ['debug (the default)', undefined, 'info', []],
  ] as const)('logs the per-capture line at captureLogLevel %s (logger at %3$s)', async (_name, level, loggerLevel, levels) => {
    const pipeline = createRagPipeline({ index: await handbookIndex(), chat: new MockChatModel({ text: 'Twenty weeks.' }) });
    const { logger, lines } = memoryLogger();
    logger.level = loggerLevel;
    const store = storeIn();
    const { app, capture } = chatApp(pipeline, { store, logger, ...(level === undefined ? {} : { captureLogLevel: level }) });
    const response = await request(app).post('/api/chat').send({ message: 'How long is parental leave?' });
    expect(response.status).toBe(200);
    await capture.flush();
    expect(await store.captureCount()).toBe(1);
    expect(lines.filter((line) => line.event === 'rag.capture').map((line) => line.level)).toEqual(levels);
  });

  it.each([
    [{ captureLogLevel: 'warn' }, /option captureLogLevel "warn" is invalid: use one of trace, debug, info, silent/],
    [{ sampleRate: 1.5 }, /option sampleRate 1\.5 is invalid: use a number from 0 to 1/],
    [{ sampleRate: Number.NaN }, /option sampleRate null is invalid/],
    [{ redact: 'yes' }, /option redact "yes" is invalid/],
    [{ store: {} }, /option store \{\} is invalid: use a path or an object with writeCaptures/],
    [{ maxQueue: 0 }, /option maxQueue 0 is invalid/],
    [{ limits: { maxChunks: -1 } }, /option limits\.maxChunks -1 is invalid/],
    [{ limits: { maxWords: 3 } }, /option limits\.maxWords 3 is invalid: known limits are/],
  ])('rejects bad options at construction: %j', (options, message) => {
    expect(() => captureRag({ store: { writeCaptures() {} }, ...(options as object) })).toThrow(message);
  });
});
