import { answerForJudging } from '../contract/notes.js';
import { join } from 'node:path';
import request from 'supertest';
import { flagsOf } from '../contract/outcome.js';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../demo-app/app.js';
import { createHeuristicFaithfulnessJudge, createLlmFaithfulnessJudge, evidenceFromTrace, judgeTrace } from '../judge/index.js';
import type { FaithfulnessInput, FaithfulnessJudge } from '../judge/types.js';
import { createLocalChatModel } from '../providers/local/generator.js';
import { createOpenAI } from '../providers/openai.js';
import { createRagPipeline } from '../rag/pipeline.js';
import { isJudgeRequest, judgeReply, memoryLogger, metricValue } from '../test-support/capture-helpers.js';
import { handbookIndex, onCleanup, tempDir } from '../test-support/fixtures.js';
import { chatReply, errorReply, startMockOpenAIServer, type MockServerReply, type RecordedRequest } from '../testing/index.js';
import { createCaptureMetrics } from './metrics.js';
import { JUDGE_QUEUE_BATCH, openSqliteCaptureStore } from './store.js';
import { captureFromTrace } from './to-capture.js';
import { createJudgeWorker } from './worker.js';

function newStore() {
  const store = openSqliteCaptureStore({ path: join(tempDir(), 'captures.db') });
  onCleanup(() => store.close());
  return store;
}

const HTTP = { requestId: 'r', route: '/api/chat', method: 'POST', status: 200, latencyMs: 5 };

async function mockServer(chat: (request: RecordedRequest, index: number) => MockServerReply) {
  const server = await startMockOpenAIServer({ chat });
  onCleanup(() => void server.close());
  return server;
}

function llmJudge(url: string) {
  return createLlmFaithfulnessJudge({ chat: createOpenAI({ apiKey: 'test-key', baseURL: url, maxRetries: 0 }).chat('gpt-4o-mini') });
}

describe('live judge worker', () => {
  it('judges each settled capture once, as judgeTrace (the eval path) judges its trace, and stores claims, flags, judge and cost', async () => {
    const index = await handbookIndex();
    const pipeline = createRagPipeline({ index, chat: createLocalChatModel() });
    const store = newStore();
    const judge = createHeuristicFaithfulnessJudge();
    const { logger, lines } = memoryLogger();
    const metrics = createCaptureMetrics();
    const traces = [
      await pipeline.ask('What is the mileage rate for a car?'),
      await pipeline.ask('What is the capital of Mongolia?'),
      await pipeline.ask('How long is the probation period?'),
    ];
    await store.writeCaptures(traces.map((trace) => captureFromTrace(trace, { ...HTTP, capturedAt: new Date().toISOString() })));

    const worker = createJudgeWorker({ store, judge, settleMs: 0, pollMs: 20, logger, metrics });
    worker.start();
    onCleanup(() => void worker.stop());
    await worker.whenIdle();

    expect(worker.stats).toEqual({ judgeCalls: 3, stored: 3, failures: 0 });
    for (const trace of traces) {
      const [stored, ...more] = (await store.getCapture(trace.id))!.judgments;
      expect(more).toEqual([]);
      const direct = await judgeTrace(judge, trace);
      if (direct.status !== 'ok') throw new Error('heuristic judge failed');
      expect(stored).toMatchObject({
        judgeVersion: `heuristic:heuristic:${judge.info.promptVersion}`,
        judge: judge.info,
        status: 'ok',
        claims: direct.claims,
        counts: direct.counts,
        flags: flagsOf(direct),
        error: null,
        attempts: 1,
        costUsd: 0,
      });
    }
    expect((await store.getCapture(traces[1]!.id))!.judgments[0]!.flags).toMatchObject({ refused: true, refusalVerdict: 'correct_refusal', refusalCorrect: true });
    const judgmentLines = lines.filter((line) => line.event === 'rag.judgment');
    expect(judgmentLines.map((line) => line.traceId).sort()).toEqual(traces.map((trace) => trace.id).sort());
    // Nothing relevant was retrieved and the answer refused: a correct refusal (before the one outcome table, /metrics counted it as plain 'refused').
    expect(await metricValue(metrics.judgments, { outcome: 'correct_refusal' })).toBe(1);
    expect(await metricValue(metrics.judgments, { outcome: 'refused' })).toBe(0);
    await expect(metrics.judgments.get().then((metric) => metric.values.reduce((sum, value) => sum + value.value, 0))).resolves.toBe(3);
    expect(await store.pendingCount(worker.judgeVersion)).toBe(0);

    // A second worker with the same judge finds nothing to do; another judge version judges again.
    const again = createJudgeWorker({ store, judge, settleMs: 0, logger });
    again.start();
    await again.whenIdle();
    await again.stop();
    expect(again.stats.judgeCalls).toBe(0);
  });

  it('the judge reads the capture itself: its question, its chunks as evidence passages with title, section and date as fields, its answer; the same input judgeTrace gives it', async () => {
    const pipeline = createRagPipeline({ index: await handbookIndex(), chat: createLocalChatModel() });
    const store = newStore();
    const trace = await pipeline.ask('What is the mileage rate for a car?');
    await store.writeCaptures([captureFromTrace(trace, { ...HTTP, capturedAt: new Date().toISOString() })]);
    const heuristic = createHeuristicFaithfulnessJudge();
    const inputs: FaithfulnessInput[] = [];
    const recording: FaithfulnessJudge = { info: heuristic.info, judge: (input, options) => (inputs.push(input), heuristic.judge(input, options)) };
    const worker = createJudgeWorker({ store, judge: recording, settleMs: 0, logger: memoryLogger().logger });
    worker.start();
    onCleanup(() => void worker.stop());
    await worker.whenIdle();
    const evalInputs: FaithfulnessInput[] = [];
    await judgeTrace({ info: heuristic.info, judge: (input, options) => (evalInputs.push(input), heuristic.judge(input, options)) }, trace);
    expect(inputs).toEqual(evalInputs);
    // The answer without the pipeline's outdated-document note (the real clock makes the fixtures old).
    expect(inputs).toEqual([{ question: trace.query, evidence: evidenceFromTrace(trace), answer: answerForJudging(trace) }]);
    expect(inputs[0]!.evidence[0]).toMatchObject({ id: 'travel-and-expenses#mileage-rates', kind: 'chunk', title: 'Travel and Expenses', section: 'Mileage Rates', updated: '2025-09-01' });
  });

  it('takes judgedAt from the injected clock and the retry jitter from the injected random source', async () => {
    const pipeline = createRagPipeline({ index: await handbookIndex(), chat: createLocalChatModel() });
    const store = newStore();
    const [ok, flaky] = [await pipeline.ask('What is the mileage rate for a car?'), await pipeline.ask('How long is the probation period?')];
    await store.writeCaptures([ok, flaky].map((trace) => captureFromTrace(trace, { ...HTTP, capturedAt: '2026-03-01T10:00:00.000Z' })));
    const clock = Date.parse('2026-03-01T10:00:07.250Z');
    const heuristic = createHeuristicFaithfulnessJudge();
    const judge: FaithfulnessJudge = {
      info: heuristic.info,
      judge: async (input, options) =>
        input.question === flaky.query
          ? { status: 'error', judge: heuristic.info, error: 'upstream 503', rawReply: null, attempts: 1, authError: false, usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 }, costUsd: null, durationMs: 0 }
          : heuristic.judge(input, options),
    };
    const { logger, lines } = memoryLogger();
    const worker = createJudgeWorker({ store, judge, settleMs: 0, retryBaseMs: 1000, now: () => clock, random: () => 0, logger });
    worker.start();
    onCleanup(() => void worker.stop());
    await worker.whenIdle();
    expect((await store.getCapture(ok.id))!.judgments.map((judgment) => judgment.judgedAt)).toEqual(['2026-03-01T10:00:07.250Z']);
    // First retry: retryBaseMs × (0.75 + random × 0.5) = 1000 × 0.75 from the clock's now.
    expect(lines.filter((line) => line.event === 'judge.retry').map((line) => line.retryInMs)).toEqual([750]);
    expect(store.db.prepare(`SELECT next_attempt_ms FROM judge_jobs`).pluck().all()).toEqual([clock + 750]);
  });

  it('a retry is due when the injected clock says so, however the clock moved against the timer (real timers, injected time)', async () => {
    // The Postgres retry test flaked in CI: the clock was moved past the retry while the worker was
    // between scheduling the retry (60 s of real time) and its next poll, which then kept the 60 s
    // timer because it compared the two in the injected time.
    const pipeline = createRagPipeline({ index: await handbookIndex(), chat: createLocalChatModel() });
    const store = newStore();
    await store.writeCaptures([captureFromTrace(await pipeline.ask('How long is the probation period?'), { ...HTTP, capturedAt: '2026-03-01T10:00:00.000Z' })]);
    const heuristic = createHeuristicFaithfulnessJudge();
    let calls = 0;
    const judge: FaithfulnessJudge = {
      info: heuristic.info,
      judge: async () => ((calls += 1), { status: 'error', judge: heuristic.info, error: 'upstream 503', rawReply: null, attempts: 1, authError: false, usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 }, costUsd: null, durationMs: 0 }),
    };
    let clock = Date.parse('2026-03-01T10:00:01.000Z');
    // Move the clock past the retry at the worst moment: on the first claim after the failure is recorded.
    const claimPending = store.claimPending.bind(store);
    let moved = false;
    store.claimPending = async (options) => {
      if (calls === 1 && !moved) {
        moved = true;
        clock += 60_000;
      }
      return claimPending(options);
    };
    const worker = createJudgeWorker({ store, judge, settleMs: 0, pollMs: 10, retryBaseMs: 60_000, retryMaxMs: 60_000, random: () => 0.5, maxAttempts: 3, now: () => clock, logger: memoryLogger().logger });
    worker.start();
    onCleanup(() => void worker.stop());
    await expect.poll(() => calls, { timeout: 3000 }).toBe(2);
  });

  it('waits for the settle delay before judging', async () => {
    const pipeline = createRagPipeline({ index: await handbookIndex(), chat: createLocalChatModel() });
    const store = newStore();
    const trace = await pipeline.ask('What is the mileage rate for a car?');
    await store.writeCaptures([captureFromTrace(trace, { ...HTTP, capturedAt: '2026-03-01T10:00:00.000Z' })]);
    let clock = Date.parse('2026-03-01T10:00:04.000Z');
    const worker = createJudgeWorker({ store, judge: createHeuristicFaithfulnessJudge(), settleMs: 5000, pollMs: 10, now: () => clock, logger: memoryLogger().logger });
    worker.start();
    onCleanup(() => void worker.stop());
    await worker.whenIdle();
    expect(worker.stats.judgeCalls).toBe(0);
    clock += 1000;
    await worker.whenIdle();
    expect(worker.stats.judgeCalls).toBe(1);
    expect((await store.getCapture(trace.id))!.judgments).toHaveLength(1);
  });

  it('yields to the event loop between judgments: behind a backlog, at most `concurrency` judgments per turn (no microtask chain, ticks never multiply)', async () => {
    const pipeline = createRagPipeline({ index: await handbookIndex(), chat: createLocalChatModel() });
    const store = newStore();
    const trace = await pipeline.ask('What is the mileage rate for a car?');
    const backlog = 40;
    await store.writeCaptures(Array.from({ length: backlog }, (_, index) => captureFromTrace({ ...trace, id: `${trace.id}-${index}` }, { ...HTTP, capturedAt: new Date().toISOString() })));
    const concurrency = 2;
    const worker = createJudgeWorker({ store, judge: createHeuristicFaithfulnessJudge(), settleMs: 0, concurrency, logger: memoryLogger().logger });
    // A probe that runs once per turn of the event loop (as a request's I/O callback would) and
    // records how many judge calls happened since its last run.
    const perTurn: number[] = [];
    let last = 0;
    let probing = true;
    const probe = () => {
      perTurn.push(worker.stats.judgeCalls - last);
      last = worker.stats.judgeCalls;
      if (probing) setImmediate(probe);
    };
    worker.start();
    onCleanup(() => void worker.stop());
    setImmediate(probe);
    await worker.whenIdle();
    probing = false;
    expect(worker.stats.stored).toBe(backlog);
    // A microtask chain judged the whole backlog in one turn; a tick per finished judgment doubled
    // every turn (2, 4, 8, 16…). Both held the app's requests behind the judge.
    expect(Math.max(...perTurn)).toBeLessThanOrEqual(concurrency);
  });

  it('a new judge version judges the captures stored before it existed; the old version is not asked again', async () => {
    const pipeline = createRagPipeline({ index: await handbookIndex(), chat: createLocalChatModel() });
    const store = newStore();
    const trace = await pipeline.ask('What is the mileage rate for a car?');
    await store.writeCaptures(['a', 'b', 'c'].map((suffix) => captureFromTrace({ ...trace, id: `${trace.id}-${suffix}` }, { ...HTTP, capturedAt: new Date().toISOString() })));
    const heuristic = createHeuristicFaithfulnessJudge();
    const run = async (judge: typeof heuristic) => {
      const worker = createJudgeWorker({ store, judge, settleMs: 0, logger: memoryLogger().logger });
      worker.start();
      await worker.whenIdle();
      await worker.stop();
      return worker;
    };
    expect((await run(heuristic)).stats.stored).toBe(3);
    expect((await run(heuristic)).stats.judgeCalls).toBe(0);
    const next = await run({ info: { ...heuristic.info, promptVersion: `${heuristic.info.promptVersion}-next` }, judge: (input, options) => heuristic.judge(input, options) });
    expect(next.stats.stored).toBe(3);
    expect((await store.getCapture(`${trace.id}-b`))!.judgments.map((judgment) => judgment.judgeVersion)).toEqual([`heuristic:heuristic:${heuristic.info.promptVersion}`, next.judgeVersion]);
  });

  it('queues a large backlog batch after batch before it calls itself idle (here the first batch holds only truncated captures)', async () => {
    const pipeline = createRagPipeline({ index: await handbookIndex(), chat: createLocalChatModel() });
    const store = newStore();
    const trace = await pipeline.ask('What is the mileage rate for a car?');
    const capture = (index: number, truncated: boolean) => ({ ...captureFromTrace({ ...trace, id: `${trace.id}-${index}` }, { ...HTTP, capturedAt: new Date().toISOString() }), truncated });
    await store.writeCaptures([...Array.from({ length: JUDGE_QUEUE_BATCH }, (_, index) => capture(index, true)), capture(-1, false), capture(-2, false)]);
    // A poll interval longer than the test: only the worker's own batch-after-batch loop can reach the last two.
    const worker = createJudgeWorker({ store, judge: createHeuristicFaithfulnessJudge(), settleMs: 0, pollMs: 600_000, logger: memoryLogger().logger });
    worker.start();
    onCleanup(() => void worker.stop());
    await worker.whenIdle();
    expect(worker.stats.stored).toBe(2);
    expect(await store.pendingCount(worker.judgeVersion)).toBe(0);
  });

  it('pauses on a 401 from the judge endpoint, says so in the log and on /metrics, loses nothing, and resumes', async () => {
    let authorized = false;
    const server = await mockServer((req) => (authorized ? judgeReply(req) : errorReply(401, 'Incorrect API key provided')));
    const { logger, lines } = memoryLogger();
    const demo = createApp({
      index: await handbookIndex(),
      capture: { store: join(tempDir(), 'captures.db') },
      judge: llmJudge(server.url),
      worker: { settleMs: 0, pollMs: 20, authRetryMs: 60_000 },
      env: {},
      logger,
    });
    onCleanup(() => void demo.close());
    const answers = await Promise.all(['What is the mileage rate for a car?', 'How long is the probation period?'].map((message) => request(demo.app).post('/api/chat').send({ message })));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    await demo.capture!.flush();
    await expect.poll(() => demo.worker!.paused).toBe(true);
    await demo.worker!.whenIdle();

    const metricsText = (await request(demo.app).get('/metrics')).text;
    expect(metricsText).toMatch(/^groundcheck_judge_worker_paused 1$/m);
    expect(metricsText).toMatch(/^groundcheck_judge_errors_total\{kind="auth"\} [1-9]/m);
    expect(metricsText).toMatch(/^groundcheck_judge_queue_depth 2$/m);
    expect(metricsText).toMatch(/^groundcheck_captures_total 2$/m);
    const paused = lines.find((line) => line.event === 'judge.paused');
    expect(paused).toMatchObject({ level: 50, reason: expect.stringMatching(/401/) });
    expect(String(paused!.msg)).toMatch(/paused: the judge endpoint refused our credentials or billing/);
    expect((await demo.store!.getCapture(answers[0]!.body.traceId))!.judgments).toEqual([]);
    expect((await request(demo.app).get('/api/health')).body.workerPaused).toBe(true);

    authorized = true;
    demo.worker!.resume();
    await expect.poll(() => demo.store!.pendingCount(demo.worker!.judgeVersion)).toBe(0);
    for (const answer of answers) expect((await demo.store!.getCapture(answer.body.traceId))!.judgments).toMatchObject([{ status: 'ok', judge: { kind: 'llm' } }]);
    const after = (await request(demo.app).get('/metrics')).text;
    expect(after).toMatch(/^groundcheck_judge_worker_paused 0$/m);
    expect(after).toMatch(/^groundcheck_judgments_total\{outcome="correct"\} 2$/m);
  });

  it('retries a failing judge with backoff, then stores the failure as a judge error (never a pass)', async () => {
    const server = await mockServer(() => errorReply(500, 'upstream exploded'));
    const store = newStore();
    const pipeline = createRagPipeline({ index: await handbookIndex(), chat: createLocalChatModel() });
    const trace = await pipeline.ask('What is the mileage rate for a car?');
    await store.writeCaptures([captureFromTrace(trace, { ...HTTP, capturedAt: new Date().toISOString() })]);
    const metrics = createCaptureMetrics();
    const { logger, lines } = memoryLogger();
    const worker = createJudgeWorker({ store, judge: llmJudge(server.url), settleMs: 0, pollMs: 10, retryBaseMs: 5, retryMaxMs: 20, maxAttempts: 3, logger, metrics });
    worker.start();
    onCleanup(() => void worker.stop());
    await expect.poll(async () => (await store.getCapture(trace.id))!.judgments.length).toBe(1);
    expect((await store.getCapture(trace.id))!.judgments[0]).toMatchObject({ status: 'error', attempts: 3, flags: null, claims: [], error: expect.stringMatching(/500/) });
    expect(await metricValue(metrics.judgeErrors, { kind: 'retryable' })).toBe(2);
    expect(await metricValue(metrics.judgeErrors, { kind: 'final' })).toBe(1);
    expect(await metricValue(metrics.judgments, { outcome: 'judge_error' })).toBe(1);
    expect(lines.filter((line) => line.event === 'judge.retry')).toHaveLength(2);
    expect(server.requests.filter(isJudgeRequest)).toHaveLength(3);
  });

  it('a capture whose evidence the file lacks (edited by hand) becomes a judge error after its retries, never judged against part of it; the captures claimed beside it are judged', async () => {
    const store = newStore();
    const pipeline = createRagPipeline({ index: await handbookIndex(), chat: createLocalChatModel() });
    const traces = [await pipeline.ask('What is the mileage rate for a car?'), await pipeline.ask('How long is the probation period?'), await pipeline.ask('How many days of annual leave do I get?')];
    await store.writeCaptures(traces.map((trace) => captureFromTrace(trace, { ...HTTP, capturedAt: new Date().toISOString() })));
    // The oldest capture, claimed in every round with the others, names an evidence row no file has.
    const edited = traces[0]!.id;
    store.db.prepare(`UPDATE captures SET chunk_refs = '[[999999,0.5,0.1,1,0]]' WHERE trace_id = ?`).run(edited);
    const judged: string[] = [];
    const heuristic = createHeuristicFaithfulnessJudge();
    const judge: FaithfulnessJudge = { info: heuristic.info, judge: (input, options) => (judged.push(input.question), heuristic.judge(input, options)) };
    const metrics = createCaptureMetrics();
    const { logger, lines } = memoryLogger();
    const worker = createJudgeWorker({ store, judge, settleMs: 0, pollMs: 10, concurrency: 3, retryBaseMs: 5, retryMaxMs: 20, maxAttempts: 3, logger, metrics });
    worker.start();
    onCleanup(() => void worker.stop());
    await expect.poll(async () => (await Promise.all(traces.map(async (trace) => (await store.getCapture(trace.id))!.judgments.length))).join()).toBe('1,1,1');
    const [stored] = (await store.getCapture(edited))!.judgments;
    expect(stored).toMatchObject({ status: 'error', attempts: 3, flags: null, claims: [], error: `capture unreadable: capture ${edited} names evidence 999999, which this store file lacks (was the file edited by hand?)` });
    for (const trace of traces.slice(1)) expect((await store.getCapture(trace.id))!.judgments[0]).toMatchObject({ status: 'ok', attempts: 1 });
    // The judge read the other two captures once each, and never the edited one.
    expect(judged.sort()).toEqual(['How long is the probation period?', 'How many days of annual leave do I get?']);
    expect(worker.stats).toEqual({ judgeCalls: 2, stored: 3, failures: 3 });
    expect(await metricValue(metrics.judgments, { outcome: 'judge_error' })).toBe(1);
    expect(lines.filter((line) => line.event === 'judge.store_failed')).toEqual([]);
    expect(lines.filter((line) => line.event === 'judge.retry' && line.traceId === edited)).toHaveLength(2);
  });

  it("the worker's own model calls are never captured", async () => {
    const server = await mockServer((req) => (isJudgeRequest(req) ? judgeReply(req) : chatReply('Cars are paid 45p per mile (Travel and Expenses, updated 2025-09-01).')));
    const openai = createOpenAI({ apiKey: 'test-key', baseURL: server.url, maxRetries: 0 });
    const demo = createApp({
      index: await handbookIndex(),
      chat: openai.chat('gpt-4o-mini'),
      capture: { store: join(tempDir(), 'captures.db') },
      judge: createLlmFaithfulnessJudge({ chat: openai.chat('gpt-4o-mini') }),
      worker: { settleMs: 0, pollMs: 20 },
      env: {},
      logger: memoryLogger().logger,
    });
    onCleanup(() => void demo.close());
    const questions = ['What is the mileage rate for a car?', 'What is the mileage rate for a bicycle?', 'Do I get paid mileage for a van?'];
    for (const message of questions) expect((await request(demo.app).post('/api/chat').send({ message })).status).toBe(200);
    await demo.capture!.flush();
    await expect.poll(() => demo.store!.pendingCount(demo.worker!.judgeVersion)).toBe(0);

    expect(server.requests.filter(isJudgeRequest)).toHaveLength(3);
    expect(server.requests.filter((req) => !isJudgeRequest(req) && req.path.endsWith('/chat/completions'))).toHaveLength(3);
    expect(await demo.store!.captureCount()).toBe(3);
    expect((await demo.store!.listCaptures()).map((row) => row.capture.query).sort()).toEqual([...questions].sort());
  });

  it('rejects bad options at construction', () => {
    const store = newStore();
    const judge = createHeuristicFaithfulnessJudge();
    expect(() => createJudgeWorker({ store, judge, concurrency: 0 })).toThrow(/option concurrency 0 is invalid/);
    expect(() => createJudgeWorker({ store, judge, settleMs: -1 })).toThrow(/option settleMs -1 is invalid/);
    expect(() => createJudgeWorker({ store: {} as never, judge })).toThrow(/option store/);
    expect(() => createJudgeWorker({ store, judge, random: 0.5 as never })).toThrow(/option random/);
  });
});
