import { describe, expect, it } from 'vitest';
import { MockChatModel, MockEmbeddingModel } from './index.js';

const ask = (model: MockChatModel, content = 'hi') => model.generate({ messages: [{ role: 'user', content }] });

describe('mock models', () => {
  it('chat: a value, a list (last repeats) or a function; calls recorded', async () => {
    expect((await ask(new MockChatModel({ text: 'fixed' }))).text).toBe('fixed');
    const listed = new MockChatModel({ text: ['one', 'two'] });
    expect([(await ask(listed)).text, (await ask(listed)).text, (await ask(listed)).text]).toEqual(['one', 'two', 'two']);
    const echo = new MockChatModel({ text: (call, index) => `${index}:${call.messages[0]!.content}` });
    expect((await ask(echo, 'ping')).text).toBe('0:ping');
    expect(echo.calls).toEqual([{ messages: [{ role: 'user', content: 'ping' }] }]);
  });

  it('chat: throws a given Error, and parses JSON when JSON was asked for', async () => {
    await expect(ask(new MockChatModel({ text: new Error('boom') }))).rejects.toThrow('boom');
    const json = await new MockChatModel({ text: 'ok {"a": 1}' }).generate({ messages: [], responseFormat: { type: 'json', name: 'x', schema: {} } });
    expect(json.json).toEqual({ a: 1 });
  });

  it('embedding: default bag of words, or a given vector/function, with dimension checks', async () => {
    const embedder = new MockEmbeddingModel({ dimensions: 8 });
    const { embeddings } = await embedder.embed({ values: ['alpha beta', 'alpha beta'] });
    expect(embeddings[0]).toEqual(embeddings[1]);
    expect(embedder.calls).toHaveLength(1);
    const fixed = new MockEmbeddingModel({ dimensions: 2, embedding: [1, 0] });
    expect((await fixed.embed({ values: ['x'] })).embeddings).toEqual([Float32Array.from([1, 0])]);
    const wrong = new MockEmbeddingModel({ dimensions: 3, embedding: () => [1, 0] });
    await expect(wrong.embed({ values: ['x'] })).rejects.toThrow(/expected 3/);
  });
});
