import { createHash } from 'node:crypto';

/**
 * Where a trace id falls in [0, 1): the first 52 bits of its SHA-256. The same id always gets the
 * same position, on every process and machine.
 */
export function samplePosition(traceId: string): number {
  const digest = createHash('sha256').update(traceId).digest();
  // 52 bits fit exactly in a double's mantissa.
  const high = digest.readUInt32BE(0);
  const low = digest.readUInt32BE(4) >>> 12;
  return (high * 2 ** 20 + low) / 2 ** 52;
}

/**
 * Whether a trace is kept at `rate` (0–1). Deterministic, and nested across rates: a trace kept
 * at 0.1 is also kept at 0.5, so lowering the rate selects a subset of what a higher rate selected.
 *
 * @example
 * isSampled('3f1c…', 0.25); // the same answer every time for this id
 */
export function isSampled(traceId: string, rate: number): boolean {
  if (rate >= 1) return true;
  if (rate <= 0) return false;
  return samplePosition(traceId) < rate;
}
