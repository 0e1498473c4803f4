import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApiCallError } from '../errors.js';
import { createOpenAI } from '../providers/openai.js';
import type { ChatCallOptions } from '../providers/spec.js';
import { tempDir, onCleanup } from '../test-support/fixtures.js';
import { chatReply, errorReply, MockChatModel, startMockOpenAIServer } from '../testing/index.js';
import { cacheKey, openLlmCache, withCache } from './cache.js';

const call = (content: string, extra: Partial<ChatCallOptions> = {}): ChatCallOptions => ({ messages: [{ role: 'user', content }], temperature: 0, ...extra });

function cacheFile() {
  const path = join(tempDir(), 'sub', 'llm-cache.db');
  return path;
}

describe('LLM-call cache', () => {
  it('serves an identical call from the cache, across reopen, with the same result', async () => {
    const path = cacheFile();
    const model = new MockChatModel({ text: (options) => ({ text: `echo ${options.messages[0]!.content}`, costUsd: 0.001 }) });
    const first = openLlmCache({ path });
    const chat = withCache(model, first);
    const fresh = await chat.generate(call('hello'));
    const again = await chat.generate(call('hello'));
    expect(again).toEqual(fresh);
    expect(model.calls).toHaveLength(1);
    expect(chat.stats).toEqual({ hits: 1, misses: 1, writes: 1 });
    first.close();

    const reopened = openLlmCache({ path });
    onCleanup(() => reopened.close());
    const chat2 = withCache(model, reopened);
    expect(await chat2.generate(call('hello'))).toEqual(fresh);
    expect(model.calls).toHaveLength(1);
    expect(reopened.size()).toBe(1);
  });

  it.each([
    ['message text', call('b')],
    ['role', { messages: [{ role: 'system' as const, content: 'a' }], temperature: 0 }],
    ['temperature', call('a', { temperature: 0.7 })],
    ['max tokens', call('a', { maxOutputTokens: 10 })],
    ['seed', call('a', { seed: 3 })],
    ['response format', call('a', { responseFormat: { type: 'json', name: 'x', schema: {} } })],
  ])('a different %s is a different key', (_name, other) => {
    const model = { provider: 'p', modelId: 'm' };
    expect(cacheKey(model, other)).not.toBe(cacheKey(model, call('a')));
  });

  it('keys on provider, model and namespace, and ignores the abort signal', () => {
    const base = cacheKey({ provider: 'p', modelId: 'm' }, call('a'));
    expect(cacheKey({ provider: 'q', modelId: 'm' }, call('a'))).not.toBe(base);
    expect(cacheKey({ provider: 'p', modelId: 'n' }, call('a'))).not.toBe(base);
    expect(cacheKey({ provider: 'p', modelId: 'm' }, call('a'), 'http://other/v1')).not.toBe(base);
    expect(cacheKey({ provider: 'p', modelId: 'm' }, call('a', { abortSignal: new AbortController().signal }))).toBe(base);
  });

  it('never caches an error: the next identical call reaches the model again', async () => {
    const cache = openLlmCache({ path: ':memory:' });
    onCleanup(() => cache.close());
    const model = new MockChatModel({ text: [new ApiCallError('boom', { statusCode: 500 }), 'recovered'] });
    const chat = withCache(model, cache);
    await expect(chat.generate(call('x'))).rejects.toThrow('boom');
    expect(cache.size()).toBe(0);
    expect((await chat.generate(call('x'))).text).toBe('recovered');
    expect((await chat.generate(call('x'))).text).toBe('recovered');
    expect(model.calls).toHaveLength(2);
  });

  it('does not store results whose finish reason is error', async () => {
    const cache = openLlmCache({ path: ':memory:' });
    onCleanup(() => cache.close());
    const model = new MockChatModel({ text: { text: '', finishReason: 'error' } });
    const chat = withCache(model, cache);
    await chat.generate(call('x'));
    await chat.generate(call('x'));
    expect(model.calls).toHaveLength(2);
  });

  it('identical calls in flight at once share one model call', async () => {
    const cache = openLlmCache({ path: ':memory:' });
    onCleanup(() => cache.close());
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const model = new MockChatModel({ text: async () => (await gate, 'shared') });
    const chat = withCache(model, cache);
    const both = Promise.all([chat.generate(call('same')), chat.generate(call('same'))]);
    release();
    expect((await both).map((result) => result.text)).toEqual(['shared', 'shared']);
    expect(model.calls).toHaveLength(1);
  });

  it('with the real openai SDK: the second identical request never reaches the server', async () => {
    const server = await startMockOpenAIServer({ chat: (_request, index) => (index === 0 ? errorReply(400, 'bad request') : chatReply(`reply ${index}`)) });
    onCleanup(() => void server.close());
    const cache = openLlmCache({ path: cacheFile() });
    onCleanup(() => cache.close());
    const chat = withCache(createOpenAI({ baseURL: server.url, apiKey: 'test', maxRetries: 0 }).chat('gpt-4o-mini'), cache, { namespace: server.url });
    await expect(chat.generate(call('q'))).rejects.toThrow(/400/);
    const first = await chat.generate(call('q'));
    const second = await chat.generate(call('q'));
    expect(second).toEqual(first);
    expect(first.text).toBe('reply 1');
    expect(server.requests.filter((request) => request.path.endsWith('/chat/completions'))).toHaveLength(2);
  });

  it('refuses a SQLite file that is not a cache', () => {
    const path = join(tempDir(), 'other.db');
    const db = new Database(path);
    db.exec('CREATE TABLE t (x)');
    db.close();
    expect(() => openLlmCache({ path })).toThrow(/not a groundcheck LLM cache/);
  });
});
