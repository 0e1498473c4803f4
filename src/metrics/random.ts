import { InvalidInputError } from '../errors.js';

/**
 * A seeded pseudo-random generator (mulberry32): the same seed gives the same sequence on every
 * machine and Node version, so answer orders and bootstrap intervals can be reproduced from the
 * seed stored in a report. Not for anything secret.
 *
 * @param seed any finite number; only its low 32 bits are used (`seed >>> 0`).
 * @returns a function giving floats in [0, 1).
 * @example
 * const rng = seededRng(42);
 * const showRagFirst = rng() < 0.5;
 */
export function seededRng(seed: number): () => number {
  if (typeof seed !== 'number' || !Number.isFinite(seed)) {
    throw new InvalidInputError(`seed ${String(seed)} is invalid: use a finite number`, { code: 'invalid_option' });
  }
  let state = seed >>> 0;
  return function next(): number {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}
