import { join } from 'node:path';
import request from 'supertest';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { outcomeOf, outcomeRow } from '../../contract/outcome.js';
import { createHeuristicFaithfulnessJudge, createLlmFaithfulnessJudge } from '../../judge/index.js';
import { createLocalChatModel, LOCAL_CHAT_MODEL_ID } from '../../providers/local/generator.js';
import { createOpenAI } from '../../providers/openai.js';
import { createRagPipeline, type RagPipeline } from '../../rag/pipeline.js';
import { createApp } from '../../../demo-app/app.js';
import { main } from '../../cli/main.js';
import type { CliIO } from '../../cli/io.js';
import { chatApp, memoryLogger, metricValue } from '../../test-support/capture-helpers.js';
import { handbookIndex, onCleanup, tempDir } from '../../test-support/fixtures.js';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../../test-support/otlp-receiver.js';
import { chatReply, startMockOpenAIServer } from '../../testing/index.js';
import { createCaptureMetrics, type CaptureMetrics } from '../metrics.js';
import { openCaptureStore, type CaptureStore } from '../store.js';
import { captureFromTrace } from '../to-capture.js';
import type { Capture, StoredJudgment } from '../types.js';
import { createJudgeWorker } from '../worker.js';
import { createOtlpExporter, type OtlpExporter } from './exporter.js';
import { otlpOptionsFromEnv, type OtlpExporterOptions } from './options.js';
import { EVALUATION_NAME, tracePlanOf } from './spans.js';

// The OpenTelemetry exporters also read the standard variables; a developer's must not leak in.
beforeAll(() => {
  for (const name of Object.keys(process.env)) if (name.startsWith('OTEL_')) delete process.env[name];
});

let receiver: OtlpReceiver;
afterEach(async () => {
  await receiver?.close();
});

const SPAN_KIND_INTERNAL = 1;
const SPAN_KIND_CLIENT = 3;
const STATUS_ERROR = 2;

interface Setup {
  pipeline: RagPipeline;
  store: CaptureStore;
  storePath: string;
  metrics: CaptureMetrics;
  otlp: OtlpExporter;
  lines: Record<string, unknown>[];
  ask(message: string): Promise<Capture>;
}

async function setup(options: Partial<OtlpExporterOptions> = {}): Promise<Setup> {
  receiver = await startOtlpReceiver();
  const index = await handbookIndex();
  const pipeline = createRagPipeline({ index, chat: createLocalChatModel() });
  const storePath = join(tempDir(), 'captures.db');
  const store = openCaptureStore({ path: storePath });
  onCleanup(() => store.close());
  const metrics = createCaptureMetrics();
  const { logger, lines } = memoryLogger();
  const otlp = await createOtlpExporter({ endpoint: receiver.url, protocol: 'http/json', dataSourceId: 'handbook', topK: 8, scheduledDelayMs: 10, metrics, logger, ...options });
  onCleanup(() => void otlp.shutdown());
  const written: Capture[] = [];
  const { app, capture } = chatApp(pipeline, { store, metrics, logger, onWritten: (captures) => (written.push(...captures), otlp.onWritten(captures)) });
  return {
    pipeline,
    store,
    storePath,
    metrics,
    otlp,
    lines,
    async ask(message) {
      const response = await request(app).post('/api/chat').send({ message }).expect(200);
      await capture.flush();
      await otlp.flush();
      const captured = written.find((candidate) => candidate.traceId === (response.body as { traceId: string }).traceId);
      if (!captured) throw new Error('the capture was not written');
      return captured;
    },
  };
}

function byName(spans: ReceivedSpan[], prefix: string): ReceivedSpan {
  const found = spans.filter((span) => span.name.startsWith(prefix));
  expect(found).toHaveLength(1);
  return found[0]!;
}

function documentsOf(span: ReceivedSpan): Record<string, unknown>[] {
  return JSON.parse(span.attributes['gen_ai.retrieval.documents'] as string) as Record<string, unknown>[];
}

describe('OTLP export of captures', () => {
  it('sends each capture as a trace: a request span, a GenAI retrieval span and a chat span, with no question or answer text by default', async () => {
    const { ask } = await setup();
    const capture = await ask('What is the mileage rate for a car?');
    expect(capture.chunks.length).toBeGreaterThan(0);

    const spans = receiver.spans();
    expect(spans).toHaveLength(3);
    const traceId = capture.traceId.replaceAll('-', '');
    expect(new Set(spans.map((span) => span.traceId))).toEqual(new Set([traceId]));
    const root = byName(spans, 'rag ');
    const retrieval = byName(spans, 'retrieval ');
    const chat = byName(spans, 'chat ');

    expect(root).toMatchObject({ name: 'rag /api/chat', kind: SPAN_KIND_INTERNAL, parentSpanId: null });
    expect(root.attributes).toEqual({
      'groundcheck.trace_id': capture.traceId,
      'groundcheck.request_id': capture.requestId,
      'groundcheck.mode': 'rag',
      'groundcheck.refused': false,
      'groundcheck.prompt_version': capture.promptVersion,
      'groundcheck.truncated': false,
      'groundcheck.aborted': false,
      'groundcheck.cost_usd': 0,
      'http.route': '/api/chat',
      'http.request.method': 'POST',
      'http.response.status_code': 200,
    });
    expect(root.endMs).toBe(Date.parse(capture.capturedAt));
    expect(root.scope).toEqual({ name: 'groundcheck', schemaUrl: 'https://opentelemetry.io/schemas/1.41.0' });
    expect(root.resource['service.name']).toBe('groundcheck');

    expect(retrieval).toMatchObject({ name: 'retrieval handbook', kind: SPAN_KIND_CLIENT, parentSpanId: root.spanId });
    expect(retrieval.attributes).toEqual({
      'gen_ai.operation.name': 'retrieval',
      'gen_ai.data_source.id': 'handbook',
      'gen_ai.request.top_k': 8,
      'gen_ai.request.model': 'local-hash-v1',
      'groundcheck.embedding.provider': 'local',
      'groundcheck.gated': false,
      'gen_ai.retrieval.documents': expect.any(String),
    });
    expect(documentsOf(retrieval)).toEqual(capture.chunks.map((chunk) => ({ id: chunk.chunkId, score: chunk.score, rank: chunk.rank, content_hash: chunk.hash })));

    expect(chat).toMatchObject({ name: `chat ${LOCAL_CHAT_MODEL_ID}`, kind: SPAN_KIND_INTERNAL, parentSpanId: root.spanId });
    expect(chat.attributes).toEqual({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'groundcheck.local',
      'gen_ai.request.model': LOCAL_CHAT_MODEL_ID,
      'gen_ai.usage.input_tokens': capture.usage.inputTokens,
      'gen_ai.usage.output_tokens': capture.usage.outputTokens,
    });
    // Retrieval first, then the model, inside the request.
    expect(retrieval.startMs).toBe(root.startMs);
    expect(chat.startMs).toBeGreaterThanOrEqual(retrieval.endMs - 1);
    expect(chat.endMs).toBeLessThanOrEqual(root.endMs + 1);
  });

  it('sends the question, the answer and the chunk texts (after redaction) only with captureContent on', async () => {
    const { ask } = await setup({ captureContent: true });
    const capture = await ask('What is the mileage rate for a car? Reply to jo@example.com');
    expect(capture.query).not.toContain('jo@example.com');
    expect(capture.query).toMatch(/\[email/);

    const spans = receiver.spans();
    const retrieval = byName(spans, 'retrieval ');
    expect(retrieval.attributes['gen_ai.retrieval.query.text']).toBe(capture.query);
    expect(documentsOf(retrieval)).toEqual(capture.chunks.map((chunk) => ({ id: chunk.chunkId, score: chunk.score, rank: chunk.rank, content_hash: chunk.hash, content: chunk.text })));
    const chat = byName(spans, 'chat ');
    expect(JSON.parse(chat.attributes['gen_ai.output.messages'] as string)).toEqual([{ role: 'assistant', parts: [{ type: 'text', content: capture.answer }] }]);
    expect(receiver.requests.map((received) => received.body.toString('utf8')).join('')).not.toContain('jo@example.com');
  });

  it('sends no chat span when the relevance gate refused without calling the model', async () => {
    const { ask } = await setup();
    const capture = await ask('zyxwvut qwerty plugh xyzzy');
    expect(capture.refusalReason).toBe('gate');

    const spans = receiver.spans();
    expect(spans.map((span) => span.name).sort()).toEqual(['rag /api/chat', 'retrieval handbook']);
    const retrieval = byName(spans, 'retrieval ');
    expect(retrieval.attributes['groundcheck.gated']).toBe(true);
    expect(documentsOf(retrieval)).toEqual([]);
    expect(byName(spans, 'rag ').attributes['groundcheck.refusal_reason']).toBe('gate');
  });

  it('a gate refusal\'s retrieval span lists the chunks the gate withheld as its documents (never sent to a model), as the judge read them', async () => {
    const { ask } = await setup({ captureContent: false });
    const capture = await ask('Can I get paid in bitcoin?');
    expect(capture).toMatchObject({ refusalReason: 'gate', chunks: [] });
    expect(capture.withheldChunks!.length).toBeGreaterThan(0);
    const spans = receiver.spans();
    expect(spans.map((span) => span.name).sort()).toEqual(['rag /api/chat', 'retrieval handbook']);
    const retrieval = byName(spans, 'retrieval ');
    expect(retrieval.attributes['groundcheck.gated']).toBe(true);
    expect(documentsOf(retrieval)).toEqual(capture.withheldChunks!.map((chunk) => ({ id: chunk.chunkId, score: chunk.score, rank: chunk.rank, content_hash: chunk.hash })));
  });

  it('sends protobuf by default, with the headers given', async () => {
    const { ask } = await setup({ protocol: undefined, headers: { Authorization: 'Basic cGs6c2s=', 'x-langfuse-ingestion-version': '4' } });
    const capture = await ask('What is the mileage rate for a car?');

    const traces = receiver.requests.filter((received) => received.path === '/v1/traces');
    expect(traces).toHaveLength(1);
    expect(traces[0]!.contentType).toBe('application/x-protobuf');
    expect(traces[0]!.headers.authorization).toBe('Basic cGs6c2s=');
    expect(traces[0]!.headers['x-langfuse-ingestion-version']).toBe('4');
    // Strings in a protobuf message are plain UTF-8: the attribute names and values are in the body.
    const body = traces[0]!.body;
    for (const text of ['gen_ai.retrieval.documents', 'gen_ai.request.top_k', `chat ${LOCAL_CHAT_MODEL_ID}`, capture.chunks[0]!.chunkId, capture.traceId]) {
      expect(body.includes(Buffer.from(text))).toBe(true);
    }
    expect(body.includes(Buffer.from(capture.traceId.replaceAll('-', ''), 'hex'))).toBe(true);
  });
});

describe('OTLP export of judgments', () => {
  async function judged(setupResult: Setup, capture: Capture, judge = createHeuristicFaithfulnessJudge(), otlp = setupResult.otlp): Promise<StoredJudgment> {
    const worker = createJudgeWorker({ store: setupResult.store, judge, settleMs: 0, pollMs: 10, maxAttempts: 1, metrics: setupResult.metrics, logger: memoryLogger().logger, onJudged: otlp.onJudged });
    worker.start();
    onCleanup(() => void worker.stop());
    await worker.whenIdle();
    await worker.stop();
    await otlp.flush();
    const [judgment] = (await setupResult.store.getCapture(capture.traceId))!.judgments;
    if (!judgment) throw new Error('not judged');
    return judgment;
  }

  it('sends each judgment as a gen_ai.evaluation.result log record in the trace of the chat span, labelled by the outcome table', async () => {
    const context = await setup();
    const capture = await context.ask('How many weeks of parental leave does a birth parent get?');
    const judgment = await judged(context, capture);
    expect(judgment.status).toBe('ok');

    const chat = byName(receiver.spans(), 'chat ');
    const records = receiver.logRecords();
    expect(records).toHaveLength(1);
    const [record] = records;
    const row = outcomeRow(judgment.flags);
    expect(record).toMatchObject({ eventName: 'gen_ai.evaluation.result', traceId: chat.traceId, spanId: chat.spanId, timeMs: Date.parse(judgment.judgedAt), severityNumber: 9 });
    expect(record!.scope.schemaUrl).toBe('https://opentelemetry.io/schemas/1.41.0');
    expect(record!.attributes).toEqual({
      'gen_ai.evaluation.name': EVALUATION_NAME,
      'gen_ai.evaluation.score.label': outcomeOf(judgment.flags),
      'gen_ai.evaluation.score.value': row.pass ? 1 : 0,
      'gen_ai.evaluation.explanation': expect.stringContaining(row.label),
      'groundcheck.trace_id': capture.traceId,
      'groundcheck.judge.version': judgment.judgeVersion,
      'groundcheck.judge.kind': 'heuristic',
      'groundcheck.judge.model': judgment.judge.model,
      'groundcheck.judge.prompt_version': judgment.judge.promptVersion,
      'groundcheck.judge.attempts': 1,
      'groundcheck.claims.verified': judgment.counts.verified,
      'groundcheck.claims.contradicted': judgment.counts.contradicted,
      'groundcheck.claims.absent': judgment.counts.absent,
    });
    expect(row.pass).not.toBeNull();
    expect(await metricValue(context.metrics.otlpExported, { signal: 'logs' })).toBe(1);
  });

  it('links a judgment exported by another exporter (a judge worker elsewhere) to the same spans', async () => {
    const context = await setup();
    const capture = await context.ask('What is the mileage rate for a car?');
    const elsewhere = await createOtlpExporter({ endpoint: receiver.url, protocol: 'http/json', scheduledDelayMs: 10, evaluations: 'spans', metrics: createCaptureMetrics() });
    onCleanup(() => void elsewhere.shutdown());
    await judged(context, capture, createHeuristicFaithfulnessJudge(), elsewhere);

    const spans = receiver.spans();
    const chat = byName(spans, 'chat ');
    const evaluation = byName(spans, 'evaluation ');
    expect(evaluation).toMatchObject({ name: `evaluation ${EVALUATION_NAME}`, traceId: chat.traceId, parentSpanId: chat.spanId, kind: SPAN_KIND_INTERNAL });
    expect(evaluation.events).toEqual([{ name: 'gen_ai.evaluation.result', timeMs: evaluation.endMs, attributes: evaluation.attributes }]);
    expect(receiver.logRecords()).toEqual([]);
  });

  it('sends a judge error as error.type, never as a score, on the log record and on the evaluation span', async () => {
    const context = await setup({ evaluations: 'both' });
    const capture = await context.ask('What is the mileage rate for a car?');
    const model = await startMockOpenAIServer({ chat: () => chatReply('I would rather not answer in JSON.') });
    onCleanup(() => void model.close());
    const judge = createLlmFaithfulnessJudge({ chat: createOpenAI({ apiKey: 'test-key', baseURL: model.url, maxRetries: 0 }).chat('gpt-4o-mini'), maxAttempts: 1 });
    const judgment = await judged(context, capture, judge);
    expect(judgment.status).toBe('error');

    const [record] = receiver.logRecords();
    const evaluation = byName(receiver.spans(), 'evaluation ');
    for (const attributes of [record!.attributes, evaluation.attributes, evaluation.events[0]!.attributes]) {
      expect(attributes['error.type']).toBe(outcomeOf(null));
      expect(attributes['error.message']).toBe(judgment.error);
      expect(attributes['gen_ai.evaluation.name']).toBe(EVALUATION_NAME);
      expect(attributes).not.toHaveProperty('gen_ai.evaluation.score.value');
      expect(attributes).not.toHaveProperty('gen_ai.evaluation.score.label');
    }
    expect(record!.severityNumber).toBe(13);
    expect(evaluation.status.code).toBe(STATUS_ERROR);
  });
});

describe('span contents', () => {
  it('sends the finish reason when the source has one (a trace does; a capture does not keep it)', async () => {
    const index = await handbookIndex();
    const trace = await createRagPipeline({ index, chat: createLocalChatModel() }).ask('What is the mileage rate for a car?');
    const source = { ...captureOf(trace), finishReason: trace.finishReason };
    const chat = tracePlanOf(source, { captureContent: true, dataSourceId: 'handbook', topK: null }).spans.find((span) => span.role === 'chat')!;
    expect(trace.finishReason).toBe('stop');
    expect(chat.attributes['gen_ai.response.finish_reasons']).toEqual(['stop']);
    expect(JSON.parse(chat.attributes['gen_ai.output.messages'] as string)).toEqual([{ role: 'assistant', parts: [{ type: 'text', content: trace.answer }], finish_reason: 'stop' }]);
    const retrieval = tracePlanOf(source, { captureContent: false, dataSourceId: 'handbook', topK: null }).spans.find((span) => span.role === 'retrieval')!;
    expect(retrieval.attributes).not.toHaveProperty('gen_ai.request.top_k');
    expect(tracePlanOf(captureOf(trace), { captureContent: false, dataSourceId: 'h', topK: 8 }).spans.find((span) => span.role === 'chat')!.attributes).not.toHaveProperty('gen_ai.response.finish_reasons');
  });
});

describe('OTLP export failures', () => {
  it('counts and logs spans the endpoint refuses; the request is unaffected', async () => {
    const context = await setup();
    receiver.statusFor.set('/v1/traces', 400);
    await context.ask('What is the mileage rate for a car?');

    expect(await metricValue(context.metrics.otlpExportFailures, { signal: 'traces', reason: 'export' })).toBe(3);
    expect(await metricValue(context.metrics.otlpExported, { signal: 'traces' })).toBe(0);
    expect(context.lines.filter((line) => line.event === 'otlp.export_failed')).toEqual([expect.objectContaining({ level: 50, signal: 'traces', count: 3, endpoint: receiver.url })]);
  });

  it('counts spans lost to an endpoint that is not there', async () => {
    const context = await setup();
    await context.otlp.shutdown();
    const closed = receiver.url;
    await receiver.close();
    const otlp = await createOtlpExporter({ endpoint: closed, scheduledDelayMs: 10, timeoutMs: 2000, metrics: context.metrics, logger: memoryLogger().logger });
    onCleanup(() => void otlp.shutdown());
    otlp.onWritten([await context.pipeline.ask('What is the mileage rate for a car?').then((trace) => captureOf(trace))]);
    await otlp.flush();
    expect(await metricValue(context.metrics.otlpExportFailures, { signal: 'traces', reason: 'export' })).toBe(3);
  });

  it('counts what does not fit in the export queue instead of dropping it silently', async () => {
    const context = await setup({ maxQueueSize: 4, scheduledDelayMs: 60_000 });
    const first = captureOf(await context.pipeline.ask('What is the mileage rate for a car?'));
    const second = captureOf(await context.pipeline.ask('How long is the probation period?'));
    context.otlp.onWritten([first, second]);
    expect(await metricValue(context.metrics.otlpExportFailures, { signal: 'traces', reason: 'queue_full' })).toBe(3);
    expect(context.lines.filter((line) => line.event === 'otlp.queue_full')).toHaveLength(1);
    await context.otlp.flush();
    expect(receiver.spans().map((span) => span.traceId)).toEqual(Array(3).fill(first.traceId.replaceAll('-', '')));
  });

  it('counts a capture it cannot turn into spans, and never throws into the caller', async () => {
    const context = await setup();
    expect(() => context.otlp.onWritten([{ traceId: 'x' } as unknown as Capture])).not.toThrow();
    expect(await metricValue(context.metrics.otlpExportFailures, { signal: 'traces', reason: 'build' })).toBe(1);
  });
});

describe('the demo app with an OTLP exporter', () => {
  it('exports its captures and its in-process judge\'s judgments, and counts them on /metrics', async () => {
    receiver = await startOtlpReceiver();
    const metrics = createCaptureMetrics();
    const { logger } = memoryLogger();
    const otlp = await createOtlpExporter({ endpoint: receiver.url, protocol: 'http/json', scheduledDelayMs: 10, metrics, logger });
    onCleanup(() => void otlp.shutdown());
    const demo = createApp({ index: await handbookIndex(), capture: { store: join(tempDir(), 'captures.db') }, worker: { settleMs: 0, pollMs: 10 }, logger, metrics, otlp, env: {} });
    onCleanup(() => void demo.close());
    const response = await request(demo.app).post('/api/chat').send({ message: 'How long is the probation period?' }).expect(200);
    await demo.capture!.flush();
    await demo.worker!.whenIdle();
    await otlp.flush();

    const traceId = (response.body as { traceId: string }).traceId.replaceAll('-', '');
    expect(receiver.spans().map((span) => [span.traceId, span.name.split(' ')[0]])).toEqual([
      [traceId, 'rag'],
      [traceId, 'retrieval'],
      [traceId, 'chat'],
    ]);
    expect(receiver.logRecords().map((record) => [record.traceId, record.eventName])).toEqual([[traceId, 'gen_ai.evaluation.result']]);
    const text = (await request(demo.app).get('/metrics').expect(200)).text;
    expect(text).toMatch(/^groundcheck_otlp_exported_total\{signal="traces"\} 3$/m);
    expect(text).toMatch(/^groundcheck_otlp_exported_total\{signal="logs"\} 1$/m);
    expect(text).toMatch(/^groundcheck_otlp_export_failures_total\{signal="traces",reason="export"\} 0$/m);
  });
});

describe('groundcheck judge-worker with GROUNDCHECK_OTLP_ENDPOINT', () => {
  it('exports each judgment it stores, linked to the spans the app exported', async () => {
    const context = await setup();
    const capture = await context.ask('How long is the probation period?');
    context.store.close();
    const out: string[] = [];
    const io: CliIO = {
      stdout: { write: (text: string) => out.push(text) },
      stderr: { write: (text: string) => out.push(text) },
      env: { GROUNDCHECK_OTLP_ENDPOINT: receiver.url, GROUNDCHECK_OTLP_PROTOCOL: 'http/json' },
      cwd: process.cwd(),
    };
    const code = await main(['judge-worker', '--db', context.storePath, '--judge', 'heuristic', '--settle-ms', '0', '--once'], io);
    expect(code).toBe(0);
    expect(out.join('')).toContain(`judgments exported to ${receiver.url} as logs`);

    const chat = byName(receiver.spans(), 'chat ');
    expect(receiver.logRecords()).toEqual([
      expect.objectContaining({ eventName: 'gen_ai.evaluation.result', traceId: chat.traceId, spanId: chat.spanId, attributes: expect.objectContaining({ 'groundcheck.trace_id': capture.traceId }) }),
    ]);
  });
});

describe('OTLP export options', () => {
  it.each([
    [{ endpoint: 'localhost:4318' }, 'option endpoint "localhost:4318" is invalid: use an http or https URL'],
    [{ endpoint: 'http://localhost:4318/v1/traces' }, 'give the base URL: /v1/traces and /v1/logs are appended'],
    [{ endpoint: 'http://localhost:4318', protocol: 'grpc' }, 'option protocol "grpc" is invalid: use http/protobuf or http/json'],
    [{ endpoint: 'http://localhost:4318', evaluations: 'metrics' }, 'option evaluations "metrics" is invalid: use logs, spans, both'],
    [{ endpoint: 'http://localhost:4318', topK: 0 }, 'option topK 0 is invalid: use a whole number of at least 1'],
    [{ endpoint: 'http://localhost:4318', headers: { Authorization: 1 } }, 'option headers'],
  ])('rejects %j', async (options, message) => {
    await expect(createOtlpExporter(options as unknown as OtlpExporterOptions)).rejects.toMatchObject({ code: 'invalid_option', message: expect.stringContaining(message) });
  });

  it('reads GROUNDCHECK_OTLP_* from the environment; no endpoint means off', () => {
    expect(otlpOptionsFromEnv({})).toBeNull();
    expect(
      otlpOptionsFromEnv({
        GROUNDCHECK_OTLP_ENDPOINT: 'https://cloud.langfuse.com/api/public/otel',
        GROUNDCHECK_OTLP_HEADERS: 'Authorization=Basic%20cGs6c2s=, x-langfuse-ingestion-version=4',
        GROUNDCHECK_OTLP_EVALUATIONS: 'spans',
        GROUNDCHECK_OTLP_CAPTURE_CONTENT: 'true',
      }),
    ).toEqual({
      endpoint: 'https://cloud.langfuse.com/api/public/otel',
      headers: { Authorization: 'Basic cGs6c2s=', 'x-langfuse-ingestion-version': '4' },
      evaluations: 'spans',
      captureContent: true,
    });
    expect(() => otlpOptionsFromEnv({ GROUNDCHECK_OTLP_ENDPOINT: 'http://x', GROUNDCHECK_OTLP_CAPTURE_CONTENT: 'yes' })).toThrow(/GROUNDCHECK_OTLP_CAPTURE_CONTENT=yes is invalid/);
    expect(() => otlpOptionsFromEnv({ GROUNDCHECK_OTLP_ENDPOINT: 'http://x', GROUNDCHECK_OTLP_HEADERS: 'nonsense' })).toThrow(/is not name=value/);
  });
});

/** A capture of a trace as captureRag makes it (no HTTP round trip needed). */
function captureOf(trace: Awaited<ReturnType<RagPipeline['ask']>>): Capture {
  return captureFromTrace(trace, { requestId: 'r1', capturedAt: new Date().toISOString(), route: '/api/chat', method: 'POST', status: 200, latencyMs: 5 });
}
