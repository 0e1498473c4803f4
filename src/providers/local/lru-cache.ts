/**
 * A bounded least-recently-used map. A `Map` keeps insertion order, so re-inserting on every read
 * makes its first key the least recently used one. (A dozen lines; the `lru-cache` package would
 * add a dependency for less than it costs to read.)
 */
export class LruCache<Key, Value> {
  private readonly entries = new Map<Key, Value>();
  private hitCount = 0;
  private missCount = 0;

  /** @param capacity Most entries kept; the least recently used is dropped past it. */
  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 0) throw new RangeError(`LRU capacity ${String(capacity)} is invalid: use a whole number`);
  }

  get(key: Key): Value | undefined {
    const value = this.entries.get(key);
    if (value === undefined) {
      this.missCount += 1;
      return undefined;
    }
    this.hitCount += 1;
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  set(key: Key, value: Value): void {
    if (this.capacity === 0) return;
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as Key);
  }

  get size(): number {
    return this.entries.size;
  }

  /** Reads that found a value, reads that did not, entries held. */
  stats(): { hits: number; misses: number; entries: number; capacity: number } {
    return { hits: this.hitCount, misses: this.missCount, entries: this.entries.size, capacity: this.capacity };
  }
}
