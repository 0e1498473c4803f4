import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHeuristicFaithfulnessJudge } from '../judge/index.js';
import { createLocalEmbedder } from '../providers/local/embedder.js';
import { createLocalChatModel } from '../providers/local/generator.js';
import { ingestDirectory } from '../rag/ingest.js';
import { createRagPipeline } from '../rag/pipeline.js';
import { openIndex } from '../rag/store.js';
import { memoryLogger } from '../test-support/capture-helpers.js';
import { runCli } from '../test-support/cli.js';
import { copyCorpus, onCleanup, tempDir } from '../test-support/fixtures.js';
import { findDrift } from './drift.js';
import { openCaptureStore } from './store.js';
import { captureFromTrace } from './to-capture.js';
import { createJudgeWorker } from './worker.js';

const cli = (args: string[]) => runCli(args, { cwd: process.cwd() });

describe('drift', () => {
  it('lists a judgment after its chunk text changes (re-ingest of a modified corpus) and after a chunk vanishes', async () => {
    const dir = tempDir();
    const corpus = copyCorpus();
    const indexPath = join(dir, 'index.db');
    const capturePath = join(dir, 'captures.db');
    const index = openIndex({ path: indexPath, embedder: createLocalEmbedder() });
    onCleanup(() => index.close());
    await ingestDirectory(index, corpus);
    const store = openCaptureStore({ path: capturePath });
    onCleanup(() => store.close());

    const pipeline = createRagPipeline({ index, chat: createLocalChatModel() });
    const mileage = await pipeline.ask('What is the mileage rate for a car?');
    const probation = await pipeline.ask('How long is the probation period?');
    expect(mileage.chunks.map((chunk) => chunk.chunkId)).toContain('travel-and-expenses#mileage-rates');
    expect(probation.chunks.map((chunk) => chunk.chunkId)).toContain('onboarding#probation-period');
    const http = { requestId: 'r', route: '/api/chat', method: 'POST', status: 200, latencyMs: 1, capturedAt: new Date().toISOString() };
    await store.writeCaptures([captureFromTrace(mileage, http), captureFromTrace(probation, http)]);
    const worker = createJudgeWorker({ store, judge: createHeuristicFaithfulnessJudge(), settleMs: 0, logger: memoryLogger().logger });
    worker.start();
    await worker.whenIdle();
    await worker.stop();

    expect(await findDrift(store, index.chunkHashes())).toEqual({ judgmentsChecked: 2, drifted: [] });
    const clean = await cli(['drift', '--db', capturePath, '--index', indexPath]);
    expect([clean.code, clean.stdout]).toEqual([0, expect.stringMatching(/^0 of 2 judgment\(s\) refer to evidence that changed or vanished/)]);

    // Change the mileage section's text and re-ingest.
    const travel = join(corpus, 'travel-and-expenses.md');
    const original = readFileSync(travel, 'utf8');
    expect(original).toContain('45p');
    writeFileSync(travel, original.replaceAll('45p', '52p'));
    await ingestDirectory(index, corpus);
    const changed = await findDrift(store, index.chunkHashes());
    expect(changed.drifted).toHaveLength(1);
    expect(changed.drifted[0]).toMatchObject({
      traceId: mileage.id,
      judgeVersion: worker.judgeVersion,
      status: 'ok',
      chunks: expect.arrayContaining([
        { chunkId: 'travel-and-expenses#mileage-rates', capturedHash: expect.any(String), currentHash: expect.any(String), change: 'changed' },
      ]),
    });
    for (const chunk of changed.drifted[0]!.chunks) expect(chunk.currentHash).not.toBe(chunk.capturedHash);

    // Remove the onboarding document: its chunks vanish.
    rmSync(join(corpus, 'onboarding.md'));
    await ingestDirectory(index, corpus);
    const vanished = await findDrift(store, index.chunkHashes());
    const probationDrift = vanished.drifted.find((judgment) => judgment.traceId === probation.id);
    expect(probationDrift?.chunks).toEqual(
      expect.arrayContaining([{ chunkId: 'onboarding#probation-period', capturedHash: expect.any(String), currentHash: null, change: 'vanished' }]),
    );

    const report = await cli(['drift', '--db', capturePath, '--index', indexPath]);
    expect(report.code).toBe(0);
    expect(report.stdout).toMatch(/^2 of 2 judgment\(s\) refer to evidence that changed or vanished/);
    expect(report.stdout).toContain(mileage.id);
    expect(report.stdout).toMatch(/changed {2}travel-and-expenses#mileage-rates {2}\([0-9a-f]{12} → [0-9a-f]{12}\)/);
    expect(report.stdout).toMatch(/vanished {1}onboarding#probation-period/);
    const json = await cli(['drift', '--db', capturePath, '--index', indexPath, '--json']);
    expect(JSON.parse(json.stdout)).toEqual(vanished);
    expect((await cli(['drift', '--db', capturePath, '--index', indexPath, '--check'])).code).toBe(1);
  });

  it.each([
    [['drift', '--db', 'DIR/none.db', '--index', 'DIR/index.db'], /no capture store at .*none\.db/],
    [['drift', '--bogus'], /Unknown option '--bogus'/],
    [['judge-worker', '--db', 'DIR/none.db', '--once'], /no capture store at .*none\.db/],
    [['judge-worker', '--judge', 'maybe'], /--judge must be heuristic, heuristic-encoder or llm, not maybe/],
    [['judge-worker', '--settle-ms=-5'], /--settle-ms must be a whole number of at least 0/],
    [['judge-worker', '--concurrency', '0'], /--concurrency must be a whole number of at least 1/],
  ])('CLI usage and input errors exit 2: %j', async (args, message) => {
    const dir = tempDir();
    const result = await cli(args.map((arg) => arg.replace('DIR', dir)));
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
  });
});
