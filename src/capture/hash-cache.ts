/**
 * A map from a chunk's content hash to something kept for it, bounded by the characters of chunk
 * text it holds and emptied when full. Shared by the redaction cache and the chunk interner: the
 * same passages come back request after request, and a map lookup by the short hash is cheaper
 * than hashing each long text. A value is only returned when `matches` confirms it belongs to the
 * text at hand, so a wrong or reused hash costs a miss, never a wrong result.
 */
export class HashKeyedCache<V> {
  private readonly entries = new Map<string, V>();
  private chars = 0;

  /**
   * @param maxChars chunk text characters held before starting afresh
   * @param charsOf the characters a value counts for (its chunk text's length)
   */
  constructor(
    private readonly maxChars: number,
    private readonly charsOf: (value: V) => number,
  ) {}

  /** The value kept for `hash`, when `matches` accepts it. */
  find(hash: string, matches: (value: V) => boolean): V | undefined {
    const known = this.entries.get(hash);
    return known !== undefined && matches(known) ? known : undefined;
  }

  /** Keep `value` for `hash` (replacing what was kept), unless it alone exceeds the bound. */
  remember(hash: string, value: V): void {
    const known = this.entries.get(hash);
    if (known !== undefined) {
      this.entries.delete(hash);
      this.chars -= this.charsOf(known);
    }
    const chars = this.charsOf(value);
    if (this.chars + chars > this.maxChars) {
      this.entries.clear();
      this.chars = 0;
    }
    if (chars <= this.maxChars) {
      this.entries.set(hash, value);
      this.chars += chars;
    }
  }
}
