import { afterEach, describe, expect, it } from 'vitest';
import { ApiCallError, InvalidInputError, TimeoutError } from '../errors.js';
import { chatReply, errorReply, startMockOpenAIServer, type MockOpenAIServer } from '../testing/index.js';
import { modelsFromEnv } from './config.js';
import { createOpenAI } from './openai.js';

let server: MockOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const JUDGE_SCHEMA = {
  type: 'json' as const,
  name: 'verdict',
  schema: { type: 'object', properties: { faithful: { type: 'boolean' } }, required: ['faithful'], additionalProperties: false },
};

describe('openai provider against a local OpenAI-compatible server (real SDK)', () => {
  it('chat: sends the messages and settings, returns text, usage, finish reason and cost', async () => {
    server = await startMockOpenAIServer({ chat: () => chatReply('Twenty weeks.', { promptTokens: 1000, completionTokens: 500 }) });
    const chat = createOpenAI({ baseURL: server.url, apiKey: 'test-key' }).chat('gpt-4o-mini');
    const result = await chat.generate({ messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Parental leave?' }], temperature: 0, maxOutputTokens: 50, seed: 7 });
    expect(result).toEqual({
      text: 'Twenty weeks.',
      usage: { inputTokens: 1000, outputTokens: 500, totalTokens: 1500 },
      finishReason: 'stop',
      costUsd: (1000 * 0.15 + 500 * 0.6) / 1e6,
      warnings: [],
      modelId: 'gpt-4o-mini-2024-07-18',
    });
    const request = server.requests[0]!;
    expect(request.path).toBe('/v1/chat/completions');
    expect(request.headers.authorization).toBe('Bearer test-key');
    expect(request.body).toMatchObject({
      model: 'gpt-4o-mini', temperature: 0, max_tokens: 50, seed: 7,
      messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Parental leave?' }],
    });
  });

  it('an unknown model costs null, not 0', async () => {
    server = await startMockOpenAIServer({ chat: () => chatReply('hi', { model: 'llama3.1:8b' }) });
    const result = await createOpenAI({ baseURL: server.url, apiKey: 'ollama' }).chat('llama3.1:8b').generate({ messages: [{ role: 'user', content: 'hi' }] });
    expect(result.costUsd).toBeNull();
  });

  it('JSON-schema output: sends response_format json_schema (strict) and parses the reply', async () => {
    server = await startMockOpenAIServer({ chat: () => chatReply('{"faithful": true}') });
    const chat = createOpenAI({ baseURL: server.url, apiKey: 'k' }).chat('gpt-4o-mini');
    const result = await chat.generate({ messages: [{ role: 'user', content: 'judge' }], responseFormat: JUDGE_SCHEMA });
    expect(result.json).toEqual({ faithful: true });
    expect(server.requests[0]!.body.response_format).toEqual({ type: 'json_schema', json_schema: { name: 'verdict', schema: JUDGE_SCHEMA.schema, strict: true } });
  });

  it('falls back to asking for JSON in the prompt when the server rejects json_schema, with a warning', async () => {
    server = await startMockOpenAIServer({
      chat: (request) =>
        request.body.response_format ? errorReply(400, "Invalid parameter: 'response_format' of type 'json_schema' is not supported") : chatReply('Here: ```json\n{"faithful": false}\n```'),
    });
    const chat = createOpenAI({ baseURL: server.url, apiKey: 'k', maxRetries: 0 }).chat('some-local-model');
    const result = await chat.generate({ messages: [{ role: 'user', content: 'judge' }], responseFormat: JUDGE_SCHEMA });
    expect(result.json).toEqual({ faithful: false });
    expect(result.warnings[0]).toMatch(/rejected response_format json_schema/);
    expect(server.requests).toHaveLength(2);
    const lastMessages = server.requests[1]!.body.messages as { content: string }[];
    expect(lastMessages.at(-1)!.content).toMatch(/Reply with only one JSON object/);
  });

  it('embeddings: asks for encoding_format float, returns Float32Arrays in input order', async () => {
    server = await startMockOpenAIServer({
      embeddings: (request) => ({
        json: {
          object: 'list',
          model: 'text-embedding-3-small',
          // Out of order on purpose: the provider must sort by index.
          data: [
            { object: 'embedding', index: 1, embedding: [0, 1, 0] },
            { object: 'embedding', index: 0, embedding: [1, 0, 0] },
          ],
          usage: { prompt_tokens: 1_000_000, total_tokens: 1_000_000 },
        },
      }),
    });
    const embedder = createOpenAI({ baseURL: server.url, apiKey: 'k' }).embedding('text-embedding-3-small', { dimensions: 3 });
    const result = await embedder.embed({ values: ['first', 'second'] });
    expect(result.embeddings).toEqual([Float32Array.from([1, 0, 0]), Float32Array.from([0, 1, 0])]);
    expect(result.costUsd).toBeCloseTo(0.02);
    expect(server.requests[0]!.body).toEqual({ model: 'text-embedding-3-small', input: ['first', 'second'], encoding_format: 'float' });
  });

  it('embeddings: a vector of the wrong length is a clear, non-retryable error', async () => {
    server = await startMockOpenAIServer();
    const embedder = createOpenAI({ baseURL: server.url, apiKey: 'k' }).embedding('nomic-embed-text', { dimensions: 768 });
    await expect(embedder.embed({ values: ['x'] })).rejects.toMatchObject({ isRetryable: false, message: expect.stringMatching(/returned 8 values; expected 768/) });
  });

  it('retries a 429 with backoff and then succeeds', async () => {
    server = await startMockOpenAIServer({
      chat: (_request, call) => (call < 2 ? errorReply(429, 'Rate limit reached', { 'retry-after-ms': '10' }) : chatReply('ok')),
    });
    const chat = createOpenAI({ baseURL: server.url, apiKey: 'k', maxRetries: 2 }).chat('gpt-4o-mini');
    const result = await chat.generate({ messages: [{ role: 'user', content: 'hi' }] });
    expect(result.text).toBe('ok');
    expect(server.requests).toHaveLength(3);
  });

  it('does not retry a 400, and throws a typed error with isRetryable=false', async () => {
    server = await startMockOpenAIServer({ chat: () => errorReply(400, 'Bad request: messages is required') });
    const chat = createOpenAI({ baseURL: server.url, apiKey: 'k', maxRetries: 3 }).chat('gpt-4o-mini');
    const error = await chat.generate({ messages: [{ role: 'user', content: 'hi' }] }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiCallError);
    expect(error).toMatchObject({ statusCode: 400, isRetryable: false, isAuthError: false });
    expect(server.requests).toHaveLength(1);
  });

  it('gives up after the retries on a persistent 503 with a retryable error', async () => {
    server = await startMockOpenAIServer({ chat: () => errorReply(503, 'overloaded', { 'retry-after-ms': '5' }) });
    const chat = createOpenAI({ baseURL: server.url, apiKey: 'k', maxRetries: 2 }).chat('gpt-4o-mini');
    await expect(chat.generate({ messages: [{ role: 'user', content: 'hi' }] })).rejects.toMatchObject({ statusCode: 503, isRetryable: true });
    expect(server.requests).toHaveLength(3);
  });

  it('marks 401 as an authentication error', async () => {
    server = await startMockOpenAIServer({ chat: () => errorReply(401, 'Incorrect API key provided') });
    const chat = createOpenAI({ baseURL: server.url, apiKey: 'wrong', maxRetries: 2 }).chat('gpt-4o-mini');
    await expect(chat.generate({ messages: [{ role: 'user', content: 'hi' }] })).rejects.toMatchObject({ statusCode: 401, isAuthError: true, isRetryable: false });
    expect(server.requests).toHaveLength(1);
  });

  it('times out a request that hangs, with a TimeoutError', async () => {
    server = await startMockOpenAIServer({ chat: () => ({ hang: true }) });
    const chat = createOpenAI({ baseURL: server.url, apiKey: 'k', timeoutMs: 200, maxRetries: 0 }).chat('gpt-4o-mini');
    const started = performance.now();
    const error = await chat.generate({ messages: [{ role: 'user', content: 'hi' }] }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ isRetryable: true, code: 'timeout' });
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('a refused connection is a retryable connection error', async () => {
    server = await startMockOpenAIServer();
    const url = server.url;
    await server.close();
    server = undefined;
    const chat = createOpenAI({ baseURL: url, apiKey: 'k', maxRetries: 0 }).chat('gpt-4o-mini');
    await expect(chat.generate({ messages: [{ role: 'user', content: 'hi' }] })).rejects.toMatchObject({ code: 'connection_failed', isRetryable: true });
  });
});

describe('modelsFromEnv', () => {
  it('defaults to the offline provider with no key', () => {
    const models = modelsFromEnv({});
    expect(models.chat.provider).toBe('local');
    expect(models.embedder.provider).toBe('local');
    expect(models.description).toMatch(/offline/);
  });

  it('uses the openai provider when OPENAI_API_KEY is set, with models and base URL from the environment', () => {
    const models = modelsFromEnv({ OPENAI_API_KEY: 'k', OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1', GROUNDCHECK_CHAT_MODEL: 'llama3.1', GROUNDCHECK_EMBED_MODEL: 'nomic-embed-text', GROUNDCHECK_EMBED_DIMENSIONS: '768' });
    expect(models.chat).toMatchObject({ provider: 'openai', modelId: 'llama3.1' });
    expect(models.embedder).toMatchObject({ provider: 'openai', modelId: 'nomic-embed-text', dimensions: 768 });
    expect(models.description).toContain('http://127.0.0.1:11434/v1');
  });

  it('mixes providers: OpenAI-compatible chat with local embeddings', () => {
    const models = modelsFromEnv({ OPENAI_API_KEY: 'k', GROUNDCHECK_EMBED_PROVIDER: 'local' });
    expect(models.chat.provider).toBe('openai');
    expect(models.embedder.provider).toBe('local');
  });

  it('selects the offline sentence encoder with GROUNDCHECK_EMBED_PROVIDER=use, beside either chat provider, without loading it', () => {
    const offline = modelsFromEnv({ GROUNDCHECK_EMBED_PROVIDER: 'use' });
    expect(offline.embedder).toMatchObject({ provider: 'local', modelId: 'use-lite', dimensions: 512, fingerprint: expect.stringMatching(/^local-use-lite;.*;d=512;long=truncate$/) });
    expect(offline.chat.provider).toBe('local');
    expect(offline.description).toBe('local (offline: extractive answers, sentence-encoder embeddings)');
    const mixed = modelsFromEnv({ OPENAI_API_KEY: 'k', GROUNDCHECK_EMBED_PROVIDER: 'use', GROUNDCHECK_EMBED_DIMENSIONS: '512' });
    expect(mixed.chat.provider).toBe('openai');
    expect(mixed.embedder.modelId).toBe('use-lite');
    expect(() => modelsFromEnv({ GROUNDCHECK_EMBED_PROVIDER: 'use', GROUNDCHECK_EMBED_DIMENSIONS: '256' })).toThrow(/its vectors have 512 dimensions/);
    expect(() => modelsFromEnv({ GROUNDCHECK_EMBED_PROVIDER: 'bert' })).toThrow(/GROUNDCHECK_EMBED_PROVIDER=bert is invalid: use local \(hashed\), use/);
    expect(() => modelsFromEnv({ GROUNDCHECK_PROVIDER: 'use' })).toThrow(/GROUNDCHECK_PROVIDER=use is invalid: use local or openai/);
  });

  it('explains what is missing or wrong', () => {
    expect(() => modelsFromEnv({ GROUNDCHECK_PROVIDER: 'openai' })).toThrow(/needs an API key: set OPENAI_API_KEY/);
    expect(() => modelsFromEnv({ GROUNDCHECK_PROVIDER: 'anthropic' })).toThrow(InvalidInputError);
    expect(() => modelsFromEnv({ OPENAI_API_KEY: 'k', GROUNDCHECK_EMBED_MODEL: 'nomic-embed-text' })).toThrow(/GROUNDCHECK_EMBED_DIMENSIONS/);
    expect(() => modelsFromEnv({ GROUNDCHECK_EMBED_DIMENSIONS: 'lots' })).toThrow(/GROUNDCHECK_EMBED_DIMENSIONS=lots is invalid/);
  });
});
