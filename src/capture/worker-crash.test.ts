import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { childEnv } from '../../test/child-env.js';
import { createLlmFaithfulnessJudge } from '../judge/index.js';
import { createLocalChatModel } from '../providers/local/generator.js';
import { createOpenAI } from '../providers/openai.js';
import { createRagPipeline } from '../rag/pipeline.js';
import { isJudgeRequest, judgeReply } from '../test-support/capture-helpers.js';
import { handbookIndex, onCleanup, tempDir } from '../test-support/fixtures.js';
import { startMockOpenAIServer } from '../testing/index.js';
import { openCaptureStore } from './store.js';
import { captureFromTrace } from './to-capture.js';
import { judgeVersionOf } from './types.js';

const BIN = fileURLToPath(new URL('../../bin/groundcheck.js', import.meta.url));
const QUESTIONS = [
  'What is the mileage rate for a car?',
  'How long is the probation period?',
  'How many weeks of parental leave does a birth parent get?',
  'Do I need approval for a £600 course?',
  'How do I book annual leave?',
  'What is the capital of Mongolia?',
  'Can I work from abroad?',
  'How do I report a security incident?',
  'When is pay day?',
  'How much notice do I need to give when leaving?',
  'What happens if I am off sick for more than seven days?',
  'Can I accept a gift from a supplier?',
  'How many days of compassionate leave can I take?',
  'Who do I tell about a data breach?',
];

async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const started = Date.now();
  while (!(await condition())) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve({ code: child.exitCode, signal: child.signalCode });
    else child.once('exit', (code, signal) => resolve({ code, signal }));
  });
}

describe('judge-worker process (crash safety)', () => {
  it('SIGKILLed mid-batch several times: afterwards every capture has exactly one judgment for the judge version, none lost', async () => {
    // The model is mocked at its HTTP boundary only; each judge call takes 200 ms, so a batch is always in flight.
    const server = await startMockOpenAIServer({ chat: (request) => judgeReply(request, 200) });
    onCleanup(() => void server.close());

    const dbPath = join(tempDir(), 'captures.db');
    const store = openCaptureStore({ path: dbPath });
    onCleanup(() => store.close());
    const pipeline = createRagPipeline({ index: await handbookIndex(), chat: createLocalChatModel() });
    const traces = [];
    for (const question of QUESTIONS) traces.push(await pipeline.ask(question));
    await store.writeCaptures(traces.map((trace) => captureFromTrace(trace, { requestId: trace.id, capturedAt: new Date().toISOString(), route: '/api/chat', method: 'POST', status: 200, latencyMs: 1 })));

    const version = judgeVersionOf(createLlmFaithfulnessJudge({ chat: createOpenAI({ apiKey: 'x', baseURL: server.url }).chat('gpt-4o-mini') }).info);
    const env = childEnv({ OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: server.url, GROUNDCHECK_LOG_LEVEL: 'warn' });
    const args = [BIN, 'judge-worker', '--db', dbPath, '--judge', 'llm', '--settle-ms', '0', '--concurrency', '3', '--poll-ms', '20'];
    const spawnWorker = (extra: string[] = []) => {
      const child = spawn(process.execPath, [...args, ...extra], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout!.on('data', (part: Buffer) => (output += part.toString()));
      child.stderr!.on('data', (part: Buffer) => (output += part.toString()));
      onCleanup(() => child.kill('SIGKILL'));
      return { child, output: () => output };
    };
    const judgeRequests = () => server.requests.filter(isJudgeRequest).length;

    let kills = 0;
    let lostInFlight = 0;
    for (const target of [2, 5, 8]) {
      const { child, output } = spawnWorker();
      await until(async () => (await store.judgmentCount(version)) >= target || child.exitCode !== null, `${target} judgments`);
      expect(child.exitCode, output()).toBeNull();
      // Kill while calls are in flight: requests sent but not yet stored as judgments.
      await until(async () => judgeRequests() > (await store.judgmentCount(version)) + lostInFlight, 'a call in flight');
      child.kill('SIGKILL');
      const { signal } = await exited(child);
      expect(signal).toBe('SIGKILL');
      kills += 1;
      lostInFlight = judgeRequests() - (await store.judgmentCount(version));
      expect(await store.judgmentCount(version)).toBeLessThan(QUESTIONS.length);
    }

    const last = spawnWorker(['--once']);
    const { code } = await exited(last.child);
    expect(code, last.output()).toBe(0);

    expect(kills).toBe(3);
    // Work was lost to the kills and done again…
    expect(judgeRequests()).toBeGreaterThan(QUESTIONS.length);
    // …but every capture has exactly one judgment for this judge version, and none is missing.
    for (const trace of traces) {
      const judgments = (await store.getCapture(trace.id))!.judgments.filter((judgment) => judgment.judgeVersion === version);
      expect(judgments, trace.query).toHaveLength(1);
      expect(judgments[0]!.status).toBe('ok');
    }
    expect(await store.judgmentCount(version)).toBe(QUESTIONS.length);
    expect(await store.pendingCount(version)).toBe(0);
  }, 90_000);
});
