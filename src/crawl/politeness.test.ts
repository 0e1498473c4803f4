import { describe, expect, it } from 'vitest';
import { manualClock } from '../test-support/test-site.js';
import { HostQueue } from './politeness.js';

describe('HostQueue', () => {
  it('spaces requests to one host by its delay (the longer of the default and Crawl-delay), one at a time; hosts do not wait for each other', async () => {
    const clock = manualClock();
    const queue = new HostQueue({ delayMs: 1000, clock });
    queue.setHostDelay('slow.example', 3000);
    queue.setHostDelay('fast.example', 10);
    const starts: string[] = [];
    const request = (host: string) => queue.run(host, async () => starts.push(`${host}@${clock.now()}`));
    await Promise.all([request('slow.example'), request('slow.example'), request('slow.example')]);
    expect(clock.sleeps).toEqual([3000, 3000]);
    // Another host's first request does not wait for the slow one; its next waits the default.
    await Promise.all([request('fast.example'), request('fast.example')]);
    expect(starts).toEqual(['slow.example@0', 'slow.example@3000', 'slow.example@6000', 'fast.example@6000', 'fast.example@7000']);
    expect(queue.delayFor('fast.example')).toBe(1000);
  });

  it('keeps the turn order when a request fails', async () => {
    const clock = manualClock();
    const queue = new HostQueue({ delayMs: 500, clock });
    const failed = queue.run('a.example', async () => {
      throw new Error('boom');
    });
    const next = queue.run('a.example', async () => clock.now());
    await expect(failed).rejects.toThrow('boom');
    expect(await next).toBe(500);
  });
});
