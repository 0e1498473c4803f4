import { describe, expect, it } from 'vitest';
import { MockChatModel } from '../testing/index.js';
import { createLimiter, withLimiter } from './limiter.js';

/** A task that stays in flight until released, recording the peak number in flight. */
function tracker() {
  let active = 0;
  let peak = 0;
  const releases: (() => void)[] = [];
  const task = () =>
    new Promise<number>((resolve) => {
      active += 1;
      peak = Math.max(peak, active);
      releases.push(() => {
        active -= 1;
        resolve(peak);
      });
    });
  return { task, releases, peak: () => peak };
}

async function drain(releases: (() => void)[], expected: number) {
  let released = 0;
  while (released < expected) {
    await new Promise((resolve) => setImmediate(resolve));
    const next = releases.shift();
    if (next) {
      next();
      released += 1;
    }
  }
}

describe('createLimiter', () => {
  it.each([1, 3, 8])('never runs more than %i tasks at once, and runs them all', async (concurrency) => {
    const limit = createLimiter(concurrency);
    const { task, releases, peak } = tracker();
    const all = Promise.all(Array.from({ length: 20 }, () => limit(task)));
    await drain(releases, 20);
    await all;
    expect(peak()).toBe(Math.min(concurrency, 20));
    expect(limit.active).toBe(0);
    expect(limit.pending).toBe(0);
  });

  it('a failing or synchronously throwing task releases its slot and rejects', async () => {
    const limit = createLimiter(1);
    await expect(limit(async () => Promise.reject(new Error('async boom')))).rejects.toThrow('async boom');
    await expect(
      limit(() => {
        throw new Error('sync boom');
      }),
    ).rejects.toThrow('sync boom');
    expect(await limit(async () => 'still works')).toBe('still works');
  });

  it.each([0, -1, 1.5, Number.NaN])('rejects concurrency %s', (value) => {
    expect(() => createLimiter(value)).toThrow(/option concurrency .* is invalid/);
  });

  it('withLimiter bounds model calls shared by several models', async () => {
    const limit = createLimiter(2);
    const { task, releases, peak } = tracker();
    const a = withLimiter(new MockChatModel({ text: async () => (await task(), 'a') }), limit);
    const b = withLimiter(new MockChatModel({ text: async () => (await task(), 'b') }), limit);
    const all = Promise.all([a, b, a, b, a].map((chat) => chat.generate({ messages: [{ role: 'user', content: 'x' }] })));
    await drain(releases, 5);
    expect((await all).map((result) => result.text)).toEqual(['a', 'b', 'a', 'b', 'a']);
    expect(peak()).toBe(2);
  });
});
