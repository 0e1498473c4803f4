import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { traceFromPlain } from '../contract/plain-trace.js';
import { outcomeOf } from '../contract/outcome.js';
import { HEURISTIC_JUDGE_VERSION } from '../judge/index.js';
import { runCli } from '../test-support/cli.js';
import { onCleanup, tempDir } from '../test-support/fixtures.js';
import { liveJudgeFromEnv, loadLiveJudge } from './judge-config.js';
import { openCaptureStore } from './store.js';
import { captureFromTrace } from './to-capture.js';

// A hand-labelled over-refusal (fixtures/judge-labels/handbook-fresh13.jsonl, l212): the password
// rule answers the casual question, in words too unlike it for the word rules alone.
const OVER_REFUSAL = {
  query: 'IT says my new password is too short, how many charachters does it need to be?? and can i just use the same one as my personal gmail so i dont forget it',
  chunks: [
    { id: 'it-and-security#passwords-and-passphrases', text: '[Source: IT and Security | Section: Passwords and Passphrases | Last updated: 2025-07-14]\nPasswords for standard user accounts must be at least 14 characters long. We recommend a passphrase of three or more random words. Every password must be unique: never reuse a work password on another system or on a personal account.' },
    { id: 'training-and-development#training-costing-1-000-or-more', text: '[Source: Training and Development | Section: Training Costing £1,000 or More | Last updated: 2025-11-03]\nTraining that costs £1,000 or more in total, including VAT and exam fees, needs written approval from your manager before you book or commit to it.' },
  ],
  answer: "I don't know: the provided documents do not cover this.",
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
