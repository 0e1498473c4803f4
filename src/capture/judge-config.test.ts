import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { traceFromPlain } from '../contract/plain-trace.js';
import { outcomeOf } from '../contract/outcome.js';
import { HEURISTIC_JUDGE_VERSION } from '../judge/index.js';
import { runCli } from '../test-support/cli.js';
import { onCleanup, tempDir } from '../test-support/fixtures.js';
import { PASSWORD_OVER_REFUSAL } from '../test-support/judgments.js';
import { liveJudgeFromEnv, loadLiveJudge } from './judge-config.js';
import { openCaptureStore } from './store.js';
import { captureFromTrace } from './to-capture.js';

// The hand-labelled over-refusal as an app would record it: the word rules credit the refusal, the encoder does not.
const OVER_REFUSAL = {
  query: PASSWORD_OVER_REFUSAL.question,
  chunks: PASSWORD_OVER_REFUSAL.evidence.map(({ id, text }) => ({ id, text })),
  answer: PASSWORD_OVER_REFUSAL.answer,
};

describe('the live judge from the environment', () => {
  it('heuristic-encoder needs the encoder: liveJudgeFromEnv says how to get it, and an unknown kind is named', () => {
    expect(() => liveJudgeFromEnv({}, 'heuristic-encoder')).toThrow(/judge kind heuristic-encoder needs the sentence encoder: use loadLiveJudge\(\)/);
    expect(() => liveJudgeFromEnv({}, 'maybe' as never)).toThrow(/judge kind maybe is invalid: use heuristic, heuristic-encoder or llm/);
  });

  it('loadLiveJudge loads the sentence encoder for heuristic-encoder; other kinds as liveJudgeFromEnv', async () => {
    const { judge, description } = await loadLiveJudge({}, 'heuristic-encoder');
    expect(judge.info.promptVersion).toBe(`${HEURISTIC_JUDGE_VERSION}+encoder-v2`);
    expect(description).toBe(`heuristic (offline, ${HEURISTIC_JUDGE_VERSION}+encoder-v2)`);
    expect((await loadLiveJudge({})).judge.info.promptVersion).toBe(HEURISTIC_JUDGE_VERSION);
  });

  it('groundcheck judge-worker --judge heuristic-encoder stores its own judgment beside the lexical one: the over-refusal the word rules credit', async () => {
    const path = join(tempDir(), 'captures.db');
    const store = openCaptureStore({ path });
    const result = traceFromPlain(OVER_REFUSAL);
    if (!result.ok) throw new Error(result.error);
    await store.writeCaptures([captureFromTrace(result.trace, { requestId: 'r1', route: '/api/chat', method: 'POST', status: 200, latencyMs: 1, capturedAt: new Date().toISOString() })]);
    await store.close();

    for (const judge of ['heuristic', 'heuristic-encoder']) {
      const run = await runCli(['judge-worker', '--db', path, '--judge', judge, '--settle-ms', '0', '--once']);
      expect([run.code, run.stderr]).toEqual([0, expect.stringContaining(`with the heuristic (offline, ${HEURISTIC_JUDGE_VERSION}${judge === 'heuristic' ? '' : '+encoder-v2'}) judge`)]);
    }
    const reopened = openCaptureStore({ path });
    onCleanup(() => reopened.close());
    const judgments = (await reopened.getCapture(result.trace.id))!.judgments;
    const outcomes = Object.fromEntries(judgments.map((judgment) => [judgment.judge.promptVersion, judgment.flags === null ? 'error' : outcomeOf(judgment.flags)]));
    expect(outcomes).toEqual({ [HEURISTIC_JUDGE_VERSION]: 'correct_refusal', [`${HEURISTIC_JUDGE_VERSION}+encoder-v2`]: 'over_refusal' });
  });
});
