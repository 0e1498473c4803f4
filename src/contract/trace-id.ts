import { randomFillSync } from 'node:crypto';

/**
 * Trace ids: UUID version 7 (RFC 9562), the milliseconds since the epoch in the first 48 bits,
 * then a 12-bit counter and 62 random bits. Ids made one after another sort in the order they
 * were made, so a capture store's unique index on the trace id grows at its end instead of
 * touching a random page per capture: random (version 4) ids made each batch's commit write one
 * index page per capture, about 6 µs a capture more on a store of 26,000 captures, growing with
 * the store (bench:capture-path's one-side script, 2026-12-04). The random part keeps ids of
 * different processes apart, as version 4's does.
 */

/** Random bytes drawn 4 KiB at a time: one `randomFillSync` per 409 ids instead of one per id. */
const pool = Buffer.alloc(4096);
let poolAt = pool.length;

function randomBytes10(): Buffer {
  if (poolAt + 10 > pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  const bytes = pool.subarray(poolAt, poolAt + 10);
  poolAt += 10;
  return bytes;
}

export interface TraceIdGenerator {
  (): string;
}

/**
 * A generator of time-ordered trace ids. Within one millisecond the counter goes up (from a random
 * start below 2,048), so ids stay in order; should the clock go back, the last millisecond is kept,
 * so they stay in order then too.
 *
 * @param now the clock, ms since the epoch. [now=Date.now]
 * @example
 * const nextTraceId = createTraceIdGenerator();
 * nextTraceId(); // '0193a1f2-7c4e-7a01-9d3b-5f0c2e8a41b7'
 */
export function createTraceIdGenerator(now: () => number = Date.now): TraceIdGenerator {
  let lastMs = -1;
  let counter = 0;
  return function nextTraceId(): string {
    let ms = Math.floor(now());
    const random = randomBytes10();
    if (ms > lastMs) {
      counter = ((random[0]! << 8) | random[1]!) & 0x7ff;
    } else {
      ms = lastMs;
      counter += 1;
      if (counter > 0xfff) {
        // 4,096 ids in one millisecond: borrow the next one.
        ms += 1;
        counter = 0;
      }
    }
    lastMs = ms;
    const hex = ms.toString(16).padStart(12, '0');
    const tail = Buffer.from(random.subarray(2)).toString('hex');
    // Variant 10 in the top bits of the 9th byte.
    const variant = ((random[2]! & 0x3f) | 0x80).toString(16).padStart(2, '0');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7${counter.toString(16).padStart(3, '0')}-${variant}${tail.slice(2, 4)}-${tail.slice(4, 16)}`;
  };
}

/** The process's trace id generator (time-ordered, UUID version 7). */
export const newTraceId: TraceIdGenerator = createTraceIdGenerator();
