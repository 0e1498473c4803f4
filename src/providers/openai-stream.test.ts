import { afterEach, describe, expect, it } from 'vitest';
import { ApiCallError } from '../errors.js';
import { chatReply, errorReply, startMockOpenAIServer, streamReply, type MockOpenAIServer } from '../testing/index.js';
import { MockChatModel } from '../testing/index.js';
import { createLocalChatModel } from './local/generator.js';
import { createOpenAI } from './openai.js';
import type { ChatModel, ChatStreamPart } from './spec.js';
import { splitPieces, streamChat } from './stream.js';

let server: MockOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function collect(parts: AsyncIterable<ChatStreamPart>): Promise<ChatStreamPart[]> {
  const collected: ChatStreamPart[] = [];
  for await (const part of parts) collected.push(part);
  return collected;
}

describe('streaming chat (ChatModel.stream)', () => {
  it('openai, with the real SDK against the mock server: deltas in order, then one finish with text, usage, cost and model', async () => {
    server = await startMockOpenAIServer({ chat: () => streamReply(['Twenty', ' weeks', ' at full pay.'], { promptTokens: 1000, completionTokens: 500 }) });
    const chat = createOpenAI({ baseURL: server.url, apiKey: 'k' }).chat('gpt-4o-mini');
    const parts = await collect(chat.stream!({ messages: [{ role: 'user', content: 'Parental leave?' }], temperature: 0 }));
    expect(parts).toEqual([
      { type: 'text-delta', text: 'Twenty' },
      { type: 'text-delta', text: ' weeks' },
      { type: 'text-delta', text: ' at full pay.' },
      {
        type: 'finish',
        result: {
          text: 'Twenty weeks at full pay.',
          usage: { inputTokens: 1000, outputTokens: 500, totalTokens: 1500 },
          finishReason: 'stop',
          costUsd: (1000 * 0.15 + 500 * 0.6) / 1e6,
          warnings: [],
          modelId: 'gpt-4o-mini-2024-07-18',
        },
      },
    ]);
    expect(server.requests[0]!.body).toMatchObject({ model: 'gpt-4o-mini', stream: true, stream_options: { include_usage: true }, temperature: 0 });
  });

  it('a chatReply body is streamed in word pieces when the request asks for stream: true', async () => {
    server = await startMockOpenAIServer({ chat: () => chatReply('Claim 45p per mile for a car.') });
    const chat = createOpenAI({ baseURL: server.url, apiKey: 'k' }).chat('gpt-4o-mini');
    const parts = await collect(chat.stream!({ messages: [{ role: 'user', content: 'mileage?' }] }));
    expect(parts.filter((part) => part.type === 'text-delta').map((part) => part.text)).toEqual(['Claim', ' 45p', ' per', ' mile', ' for', ' a', ' car.']);
    expect(parts.at(-1)).toMatchObject({ type: 'finish', result: { text: 'Claim 45p per mile for a car.', usage: { inputTokens: 20, outputTokens: 8 } } });
  });

  it('aborting mid-stream stops the iteration with ApiCallError code aborted, never a finish part', async () => {
    server = await startMockOpenAIServer({ chat: () => streamReply(['One', ' two', ' three'], { hangAfter: 1 }) });
    const chat = createOpenAI({ baseURL: server.url, apiKey: 'k', maxRetries: 0 }).chat('gpt-4o-mini');
    const controller = new AbortController();
    const received: string[] = [];
    const error = await (async () => {
      for await (const part of chat.stream!({ messages: [{ role: 'user', content: 'count' }], abortSignal: controller.signal })) {
        if (part.type === 'text-delta') received.push(part.text);
        controller.abort();
      }
    })().catch((caught: unknown) => caught);
    expect(received).toEqual(['One']);
    expect(error).toBeInstanceOf(ApiCallError);
    expect(error).toMatchObject({ code: 'aborted', isRetryable: false });
  });

  it('an error status before the stream starts is the same typed error as from generate', async () => {
    server = await startMockOpenAIServer({ chat: () => errorReply(401, 'Incorrect API key provided') });
    const chat = createOpenAI({ baseURL: server.url, apiKey: 'wrong', maxRetries: 0 }).chat('gpt-4o-mini');
    await expect(collect(chat.stream!({ messages: [{ role: 'user', content: 'hi' }] }))).rejects.toMatchObject({ statusCode: 401, isAuthError: true });
  });

  it('the offline model and MockChatModel stream the text generate gives, piece by piece', async () => {
    const messages = [{ role: 'user' as const, content: 'hi' }];
    for (const model of [createLocalChatModel(), new MockChatModel({ text: 'Twenty weeks, at full pay.' })]) {
      const whole = await model.generate({ messages });
      const parts = await collect(model.stream!({ messages }));
      const deltas = parts.filter((part) => part.type === 'text-delta').map((part) => part.text);
      expect(deltas.join('')).toBe(whole.text);
      expect(deltas).toEqual(splitPieces(whole.text));
      expect(parts.at(-1)).toEqual({ type: 'finish', result: whole });
    }
  });

  it('streamChat falls back to generate as one delta for a model without stream', async () => {
    const plain: ChatModel = { provider: 'x', modelId: 'y', generate: (options) => new MockChatModel({ text: 'whole reply' }).generate(options) };
    const parts = await collect(streamChat(plain, { messages: [{ role: 'user', content: 'hi' }] }));
    expect(parts.map((part) => part.type)).toEqual(['text-delta', 'finish']);
    expect(parts[0]).toEqual({ type: 'text-delta', text: 'whole reply' });
  });

  it.each([
    ['Twenty weeks, at full pay.', ['Twenty', ' weeks,', ' at', ' full', ' pay.']],
    ['  leading and trailing  ', ['  leading', ' and', ' trailing', '  ']],
    ['', []],
  ])('splitPieces(%j) joins back to the text', (text, pieces) => {
    expect(splitPieces(text)).toEqual(pieces);
    expect(splitPieces(text).join('')).toBe(text);
  });
});
