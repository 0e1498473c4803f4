import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createHeuristicFaithfulnessJudge } from '../../judge/index.js';
import { createHeuristicPairwiseJudge } from '../../judge/pairwise.js';
import type { FaithfulnessInput, FaithfulnessJudge } from '../../judge/types.js';
import { onCleanup, tempDir } from '../../test-support/fixtures.js';
import { serveForeignApp, SHOP_KNOWLEDGE_BASE, type ForeignAppRecord } from '../../test-support/foreign-rag-app.js';
import { openLlmCache } from '../cache.js';
import { runEval } from '../runner.js';
import { loadSuite } from '../suite.js';
import { writeReports } from '../write-reports.js';
import { fillTemplate, readAnswer, readPath } from './http-target.js';
import { DEFAULT_RESPONSE_MAPPING } from './target-spec.js';
import { traceFromPlain } from '../../contract/plain-trace.js';
import { outcomeOf, flagsOf } from '../../contract/outcome.js';
import { judgeTrace } from '../../judge/index.js';
import { REFUSAL_SENTENCE } from '../../contract/refusal.js';

const QUESTIONS = fileURLToPath(new URL('./__fixtures__/shop-questions.jsonl', import.meta.url));

/** The real offline judge, recording every input it was given. */
function recordingJudge(): { judge: FaithfulnessJudge; inputs: FaithfulnessInput[] } {
  const inner = createHeuristicFaithfulnessJudge();
  const inputs: FaithfulnessInput[] = [];
  return { inputs, judge: { info: inner.info, judge: (input, options) => (inputs.push(structuredClone(input)), inner.judge(input, options)) } };
}

type AppChunk = { id: string; text: string; title: string; updated: string; score: number };

/** The RAG-on responses the app sent, by question. */
function ragResponses(records: ForeignAppRecord[]): Map<string, { answer: string; chunks: AppChunk[] }> {
  return new Map(
    records
      .filter((record) => (record.body as { mode?: string }).mode === 'rag')
      .map((record) => [(record.body as { message: string }).message, record.response as { answer: string; chunks: AppChunk[] }]),
  );
}

describe('HTTP target: an app not built with groundcheck', () => {
  it('judges exactly the chunks the app returned, scores retrieval by its chunk ids and catches its planted error', async () => {
    const app = await serveForeignApp({ onClose: onCleanup });
    const { judge, inputs } = recordingJudge();
    const suite = loadSuite(QUESTIONS, { target: `${app.url}/api/chat` });
    expect(suite.target).toMatchObject({ kind: 'http', url: `${app.url}/api/chat`, method: 'POST' });
    const results = await runEval({ suite, judge: { faithfulness: judge, pairwise: createHeuristicPairwiseJudge() }, concurrency: 3, cwd: tempDir() });

    expect(results.target).toEqual({ kind: 'http', name: `POST ${app.url}/api/chat`, norag: true });
    expect(results.config).toMatchObject({ generator: null, embedder: null, indexPath: null, pipeline: {} });
    const run = results.runs[0]!;
    expect(run.failedQuestions).toEqual([]);
    // Default request: {"message", "mode"}; both modes asked once per question.
    const byText = (a: unknown, b: unknown) => JSON.stringify(a).localeCompare(JSON.stringify(b));
    expect(app.records.map((record) => record.body).sort(byText)).toEqual(run.questions.flatMap((question) => [{ message: question.question, mode: 'rag' }, { message: question.question, mode: 'norag' }]).sort(byText));
    const responses = ragResponses(app.records);
    for (const question of run.questions) {
      const sent = responses.get(question.question)!;
      const expected = sent.chunks.map((chunk) => ({ id: chunk.id, text: chunk.text, title: chunk.title, updated: chunk.updated }));
      // The RAG-on judgment's evidence is the app's chunks, byte for byte, in the app's order.
      const ragInput = inputs.find((input) => input.question === question.question && input.answer === sent.answer)!;
      expect(ragInput.evidence.map(({ id, text, title, updated }) => ({ id, text, title, updated }))).toEqual(expected);
      expect(question.evidence.filter((passage) => passage.kind === 'chunk').map(({ id, text, title, updated }) => ({ id, text, title, updated }))).toEqual(expected);
      expect(question.rag!.answer).toBe(sent.answer);
      expect(question.rag!.trace.chunks.map((chunk) => [chunk.chunkId, chunk.score])).toEqual(sent.chunks.map((chunk) => [chunk.id, chunk.score]));
      expect(question.retrievedChunkIds).toEqual(sent.chunks.map((chunk) => chunk.id));
    }
    const byId = new Map(run.questions.map((question) => [question.id, question]));
    expect(byId.get('shop-1')!.retrieval).toMatchObject({ recall: { 1: 1, 5: 1 }, precision: { 1: 1 } });
    expect(byId.get('shop-5')!.rag).toMatchObject({ refused: true });
    // The app's planted bug ("3-year" where its chunk says 2-year) is caught against its own chunk.
    const warranty = byId.get('shop-3')!.rag!.judgment;
    expect(warranty).toMatchObject({ status: 'ok', hallucinated: true });
    expect(warranty.status === 'ok' && warranty.claims.some((claim) => claim.verdict === 'contradicted' && claim.evidenceChunkId === 'kb-301')).toBe(true);
    expect(results.aggregate['recall@5']!.mean).toBe(1);
    expect(results.aggregate.refusalRate!.mean).toBe(1);
    expect(results.aggregate.hallucinationRate!.mean).toBeCloseTo(1 / 5);
    expect(results.usage.target).toEqual({ calls: 12, failedCalls: 0, cacheHits: 0 });
    expect(results.usage.models).toEqual([]);

    const paths = writeReports(results, tempDir());
    const html = (await import('node:fs')).readFileSync(paths.html, 'utf8');
    expect(html).toContain(`target <code>POST ${app.url}/api/chat</code>`);
    expect(html).toContain('Electronics carry a 3-year warranty [KB-301]');
  });

  it('a suite maps another request and response shape, reads secrets from the environment, and caches by target, question and mode', async () => {
    const app = await serveForeignApp({ apiKey: 'k-123', onClose: onCleanup });
    const dir = tempDir();
    writeFileSync(
      join(dir, 'shop.json'),
      JSON.stringify({
        name: 'shop',
        questions: QUESTIONS,
        target: {
          url: `${app.url}/v2/ask`,
          headers: { 'x-api-key': '${SHOP_KEY}' },
          body: { query: '{{question}}', options: { retrieval: '{{mode}}' } },
          modes: { rag: true, norag: false },
          response: { answer: 'data.reply', chunks: 'data.context', id: 'docId', text: 'content', title: 'meta.heading', updated: 'meta.date', score: 'similarity' },
        },
        gates: { 'recall@1': { min: 1 } },
      }),
    );
    const cache = openLlmCache({ path: join(dir, 'cache.db') });
    onCleanup(() => cache.close());
    const config = { suite: loadSuite(join(dir, 'shop.json')), cache, env: { SHOP_KEY: 'k-123' }, cwd: dir };
    const first = await runEval(config);
    expect(first.runs[0]!.failedQuestions).toEqual([]);
    expect(app.records).toHaveLength(12);
    expect(app.records[0]!.headers['x-api-key']).toBe('k-123');
    expect(app.records.map((record) => (record.body as { options: { retrieval: boolean } }).options.retrieval).filter(Boolean)).toHaveLength(6);
    const warranty = first.runs[0]!.questions.find((question) => question.id === 'shop-3')!;
    expect(warranty.evidence[0]).toMatchObject({ id: 'kb-301', title: 'Warranty', updated: '2026-01-05', text: SHOP_KNOWLEDGE_BASE.find((chunk) => chunk.id === 'kb-301')!.text });
    expect(warranty.rag!.trace.models.chat).toBe('shop-bot-1');
    expect(first.gates).toEqual([expect.objectContaining({ metric: 'recall@1', passed: true })]);

    // A rerun asks the app nothing: every answer comes from the cache.
    const second = await runEval(config);
    expect(app.records).toHaveLength(12);
    expect(second.usage.target).toEqual({ calls: 0, failedCalls: 0, cacheHits: 12 });
    expect(second.runs[0]!.questions.map((question) => question.rag!.answer)).toEqual(first.runs[0]!.questions.map((question) => question.rag!.answer));
    // A missing secret fails before anything is asked.
    await expect(runEval({ ...config, env: {} })).rejects.toThrow('target header x-api-key uses ${SHOP_KEY}, which is not set in the environment');
  });

  it('retries a retryable status with the runner retries, and a response without the mapped fields fails the question with the path named', async () => {
    const app = await serveForeignApp({ onClose: onCleanup });
    const flaky = await runEval({ suite: loadSuite(QUESTIONS, { target: `${app.url}/flaky` }), maxRetries: 1, retryInitialDelayMs: 1, cwd: tempDir() });
    expect(flaky.runs[0]!.failedQuestions).toEqual([]);
    expect(flaky.usage.retries).toBe(12);
    expect(flaky.usage.target).toEqual({ calls: 12, failedCalls: 12, cacheHits: 0 });

    const broken = await runEval({ suite: loadSuite(QUESTIONS, { target: `${app.url}/broken` }), cwd: tempDir() });
    expect(broken.passed).toBe(false);
    expect(broken.runs[0]!.failedQuestions).toHaveLength(6);
    expect(broken.runs[0]!.failedQuestions[0]!.error).toMatch(/^target POST http:\/\/127\.0\.0\.1:\d+\/broken \(mode (rag|norag)\): the response has no string at "answer" \(got \{"reply":"no answer field here"\}\)/);

    const legacy = await runEval({ suite: loadSuite(QUESTIONS, { target: `${app.url}/legacy` }), cwd: tempDir() });
    // `sources` entries with `chunkId` and `text` are read by default.
    expect(legacy.runs[0]!.questions[0]!.retrievedChunkIds).toEqual(['kb-101', 'kb-102']);
  });

  it('unreachable endpoint: the question fails with the connection error, after the retries', async () => {
    // A port that was just free: nothing listens there.
    const server = (await import('node:net')).createServer().listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const port = (server.address() as { port: number }).port;
    await new Promise((resolve) => server.close(resolve));
    const results = await runEval({ suite: loadSuite(QUESTIONS, { target: `http://127.0.0.1:${port}/api/chat` }), maxRetries: 1, retryInitialDelayMs: 1, cwd: tempDir() });
    expect(results.runs[0]!.failedQuestions[0]!.error).toBe(`target POST http://127.0.0.1:${port}/api/chat: ECONNREFUSED connect ECONNREFUSED 127.0.0.1:${port}`);
    expect(results.usage.retries).toBe(12);
  });
});

describe('request templates and response paths', () => {
  it.each([
    ['data.reply', { data: { reply: 'x' } }, 'x'],
    ['choices.0.text', { choices: [{ text: 'y' }] }, 'y'],
    ['missing.path', { data: 1 }, undefined],
    ['', 'whole', 'whole'],
  ])('readPath(%s)', (path, value, expected) => expect(readPath(value, path)).toBe(expected));

  it('fills placeholders; a string that is exactly a placeholder takes the value with its JSON type', () => {
    expect(fillTemplate({ q: '{{question}}', rag: '{{mode}}', text: 'Q: {{question}} ({{mode}})', list: ['{{ question }}', 3] }, 'Why?', false)).toEqual({
      q: 'Why?',
      rag: false,
      text: 'Q: Why? (false)',
      list: ['Why?', 3],
    });
  });

  it('an unknown placeholder or a bad URL in a suite is an input error', () => {
    const dir = tempDir();
    const write = (target: unknown) => {
      writeFileSync(join(dir, 's.json'), JSON.stringify({ questions: QUESTIONS, target }));
      return () => loadSuite(join(dir, 's.json'));
    };
    expect(write({ url: 'http://127.0.0.1:1/x', body: { q: '{{query}}' } })).toThrow('unknown placeholder {{query}} in "{{query}}": use {{question}} or {{mode}}');
    expect(write({ url: 'ftp://x' })).toThrow(/target.url: must start with http:\/\/ or https:\/\//);
    expect(write({ url: 'http://127.0.0.1:1/x', response: { answers: 'a' } })).toThrow(/Unrecognized key: "answers"/);
    expect(write('groundcheck')).toThrow(/corpus: missing: the groundcheck target needs a corpus folder/);
  });
});

describe('a gate refusal of an app over HTTP', () => {
  const parental = { id: 'leave#parental', text: 'Birth parents may take up to 20 weeks of parental leave on full pay.', title: 'Leave Policy' };
  const bitcoin = { id: 'pay#payday', text: 'Salaries are paid monthly on the 28th.', title: 'Pay' };

  it('the withheld chunks it returns (`withheldChunks`) are what the judge reads: an over-refusal when one answers, a correct refusal when none does', async () => {
    const judge = createHeuristicFaithfulnessJudge();
    const outcome = async (question: string, withheld: object[]) => {
      const reply = readAnswer({ answer: REFUSAL_SENTENCE, sources: [], withheldChunks: withheld }, { response: DEFAULT_RESPONSE_MAPPING }, 'app', 'rag');
      const converted = traceFromPlain({ ...reply, query: question });
      if (!converted.ok) throw new Error(converted.error);
      expect(converted.trace).toMatchObject({ refused: true, refusalReason: 'gate', chunks: [] });
      return outcomeOf(flagsOf(await judgeTrace(judge, converted.trace)));
    };
    expect(await outcome('How many weeks of parental leave does a birth parent get?', [parental, bitcoin])).toBe('over_refusal');
    expect(await outcome('Can I get paid in bitcoin?', [bitcoin])).toBe('correct_refusal');
  });

  it('a response without them reads as before; one that is not a list, or withheld chunks beside an answer, is a clear error', () => {
    expect(readAnswer({ answer: REFUSAL_SENTENCE, chunks: [] }, { response: DEFAULT_RESPONSE_MAPPING }, 'app', 'rag')).toEqual({ answer: REFUSAL_SENTENCE, chunks: [] });
    expect(() => readAnswer({ answer: REFUSAL_SENTENCE, chunks: [], withheldChunks: 'none' }, { response: DEFAULT_RESPONSE_MAPPING }, 'app', 'rag')).toThrow(/something other than a list at "withheldChunks"/);
    expect(traceFromPlain({ query: 'q', chunks: [], withheldChunks: [parental], answer: 'Twenty weeks.' })).toEqual({ ok: false, error: expect.stringMatching(/^withheldChunks: only for a refusal with no chunks/) });
    expect(traceFromPlain({ query: 'q', chunks: [bitcoin], withheldChunks: [parental], answer: REFUSAL_SENTENCE })).toMatchObject({ ok: false });
  });
});
