import { readFileSync } from 'node:fs';

/** Percentile by nearest rank (p in 0..100) of unsorted values; NaN for an empty list. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

export function mean(values: readonly number[]): number {
  return values.length === 0 ? Number.NaN : values.reduce((sum, value) => sum + value, 0) / values.length;
}

/** Round to `digits` decimals (for the JSON line: figures, not float noise). */
export function round(value: number, digits = 4): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/**
 * Peak resident set size of this process so far, in MiB: the kernel's high-water mark
 * (`getrusage` maxrss via `process.resourceUsage()`, reported in KiB on Linux).
 */
export function peakRssMiB(): number {
  return process.resourceUsage().maxRSS / 1024;
}

/**
 * Anonymous (private) resident memory of this process in MiB, from Linux's /proc/self/status
 * `RssAnon`: heap and buffers, without pages of memory-mapped files. `null` elsewhere.
 */
export function anonymousRssMiB(): number | null {
  try {
    const match = /^RssAnon:\s+(\d+)\s+kB/m.exec(readFileSync('/proc/self/status', 'utf8'));
    return match ? Number(match[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** Standard normal samples from a uniform PRNG (Box–Muller). */
export function gaussian(random: () => number): () => number {
  let spare: number | null = null;
  return () => {
    if (spare !== null) {
      const value = spare;
      spare = null;
      return value;
    }
    let u = 0;
    while (u === 0) u = random();
    const v = random();
    const radius = Math.sqrt(-2 * Math.log(u));
    spare = radius * Math.sin(2 * Math.PI * v);
    return radius * Math.cos(2 * Math.PI * v);
  };
}
