import { describe, expect, it } from 'vitest';
import { LruCache } from './lru-cache.js';

describe('LruCache', () => {
  it('drops the least recently used entry past its capacity; a read counts as a use', () => {
    const cache = new LruCache<string, number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.get('a')).toBe(1);
    cache.set('c', 3);
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([1, undefined, 3]);
    cache.set('a', 10);
    cache.set('d', 4);
    expect([cache.get('a'), cache.get('c'), cache.get('d')]).toEqual([10, undefined, 4]);
    expect(cache.stats()).toEqual({ hits: 5, misses: 2, entries: 2, capacity: 2 });
  });

  it('keeps nothing at capacity 0 and refuses a bad capacity', () => {
    const cache = new LruCache<string, number>(0);
    cache.set('a', 1);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.size).toBe(0);
    expect(() => new LruCache(-1)).toThrow(RangeError);
    expect(() => new LruCache(1.5)).toThrow(/LRU capacity 1.5 is invalid/);
  });
});
