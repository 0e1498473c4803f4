import { describe, expect, it } from 'vitest';
import { ApiCallError, TimeoutError } from '../errors.js';
import { MockChatModel } from '../testing/index.js';
import { withRetry } from './retry.js';

const call = { messages: [{ role: 'user' as const, content: 'x' }] };

function setup(responses: (string | Error)[], maxRetries = 2) {
  const model = new MockChatModel({ text: responses });
  const delays: number[] = [];
  const chat = withRetry(model, { maxRetries, initialDelayMs: 100, random: () => 0.5, sleep: async (ms) => void delays.push(ms) });
  return { model, chat, delays };
}

describe('withRetry', () => {
  it.each([
    ['429', new ApiCallError('rate limited', { statusCode: 429 })],
    ['503', new ApiCallError('unavailable', { statusCode: 503 })],
    ['timeout', new TimeoutError('slow')],
    ['connection', new ApiCallError('reset', { isRetryable: true })],
  ])('retries a retryable error (%s) with exponential backoff', async (_name, error) => {
    const { model, chat, delays } = setup([error, error, 'ok']);
    expect((await chat.generate(call)).text).toBe('ok');
    expect(model.calls).toHaveLength(3);
    expect(delays).toEqual([100, 200]);
  });

  it('gives up after maxRetries and throws the last error', async () => {
    const error = new ApiCallError('unavailable', { statusCode: 503 });
    const { model, chat } = setup([error, error, error, 'never'], 2);
    await expect(chat.generate(call)).rejects.toBe(error);
    expect(model.calls).toHaveLength(3);
  });

  it.each([
    ['400', new ApiCallError('bad', { statusCode: 400 })],
    ['401 (auth)', new ApiCallError('no key', { statusCode: 401 })],
    ['not an API error', new Error('bug')],
  ])('does not retry %s', async (_name, error) => {
    const { model, chat, delays } = setup([error, 'ok']);
    await expect(chat.generate(call)).rejects.toBe(error);
    expect(model.calls).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it('maxRetries 0 returns the model unwrapped', () => {
    const model = new MockChatModel();
    expect(withRetry(model, { maxRetries: 0 })).toBe(model);
  });

  it('honours a Retry-After header kept on the SDK error', async () => {
    const cause = { headers: new Headers({ 'retry-after': '3' }) };
    const error = new ApiCallError('rate limited', { statusCode: 429, cause });
    const { chat, delays } = setup([error, 'ok']);
    await chat.generate(call);
    expect(delays).toEqual([3000]);
  });
});
