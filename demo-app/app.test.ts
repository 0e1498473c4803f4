import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { OUTCOME_TABLE } from '../src/contract/outcome.js';
import { HANDBOOK_OUTDATED_NOTE } from '../src/contract/notes.js';
import { memoryLogger } from '../src/test-support/capture-helpers.js';
import { createLocalEmbedder } from '../src/providers/local/embedder.js';
import { ingestDirectory } from '../src/rag/ingest.js';
import { openIndex } from '../src/rag/store.js';
import { CORPUS_DIR, handbookIndex, onCleanup, tempDir } from '../src/test-support/fixtures.js';
import { createApp, type CreateAppOptions } from './app.js';
import { createLocalChatModel } from '../src/providers/local/generator.js';
import { createRagPipeline } from '../src/rag/pipeline.js';
import { createRedactor } from '../src/capture/redact.js';
import { HTTP_ERROR_TYPES as ERROR_TYPES } from '../src/capture/errors.js';

const TOKEN = 'correct-horse-battery-staple';

async function demo(options: Partial<CreateAppOptions> = {}) {
  const dir = tempDir();
  const created = createApp({
    index: await handbookIndex(),
    capture: { store: join(dir, 'captures.db') },
    worker: { settleMs: 0, pollMs: 20 },
    env: {},
    logger: memoryLogger().logger,
    ...options,
  });
  onCleanup(() => void created.close());
  return created;
}

const chat = (app: Parameters<typeof request>[0], body: unknown) => request(app).post('/api/chat').send(body as object);

describe('demo app API', () => {
  it('POST /api/chat answers {answer, refused, sources, traceId}; GET /api/traces/:id gives the capture and, once judged, the verdict', async () => {
    const { app, capture, worker } = await demo();
    const response = await chat(app, { message: 'What is the mileage rate for a car?' });
    expect(response.status).toBe(200);
    expect(Object.keys(response.body)).toEqual(['answer', 'refused', 'sources', 'traceId']);
    expect(response.body.refused).toBe(false);
    expect(response.body.sources[0]).toEqual({ chunkId: expect.any(String), title: expect.any(String), section: expect.any(String), updated: expect.any(String), score: expect.any(Number), text: expect.any(String) });

    await capture!.flush();
    await worker!.whenIdle();
    const trace = await request(app).get(`/api/traces/${response.body.traceId}`);
    expect(trace.status).toBe(200);
    expect(trace.body).toMatchObject({
      traceId: response.body.traceId,
      capture: { query: 'What is the mileage rate for a car?', answer: response.body.answer, route: '/api/chat', status: 200 },
      judgment: { status: 'ok', judge: { kind: 'heuristic' } },
      drift: [],
    });
    // The offline answer quotes the mileage table's two car rows; the offline judge verifies both.
    expect({ verdict: trace.body.verdict, label: trace.body.label, tone: trace.body.tone, text: trace.body.text }).toEqual({
      verdict: 'correct',
      label: 'Correct',
      tone: 'pass',
      text: 'Correct: answers the question, and every checkable claim is verified by the sources (2 claims checked)',
    });
    expect(trace.body.judgment.claims.map((claim: { verdict: string; evidenceChunkId: string }) => [claim.verdict, claim.evidenceChunkId])).toEqual([
      ['verified', 'travel-and-expenses#mileage-rates'],
      ['verified', 'travel-and-expenses#mileage-rates'],
    ]);
  });

  it('an answer citing an old document carries the handbook\'s note, sending readers to HR (the demo\'s wording, not the library default)', async () => {
    const { app } = await demo();
    // The Code of Conduct was last updated on 2024-06-03, more than 6 months ago.
    const response = await chat(app, { message: 'what should i wear to work' });
    expect(response.body.refused).toBe(false);
    expect(response.body.answer).toMatch(/\(Code of Conduct, updated 2024-06-03\)/);
    expect(response.body.answer.endsWith(`\n\n${HANDBOOK_OUTDATED_NOTE}`)).toBe(true);
  });

  it('a refusal is judged as correctly refused', async () => {
    const { app, capture, worker } = await demo();
    const response = await chat(app, { message: 'What is the capital of Mongolia?' });
    expect(response.body).toMatchObject({ refused: true, sources: [] });
    await capture!.flush();
    await worker!.whenIdle();
    const trace = await request(app).get(`/api/traces/${response.body.traceId}`);
    expect({ verdict: trace.body.verdict, tone: trace.body.tone }).toEqual({ verdict: 'correct_refusal', tone: 'pass' });
  });

  it('a question holding a phone number is judged on what it asks: the redaction placeholder the live judge reads is no topic word', async () => {
    const redactionKey = 'a key of sixteen characters';
    const redactor = createRedactor({ key: redactionKey });
    // A number whose token begins with a letter, the case that read as a topic word before heuristic-v102.
    const phone = ['07700 900120', '07700 900121', '07700 900122', '07700 900123', '07700 900124', '07700 900125'].find((candidate) => /^\[phone:[a-f]/.test(redactor.redactText(candidate)))!;
    expect(phone).toBeDefined();
    const { app, capture, worker } = await demo({ capture: { store: join(tempDir(), 'captures.db'), redactionKey } });
    const response = await chat(app, { message: `What is the mileage rate for a car? call me on ${phone}` });
    expect(response.body.refused).toBe(false);
    await capture!.flush();
    await worker!.whenIdle();
    const trace = await request(app).get(`/api/traces/${response.body.traceId}`);
    expect(trace.body.capture.query).toBe(`What is the mileage rate for a car? call me on ${redactor.redactText(phone)}`);
    expect(trace.body.verdict).toBe('correct');
  });

  it('a gate refusal is judged against the chunks the gate withheld: an over-refusal when one of them answers, and the capture shows them', async () => {
    const index = await handbookIndex();
    // A gate too strict for any question: it refuses what the handbook answers.
    const strict = createRagPipeline({ index, chat: createLocalChatModel(), retrieval: { minSimilarity: 0.99 } });
    const { app, capture, worker } = await demo({ pipeline: strict });
    const answerable = await chat(app, { message: 'How many weeks of parental leave does a birth parent get?' });
    const unanswerable = await chat(app, { message: 'Can I get paid in bitcoin?' });
    for (const response of [answerable, unanswerable]) expect(response.body).toMatchObject({ refused: true, sources: [] });
    // The response carries what the gate withheld (never as sources), with the text retrieval ranked.
    expect(answerable.body.withheldChunks.map((chunk: { chunkId: string }) => chunk.chunkId)).toContain('leave-policy#parental-leave');
    expect(answerable.body.withheldChunks[0]).toMatchObject({ chunkId: expect.any(String), title: expect.any(String), text: expect.stringContaining('') });
    await capture!.flush();
    await worker!.whenIdle();
    const over = await request(app).get(`/api/traces/${answerable.body.traceId}`);
    expect(over.body.capture).toMatchObject({ refusalReason: 'gate', chunks: [] });
    expect(over.body.capture.withheldChunks.map((chunk: { chunkId: string }) => chunk.chunkId)).toContain('leave-policy#parental-leave');
    expect({ verdict: over.body.verdict, tone: over.body.tone }).toEqual({ verdict: 'over_refusal', tone: 'fail' });
    const correct = await request(app).get(`/api/traces/${unanswerable.body.traceId}`);
    expect(correct.body.capture.withheldChunks.length).toBeGreaterThan(0);
    expect(correct.body.verdict).toBe('correct_refusal');
  });

  it.each([
    ['missing message', { hello: 'x' }, 400, 'message.missing'],
    ['null message', { message: null }, 400, 'message.missing'],
    ['array body', [], 400, 'message.missing'],
    ['number message', { message: 42 }, 400, 'message.not_string'],
    ['object message', { message: { text: 'hi' } }, 400, 'message.not_string'],
    ['empty message', { message: '' }, 400, 'message.empty'],
    ['blank message', { message: ' \n\t ' }, 400, 'message.empty'],
    ['2,001 characters', { message: 'a'.repeat(2001) }, 400, 'message.too_long'],
    ['unknown mode', { message: 'hi', mode: 'maybe' }, 400, 'mode.invalid'],
  ])('bad input: %s %j → %i %s', async (_name, body, status, type) => {
    const { app } = await demo({ capture: false });
    const response = await chat(app, body);
    expect([response.status, response.body.error?.type]).toEqual([status, type]);
    expect(response.body.error.message).toEqual(expect.any(String));
  });

  it('bad bodies: malformed JSON, over the limit, not JSON → 400 with their own types; 2,000 characters is still fine', async () => {
    const { app } = await demo({ capture: false });
    const malformed = await request(app).post('/api/chat').set('content-type', 'application/json').send('{"message": "hi"');
    expect([malformed.status, malformed.body.error.type]).toEqual([400, 'body.malformed_json']);
    const scalar = await request(app).post('/api/chat').set('content-type', 'application/json').send('"just a string"');
    expect([scalar.status, scalar.body.error.type]).toEqual([400, 'body.malformed_json']);
    const huge = await chat(app, { message: 'x', padding: 'y'.repeat(20_000) });
    expect([huge.status, huge.body.error.type]).toEqual([400, 'body.too_large']);
    const text = await request(app).post('/api/chat').set('content-type', 'text/plain').send('What is the mileage rate?');
    expect([text.status, text.body.error.type]).toEqual([400, 'body.unsupported_type']);
    const longest = await chat(app, { message: `${'mileage rate '.repeat(154)}?`.slice(0, 2000) });
    expect(longest.status).toBe(200);
  });

  it('GET /api/traces/:id just after the answer, while its capture waits in the write window, gives the capture, not a 404', async () => {
    // The chat page polls for the verdict right after each answer; a loaded server may not have written the capture yet.
    const { app, capture } = await demo({ worker: false });
    const response = await chat(app, { message: 'What is the mileage rate for a car?' });
    expect(capture!.queued).toBeGreaterThan(0);
    const trace = await request(app).get(`/api/traces/${response.body.traceId}`);
    expect(trace.status).toBe(200);
    expect(trace.body.capture.query).toBe('What is the mileage rate for a car?');
  });

  it('unknown trace → 404 trace.not_found; unknown route → 404 route.not_found; a malformed URL → 400; the server keeps answering', async () => {
    const { app } = await demo();
    const unknown = await request(app).get('/api/traces/does-not-exist');
    expect([unknown.status, unknown.body.error.type]).toEqual([404, 'trace.not_found']);
    const route = await request(app).get('/api/nothing-here');
    expect([route.status, route.body.error.type]).toEqual([404, 'route.not_found']);
    const malformed = await request(app).get('/api/traces/%E0%A4%A');
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.type).toBe('request.invalid');
    expect((await chat(app, { message: 'What is the mileage rate?' })).status).toBe(200);
  });

  it('the chat page and its assets are served self-contained (no external origin anywhere)', async () => {
    const { app } = await demo({ capture: false });
    const page = await request(app).get('/');
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    for (const asset of ['/', '/assets/app.css', '/assets/chat.js', '/assets/dashboard.css']) {
      const response = await request(app).get(asset);
      expect(response.status, asset).toBe(200);
      expect(response.text, asset).not.toMatch(/https?:\/\/(?!localhost)/);
    }
  });

  it('capture: false builds the app without capture or judge: no store, no judge calls, nothing captured', async () => {
    const { app, store, worker, judge, metrics } = await demo({ capture: false });
    expect([store, worker, judge]).toEqual([null, null, null]);
    const response = await chat(app, { message: 'What is the mileage rate?' });
    expect(response.status).toBe(200);
    expect((await request(app).get(`/api/traces/${response.body.traceId}`)).status).toBe(404);
    expect((await metrics.captures.get()).values[0]!.value).toBe(0);
  });

  it('the outcome table is the one source for /metrics, the trace API and the dashboard: change a row and all three change', async () => {
    const faithfulRow = OUTCOME_TABLE.find((row) => row.outcome === 'correct')!;
    const original = { applies: faithfulRow.applies, label: faithfulRow.label };
    // Here the row never applies: a correct judgment falls through to `undetermined`.
    faithfulRow.applies = () => false;
    faithfulRow.label = 'Correct (changed row)';
    onCleanup(() => Object.assign(faithfulRow, original));
    const { app, capture, worker } = await demo();
    const response = await chat(app, { message: 'What is the mileage rate for a car?' });
    await capture!.flush();
    await worker!.whenIdle();
    const trace = await request(app).get(`/api/traces/${response.body.traceId}`);
    expect(trace.body.judgment.flags.faithful).toBe(true);
    expect(trace.body.verdict).toBe('undetermined');
    const listed = await request(app).get('/dashboard/api/captures');
    expect(listed.body.captures.map((row: { verdict: string }) => row.verdict)).toEqual(['undetermined']);
    const scraped = (await request(app).get('/metrics')).text;
    expect(scraped).toContain('groundcheck_judgments_total{outcome="undetermined"} 1');
    expect(scraped).toContain('groundcheck_judgments_total{outcome="correct"} 0');

    // Restored, the same kind of judgment is `correct` everywhere again.
    Object.assign(faithfulRow, original);
    const again = await chat(app, { message: 'What is the mileage rate for a car?' });
    await capture!.flush();
    await worker!.whenIdle();
    expect((await request(app).get(`/api/traces/${again.body.traceId}`)).body).toMatchObject({ verdict: 'correct', label: 'Correct' });
    expect((await request(app).get('/metrics')).text).toContain('groundcheck_judgments_total{outcome="correct"} 1');
  });

  it('every error type the API can answer with is listed in the README', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    for (const type of Object.keys(ERROR_TYPES)) expect(readme, type).toContain(`\`${type}\``);
  });
});

describe('dashboard access', () => {
  it('answers 401 without the token, for the page and its API', async () => {
    const { app } = await demo({ dashboardToken: TOKEN });
    const page = await request(app).get('/dashboard').set('accept', 'text/html');
    expect(page.status).toBe(401);
    expect(page.text).toContain('<form method="post" action="/dashboard/login">');
    const api = await request(app).get('/dashboard/api/captures').set('accept', 'application/json');
    expect([api.status, api.body.error.type]).toEqual([401, 'auth.required']);
    const wrong = await request(app).get('/dashboard/api/captures').set('authorization', 'Bearer nope-nope-nope');
    expect([wrong.status, wrong.body.error.type]).toEqual([401, 'auth.invalid_token']);
    const wrongLogin = await request(app).get('/dashboard?token=nope-nope-nope');
    expect(wrongLogin.status).toBe(401);
    expect(wrongLogin.headers['set-cookie']).toBeUndefined();
  });

  it('accepts the bearer header, and a ?token= login that sets an HttpOnly SameSite=Strict cookie and redirects', async () => {
    const { app, capture } = await demo({ dashboardToken: TOKEN });
    await chat(app, { message: 'What is the mileage rate?' });
    await capture!.flush();
    const bearer = await request(app).get('/dashboard/api/captures').set('authorization', `Bearer ${TOKEN}`);
    expect(bearer.status).toBe(200);
    expect(bearer.body.captures).toHaveLength(1);
    expect(bearer.body.counts).toMatchObject({ all: 1 });

    const login = await request(app).get(`/dashboard?token=${TOKEN}`);
    expect(login.status).toBe(303);
    expect(login.headers.location).toBe('/dashboard');
    const cookie = String(login.headers['set-cookie']);
    expect(cookie).toMatch(/^gc_dashboard=v1\.\d+\.[0-9a-f]{64}; Max-Age=43200; Path=\/dashboard; Expires=[^;]+; HttpOnly; SameSite=Strict$/);
    expect(cookie).not.toContain(TOKEN);
    const session = cookie.split(';')[0]!;
    const page = await request(app).get('/dashboard').set('cookie', session);
    expect(page.status).toBe(200);
    expect(page.text).toContain('groundcheck dashboard');
    const api = await request(app).get('/dashboard/api/captures?filter=refusals').set('cookie', session);
    expect(api.status).toBe(200);
    const forged = await request(app).get('/dashboard/api/captures').set('cookie', 'gc_dashboard=' + 'a'.repeat(64));
    expect(forged.status).toBe(401);
  });

  it('the token never reaches the request log', async () => {
    const { logger, raw } = memoryLogger();
    const { app } = await demo({ dashboardToken: TOKEN, logger });
    await request(app).get(`/dashboard?token=${TOKEN}`);
    await request(app).get('/dashboard/api/captures').set('authorization', `Bearer ${TOKEN}`);
    expect(raw.length).toBeGreaterThan(0);
    expect(raw.join('')).not.toContain(TOKEN);
  });

  it.each(['production', 'Production', 'PROD', ' prod '])('NODE_ENV=%j without a token, or with a weak one, refuses to start (even without capture)', async (nodeEnv) => {
    const index = await handbookIndex();
    expect(() => createApp({ index, capture: false, env: { NODE_ENV: nodeEnv } })).toThrow(/refusing to start: NODE_ENV=.* and no dashboard token\. Set GROUNDCHECK_DASHBOARD_TOKEN/);
    expect(() => createApp({ index, capture: false, env: { NODE_ENV: nodeEnv, GROUNDCHECK_DASHBOARD_TOKEN: 'short-token' } })).toThrow(/too weak .*11 characters; use at least 16/);
    const withToken = await demo({ env: { NODE_ENV: nodeEnv, GROUNDCHECK_DASHBOARD_TOKEN: TOKEN } });
    expect((await request(withToken.app).get('/dashboard/api/captures')).status).toBe(401);
    // In production the trace API needs the token too (it shows users' questions); the chat page then points to the dashboard.
    const response = await chat(withToken.app, { message: 'What is the mileage rate?' });
    await withToken.capture!.flush();
    expect((await request(withToken.app).get(`/api/traces/${response.body.traceId}`)).status).toBe(401);
    expect((await request(withToken.app).get(`/api/traces/${response.body.traceId}`).set('authorization', `Bearer ${TOKEN}`)).status).toBe(200);
  });

  it('GROUNDCHECK_PROTECT_TRACE_API=1 protects the trace API outside production; its answers are never cached', async () => {
    const { app, capture } = await demo({ dashboardToken: TOKEN, env: { GROUNDCHECK_PROTECT_TRACE_API: '1' } });
    const response = await chat(app, { message: 'What is the mileage rate?' });
    await capture!.flush();
    const refused = await request(app).get(`/api/traces/${response.body.traceId}`);
    expect([refused.status, refused.body.error.type, refused.headers['cache-control']]).toEqual([401, 'auth.required', 'no-store']);
    const allowed = await request(app).get(`/api/traces/${response.body.traceId}`).set('authorization', `Bearer ${TOKEN}`);
    expect([allowed.status, allowed.headers['cache-control']]).toEqual([200, 'no-store']);
    const open = await demo({ dashboardToken: TOKEN });
    const again = await chat(open.app, { message: 'What is the mileage rate?' });
    await open.capture!.flush();
    const openTrace = await request(open.app).get(`/api/traces/${again.body.traceId}`);
    expect([openTrace.status, openTrace.headers['cache-control']]).toEqual([200, 'no-store']);
  });

  it('after the corpus changes, a trace and the dashboard show which of its chunks changed or vanished', async () => {
    const corpus = join(tempDir(), 'corpus');
    cpSync(CORPUS_DIR, corpus, { recursive: true });
    const index = openIndex({ path: join(tempDir(), 'index.db'), embedder: createLocalEmbedder() });
    onCleanup(() => index.close());
    await ingestDirectory(index, corpus);
    const { app, capture, worker } = await demo({ index });
    const response = await chat(app, { message: 'What is the mileage rate for a car?' });
    await capture!.flush();
    await worker!.whenIdle();
    const sources: { chunkId: string }[] = response.body.sources;
    const changed = sources.find((source) => source.chunkId.startsWith('travel-and-expenses#'))!.chunkId;
    const vanished = sources.find((source) => !source.chunkId.startsWith('travel-and-expenses#'))!.chunkId;
    const changedFile = join(corpus, 'travel-and-expenses.md');
    const changedChunk = index.getChunk(changed)!;
    const text = readFileSync(changedFile, 'utf8');
    const sentence = changedChunk.text.split('\n').map((line) => line.trim()).find((line) => line.length > 20 && text.includes(line))!;
    writeFileSync(changedFile, text.replace(sentence, `${sentence} Amended.`));
    rmSync(join(corpus, `${vanished.split('#')[0]}.md`));
    await ingestDirectory(index, corpus);

    const trace = await request(app).get(`/api/traces/${response.body.traceId}`);
    expect(trace.body.drift).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ chunkId: changed, change: 'changed' }),
        expect.objectContaining({ chunkId: vanished, change: 'vanished', currentHash: null }),
      ]),
    );
    const listed = await request(app).get('/dashboard/api/captures?filter=drifted');
    expect(listed.body.captures.map((row: { traceId: string }) => row.traceId)).toEqual([response.body.traceId]);
    expect(listed.body.captures[0].drift).toEqual(trace.body.drift);
  });

  it('without a token (development) the dashboard is open; filters are validated', async () => {
    const { app } = await demo();
    expect((await request(app).get('/dashboard/api/captures?filter=hallucinated')).status).toBe(200);
    const bad = await request(app).get('/dashboard/api/captures?filter=everything');
    expect([bad.status, bad.body.error.type]).toEqual([400, 'request.invalid']);
  });
});
