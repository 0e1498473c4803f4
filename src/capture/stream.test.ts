import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import type { PlainChunk } from '../contract/plain-trace.js';
import { createHeuristicFaithfulnessJudge } from '../judge/index.js';
import { createOpenAI } from '../providers/openai.js';
import { streamChat } from '../providers/stream.js';
import { memoryLogger } from '../test-support/capture-helpers.js';
import { onCleanup, tempDir } from '../test-support/fixtures.js';
import { startMockOpenAIServer, streamReply, type MockOpenAIServer } from '../testing/index.js';
import { captureRag } from './middleware.js';
import { openCaptureStore } from './store.js';
import { streamRagAnswer, type StreamRagAnswerOptions } from './stream.js';
import { verdictOf } from './verdict.js';
import { createJudgeWorker } from './worker.js';

const CHUNKS: PlainChunk[] = [{ id: 'travel#mileage', text: 'Claim 45p per mile for a car. Claim 20p per mile for a bicycle.', title: 'Travel' }];
const PIECES = ['Claim', ' 45p', ' per', ' mile', ' for', ' a', ' car.'];

let model: MockOpenAIServer | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

/** An app with its own retrieval (fixed chunks) and the openai provider, streaming through streamRagAnswer. */
async function streamingApp(reply: Parameters<typeof streamReply>, options: { capture?: boolean; format?: StreamRagAnswerOptions['format'] } = {}) {
  model = await startMockOpenAIServer({ chat: () => streamReply(...reply) });
  const chat = createOpenAI({ baseURL: model.url, apiKey: 'k', maxRetries: 0 }).chat('gpt-4o-mini');
  const store = openCaptureStore({ path: join(tempDir(), 'captures.db') });
  onCleanup(() => store.close());
  const { logger } = memoryLogger();
  const capture = captureRag({ store, logger, redact: false });
  const app = express();
  if (options.capture !== false) app.use(capture);
  const modelErrors: unknown[] = [];
  app.post('/stream', express.json(), async (req, res) => {
    const query = String(req.body.message);
    const answer = streamRagAnswer(req, res, { record: { query, chunks: CHUNKS, model: 'gpt-4o-mini' }, ...(options.format ? { format: options.format } : {}) });
    if (options.format !== 'text') answer.event('sources', CHUNKS.map((chunk) => chunk.id));
    try {
      for await (const part of streamChat(chat, { messages: [{ role: 'user', content: query }], abortSignal: answer.signal })) {
        if (part.type === 'text-delta') answer.write(part.text);
        else answer.end({ usage: part.result.usage });
      }
    } catch (error) {
      modelErrors.push(error);
      answer.fail();
    }
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  onCleanup(() => {
    server.closeAllConnections();
    server.close();
  });
  const worker = createJudgeWorker({ store, judge: createHeuristicFaithfulnessJudge(), settleMs: 0, pollMs: 10, logger });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/stream`, store, capture, worker, modelErrors, model: model! };
}

interface SseEvent {
  event: string;
  data: unknown;
}

/** POST and read server-sent events; `hangUpAfter` destroys the connection once that many `delta` events arrived. */
function readEvents(url: string, body: unknown, hangUpAfter?: number): Promise<{ response: IncomingMessage; events: SseEvent[]; raw: string }> {
  return new Promise((resolve, reject) => {
    const events: SseEvent[] = [];
    let raw = '';
    const request = httpRequest(url, { method: 'POST', headers: { 'content-type': 'application/json' } }, (response) => {
      let buffer = '';
      response.setEncoding('utf8');
      response.on('data', (text: string) => {
        raw += text;
        buffer += text;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event !== undefined && data !== undefined) events.push({ event, data: JSON.parse(data) });
        }
        if (hangUpAfter !== undefined && events.filter((event) => event.event === 'delta').length >= hangUpAfter) {
          request.destroy();
          resolve({ response, events, raw });
        }
      });
      response.on('end', () => resolve({ response, events, raw }));
      response.on('error', () => undefined);
    });
    request.on('error', (error) => (hangUpAfter === undefined ? reject(error) : undefined));
    request.end(JSON.stringify(body));
  });
}

describe('streamRagAnswer', () => {
  it('a complete SSE stream: the client gets every piece and the trace id; the capture holds the whole answer, time to first token, and is judged', async () => {
    const app = await streamingApp([PIECES, { intervalMs: 5 }]);
    const { response, events } = await readEvents(app.url, { message: /* worded like the chunk: the offline judge reads words */ 'How much can I claim per mile for a car?' });
    expect(response.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-cache, no-transform');
    expect(events.map((event) => event.event)).toEqual(['sources', ...PIECES.map(() => 'delta'), 'done']);
    expect(events.filter((event) => event.event === 'delta').map((event) => (event.data as { text: string }).text)).toEqual(PIECES);
    const traceId = (events.at(-1)!.data as { traceId: string }).traceId;
    await app.capture.flush();

    const stored = (await app.store.getCapture(traceId))!.capture;
    expect(stored).toMatchObject({ answer: PIECES.join(''), aborted: false, status: 200, route: '/stream', models: { chat: 'gpt-4o-mini' }, usage: { inputTokens: 20, outputTokens: 7 } });
    expect(stored.chunks.map((chunk) => chunk.chunkId)).toEqual(['travel#mileage']);
    expect(stored.firstTokenMs).toBeGreaterThan(0);
    expect(stored.firstTokenMs!).toBeLessThan(stored.latencyMs);

    app.worker.start();
    onCleanup(() => void app.worker.stop());
    await app.worker.whenIdle();
    const judged = (await app.store.getCapture(traceId))!;
    expect(judged.judgments).toHaveLength(1);
    expect(verdictOf(judged.capture, judged.judgments[0]!, true).verdict).toBe('correct');
  });

  it('an aborted SSE stream is stored as aborted, with the part the client received, never judged; the model call is cancelled', async () => {
    // The model sends two pieces and would go on: the client hangs up after them.
    const app = await streamingApp([PIECES, { hangAfter: 2 }]);
    const { events } = await readEvents(app.url, { message: 'What is the mileage rate for a car?' }, 2);
    expect(events.filter((event) => event.event === 'delta').map((event) => (event.data as { text: string }).text)).toEqual(['Claim', ' 45p']);
    await expect.poll(async () => (await app.store.captureCount()) + app.capture.queued).toBe(1);
    await app.capture.flush();

    const [row] = (await app.store.listCaptures());
    expect(row!.capture).toMatchObject({ answer: 'Claim 45p', aborted: true, query: 'What is the mileage rate for a car?' });
    expect(row!.capture.firstTokenMs).toBeGreaterThan(0);
    expect(verdictOf(row!.capture, null, true)).toEqual({ verdict: 'aborted', label: 'Aborted', text: 'Aborted: the client hung up before the answer finished; not judged', tone: 'neutral' });
    // The openai request was aborted through answer.signal, not left to run.
    expect(app.modelErrors).toEqual([expect.objectContaining({ code: 'aborted' })]);

    app.worker.start();
    onCleanup(() => void app.worker.stop());
    await app.worker.whenIdle();
    expect((await app.store.getCapture(row!.capture.traceId))!.judgments).toEqual([]);
    expect((await app.store.pendingCount(app.worker.judgeVersion))).toBe(0);
    expect(app.worker.stats.judgeCalls).toBe(0);
  });

  it("format 'text' streams the answer's text only (chunked), and is captured the same way", async () => {
    const app = await streamingApp([PIECES], { format: 'text' });
    const { response, raw } = await readEvents(app.url, { message: 'mileage?' });
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(response.headers['transfer-encoding']).toBe('chunked');
    expect(raw).toBe(PIECES.join(''));
    await app.capture.flush();
    expect((await app.store.listCaptures())[0]!.capture).toMatchObject({ answer: PIECES.join(''), aborted: false });
  });

  it('without captureRag it streams all the same and captures nothing', async () => {
    const app = await streamingApp([PIECES], { capture: false });
    const { events } = await readEvents(app.url, { message: 'mileage?' });
    expect(events.at(-1)).toEqual({ event: 'done', data: { traceId: null } });
    expect((await app.store.captureCount())).toBe(0);
  });
});
