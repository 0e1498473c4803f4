import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { main } from '../cli/main.js';
import type { CliIO } from '../cli/io.js';
import { createLocalEmbedder } from '../providers/local/embedder.js';
import { createLocalChatModel } from '../providers/local/generator.js';
import { judgeReply } from '../test-support/capture-helpers.js';
import { onCleanup, tempDir } from '../test-support/fixtures.js';
import { chatReply, startMockOpenAIServer, type RecordedRequest } from '../testing/index.js';
import { createOpenAI } from '../providers/openai.js';
import { openLlmCache } from './cache.js';
import { runExplainEval } from './explain-runner.js';
import { loadExplainSuite, suiteKindOf } from './explain-suite.js';
import { loadSuite } from './suite.js';

const SUITE = fileURLToPath(new URL('../../evals/suites/explain-errors.json', import.meta.url));
const APP = fileURLToPath(new URL('../../fixtures/breakable-app', import.meta.url));

function io(): { io: CliIO; stdout: () => string; stderr: () => string } {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { stdout: { write: (text: string) => out.push(text) }, stderr: { write: (text: string) => err.push(text) }, env: {}, cwd: process.cwd() }, stdout: () => out.join(''), stderr: () => err.join('') };
}

describe('the explain-errors eval, offline', () => {
  it('triggers every failure over real HTTP, explains each with and without source, judges blind in both orders, and reports per group and the truncation effect', async () => {
    const results = await runExplainEval({ suite: SUITE, generator: createLocalChatModel(), embedder: createLocalEmbedder(), indexPath: join(tempDir(), 'source.db'), seed: 7 });
    expect(results.failures.map((failure) => [failure.id, failure.status, failure.error])).toEqual(results.failures.map((failure) => [failure.id, 'ok', null]));
    expect(results.suite.groups).toEqual({ 'app-code': 10, 'stack-named': 5 });

    // One failure end to end: both explanations, their traces, claims against the excerpt, a blind verdict in both orders.
    const wrongField = results.failures.find((failure) => failure.id === 'wrong-field')!;
    expect(wrongField.httpStatus).toBe(500);
    expect(wrongField.evidence.map((passage) => passage.id)).toEqual(['src/lib/slug.ts#slugify', 'src/routes/posts.js#createPost', 'error-report']);
    const { rag, norag, noragTail } = wrongField.sides!;
    expect(rag.mode).toBe('rag');
    expect(rag.trace?.chunks.length).toBeGreaterThan(0);
    expect(rag.text).toContain('`const slug = slugify(req.body.name);`');
    expect(norag.mode).toBe('norag');
    expect(norag.trace?.chunks).toEqual([]);
    expect(norag.text).not.toContain('req.body.name');
    expect(norag.text).toContain('`createPost` (src/routes/posts.js:38)');
    expect(noragTail.errorReport).not.toMatch(/^app /m);
    expect(rag.claims).toMatchObject({ status: 'ok', counts: { contradicted: 0, absent: 0 } });
    expect(wrongField.pairwise!.trials.map((trial) => trial.order).sort()).toEqual(['norag-first', 'rag-first']);
    expect(wrongField.pairwise!.outcome).toBe('rag');
    expect(wrongField.pairwise!.shown.rag).not.toMatch(/retriev/i);

    const { groups } = results.summary;
    expect(groups.all.judgeErrors).toBe(0);
    expect(groups.all.pairwise.errors).toBe(0);
    expect(groups.all.pairwise.positionConsistency).toBe(1);
    expect(groups['app-code'].pairwise.n + groups['stack-named'].pairwise.n).toBe(15);
    // The truncation bug: RAG off loses the fix location when only the tail of the stack is kept.
    expect(groups['app-code'].truncation.noragTail!).toBeLessThan(groups['app-code'].truncation.noragAppFrames!);
    expect(groups.all.truncation.leadWithTail!).toBeGreaterThan(groups.all.truncation.leadWithAppFrames!);
    // A judge that sees less than the generator calls its specifics fabrication.
    expect(groups.all.judgeEvidence.stackOnly!).toBeLessThan(groups.all.judgeEvidence.excerpt!);
    expect(groups.all.judgeEvidence.excerpt!).toBeLessThanOrEqual(groups.all.judgeEvidence.generatorContext!);
    expect(results.gates.map((gate) => gate.metric)).toEqual(['judgeErrorRate', 'ragFixLocationRate']);
  });

  it('runs from the CLI as `groundcheck eval --suite evals/suites/explain-errors.json`, writing Markdown and JSON reports', async () => {
    const out = tempDir();
    const captured = io();
    const code = await main(['eval', '--suite', SUITE, '--out', out, '--db', join(tempDir(), 'source.db'), '--no-cache', '--gate', 'noragFixLocationRate>=0'], captured.io);
    expect(captured.stdout()).toMatch(/Cause in app code\s+win rate/);
    expect(captured.stdout()).toMatch(/off with tail-only truncation/);
    expect(code).toBe(0);
    const markdown = readFileSync(captured.stdout().match(/reports: (\S+\.md)/)![1]!, 'utf8');
    expect(markdown).toContain('## Truncation effect (RAG off, points to the fix location)');
    expect(markdown).toContain('| Cause named by the stack |');
    expect(markdown).toMatch(/\(symmetric by construction\)/);
  });

  it('runs with a model: the explainer and the LLM judges through the real openai SDK (a local mock server), cached on rerun', async () => {
    const suite = loadExplainSuite(SUITE);
    const subset = { ...suite, failures: suite.failures.filter((failure) => ['null-lookup', 'missing-file'].includes(failure.id)) };
    const kindOf = (request: RecordedRequest) => ((request.body.response_format as { json_schema?: { name?: string } } | undefined)?.json_schema?.name ?? 'explain');
    const server = await startMockOpenAIServer({
      chat: (request) => {
        const kind = kindOf(request);
        if (kind === 'faithfulness_judgment') return judgeReply(request);
        if (kind === 'explanation_judgment') {
          const side = { foundCause: true, pointsToFixLocation: true, proposesWorkingFix: false, explainsForLearner: true };
          return chatReply(JSON.stringify({ reason: 'Both name the frame.', a: side, b: side }));
        }
        return chatReply('This happens because `post` is undefined at src/routes/posts.js:8; answer 404 when `findPost` finds nothing.');
      },
    });
    onCleanup(() => void server.close());
    const openai = createOpenAI({ apiKey: 'k', baseURL: server.url, maxRetries: 0 });
    const cache = openLlmCache({ path: join(tempDir(), 'cache.db') });
    onCleanup(() => cache.close());
    const config = { suite: subset, generator: openai.chat('explainer'), embedder: createLocalEmbedder(), judge: { chat: openai.chat('judge') }, indexPath: join(tempDir(), 'source.db'), cache };
    const results = await runExplainEval(config);
    expect(results.failures.map((failure) => failure.status)).toEqual(['ok', 'ok']);
    expect(results.versions).toMatchObject({ generator: 'openai:explainer', claimsJudge: { kind: 'llm' }, pairwiseJudge: { kind: 'llm', promptVersion: 'explanation-llm-v12' } });
    const explainCalls = server.requests.filter((request) => kindOf(request) === 'explain');
    expect(explainCalls).toHaveLength(6); // 2 failures × (RAG on, RAG off, RAG off tail-only)
    const ragPrompt = (explainCalls[0]!.body.messages as { content: string }[])[1]!.content;
    expect(ragPrompt).toContain('<document id="src/routes/posts.js#showPost">');
    expect(results.summary.groups.all.pairwise.errors).toBe(0);
    expect(results.summary.groups.all.judgeErrors).toBe(0);
    expect(results.usage.models.map((model) => model.model).sort()).toEqual(['openai:explainer', 'openai:judge']);
    const before = server.requests.length;
    await runExplainEval(config);
    expect(server.requests.length).toBe(before);
  });

  it('rejects bad suites clearly: a Q&A loader given an explain suite, unknown fields, unknown gate metrics', async () => {
    expect(suiteKindOf(SUITE)).toBe('explain-errors');
    expect(() => loadSuite(SUITE)).toThrow(/is an explain-errors suite/);
    const bad = join(tempDir(), 'bad.json');
    const suite = JSON.parse(readFileSync(SUITE, 'utf8'));
    writeFileSync(bad, JSON.stringify({ ...suite, app: APP, failures: [{ ...suite.failures[0], fixLocation: 'no-colon' }] }));
    expect(() => loadExplainSuite(bad)).toThrow(/failures\.0\.fixLocation/);
    writeFileSync(bad, JSON.stringify({ ...suite, app: APP, gates: { hallucinationRate: { max: 0.1 } } }));
    expect(() => loadExplainSuite(bad)).toThrow(/unknown metric "hallucinationRate"/);
    const captured = io();
    expect(await main(['eval', '--suite', SUITE, '--runs', '2'], captured.io)).toBe(2);
  });

  it('groundcheck index-source builds and refreshes the source index', async () => {
    const db = join(tempDir(), 'source.db');
    const first = io();
    expect(await main(['index-source', APP, '--db', db], first.io)).toBe(0);
    expect(first.stdout()).toMatch(/^19 added, 0 replaced, 0 unchanged \(skipped\), 0 removed; \d+ chunks written/m);
    const second = io();
    expect(await main(['index-source', APP, '--db', db], second.io)).toBe(0);
    expect(second.stdout()).toMatch(/0 added, 0 replaced, 19 unchanged \(skipped\), 0 removed/);
  });
});
