import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAnswerNotes } from '../src/contract/notes.js';
import { loadSuite } from '../src/eval/suite.js';
import { runEval } from '../src/eval/runner.js';
import { createLocalChatModel } from '../src/providers/local/generator.js';
import { createLocalEmbedder } from '../src/providers/local/embedder.js';
import { memoryLogger } from '../src/test-support/capture-helpers.js';
import { handbookIndex, onCleanup, tempDir } from '../src/test-support/fixtures.js';
import { createApp } from './app.js';

const SMOKE = new URL('../evals/suites/smoke.json', import.meta.url).pathname;

describe('the demo evaluated as an HTTP target', () => {
  it('gives the judges exactly the chunks its /api/chat returned, and the same answers and verdicts as the in-process pipeline', async () => {
    const demo = createApp({ index: await handbookIndex(), capture: false, env: {}, logger: memoryLogger().logger });
    const server = demo.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    onCleanup(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/chat`;

    const overHttp = await runEval({ suite: loadSuite(SMOKE, { target: url }), cwd: tempDir() });
    const inProcess = await runEval({ suite: SMOKE, generator: createLocalChatModel(), embedder: createLocalEmbedder(), cwd: tempDir(), indexPath: join(tempDir(), 'index.db') });

    const http = overHttp.runs[0]!.questions;
    const local = inProcess.runs[0]!.questions;
    expect(overHttp.runs[0]!.failedQuestions).toEqual([]);
    expect(http.map((question) => question.id)).toEqual(local.map((question) => question.id));
    let gated = 0;
    for (const [index, question] of http.entries()) {
      const twin = local[index]!;
      // The evidence is the demo's chunk texts, byte for byte, which are the pipeline's chunk texts.
      expect(question.retrievedChunkIds, question.id).toEqual(twin.retrievedChunkIds);
      const chunkEvidence = (of: typeof question) => of.evidence.filter((passage) => passage.kind === 'chunk').map(({ id, text }) => ({ id, text }));
      // A gate refusal included: in process the judge reads the chunks the gate withheld, and the
      // demo's /api/chat returns them as `withheldChunks`, so over HTTP it reads the same.
      if (twin.rag!.trace.refusalReason === 'gate') {
        gated += 1;
        expect(chunkEvidence(twin).map(({ id }) => id), question.id).toEqual(twin.rag!.trace.withheldChunks!.map((chunk) => chunk.chunkId));
      }
      expect(chunkEvidence(question), question.id).toEqual(chunkEvidence(twin));
      expect(question.rag!.judgment.status === 'ok' && question.rag!.judgment.refusalVerdict, question.id).toBe(twin.rag!.judgment.status === 'ok' && twin.rag!.judgment.refusalVerdict);
      // The same answer; the outdated-document note is the app's wording (the demo's sends readers to HR).
      expect(parseAnswerNotes(question.rag!.answer).answer, question.id).toBe(parseAnswerNotes(twin.rag!.answer).answer);
      expect(question.rag!.judgment, question.id).toMatchObject({ status: twin.rag!.judgment.status, claims: twin.rag!.judgment.status === 'ok' ? twin.rag!.judgment.claims : [] });
    }
    // The smoke suite has gate refusals, so the branch above ran.
    expect(gated).toBeGreaterThan(0);
  });
});
