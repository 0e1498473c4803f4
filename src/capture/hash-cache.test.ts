import { describe, expect, it } from 'vitest';
import { HashKeyedCache } from './hash-cache.js';

describe('HashKeyedCache', () => {
  it('returns a kept value only when it matches, replaces it under the same hash, and starts afresh past its bound', () => {
    const cache = new HashKeyedCache<string>(10, (text) => text.length);
    cache.remember('h1', 'aaaa');
    expect(cache.find('h1', (text) => text === 'aaaa')).toBe('aaaa');
    expect(cache.find('h1', (text) => text === 'bbbb')).toBeUndefined();
    cache.remember('h1', 'bbbb');
    expect(cache.find('h1', () => true)).toBe('bbbb');
    cache.remember('h2', 'cccc');
    // 4 + 4 + 4 > 10: emptied before the third is kept.
    cache.remember('h3', 'dddd');
    expect([cache.find('h1', () => true), cache.find('h2', () => true), cache.find('h3', () => true)]).toEqual([undefined, undefined, 'dddd']);
    cache.remember('h4', 'x'.repeat(11));
    expect(cache.find('h4', () => true)).toBeUndefined();
  });
});
