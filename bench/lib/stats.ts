import { readdirSync, readFileSync } from 'node:fs';

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

/** The median of the values (the mean of the middle two for an even count); NaN for an empty list. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * A sign test: "yes" when captureRag was cheaper in so many of the rounds that chance (even odds
 * per round) would give that few times in twenty (one-sided), "no" for the same the other way,
 * else "not resolved".
 */
export function signVerdict(cheaperRounds: number, rounds: number): 'yes' | 'no' | 'not resolved' {
  const atLeast = (k: number) => {
    let total = 0;
    for (let value = k; value <= rounds; value++) total += binomial(rounds, value);
    return total / 2 ** rounds;
  };
  if (atLeast(cheaperRounds) < 0.05) return 'yes';
  if (atLeast(rounds - cheaperRounds) < 0.05) return 'no';
  return 'not resolved';
}

function binomial(n: number, k: number): number {
  let result = 1;
  for (let index = 1; index <= k; index++) result = (result * (n - index + 1)) / index;
  return result;
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

/**
 * The calling process's main thread's CPU time, µs, from /proc/self/task/<pid>/schedstat
 * (nanoseconds on the CPU); `null` where that file is missing (not Linux). Unlike
 * `process.cpuUsage()` it leaves out worker threads and libuv's pool.
 */
export function mainThreadCpuMicros(): number | null {
  return taskCpuMicros(process.pid);
}

/** One thread's CPU time, µs (its schedstat's first field, nanoseconds on the CPU); `null` when it cannot be read. */
function taskCpuMicros(id: number | string): number | null {
  try {
    return Number(readFileSync(`/proc/self/task/${id}/schedstat`, 'utf8').split(' ')[0]) / 1000;
  } catch {
    return null;
  }
}

/**
 * CPU time, µs, of every thread of this process but the main one, by kernel task id
 * (/proc/self/task/<id>/schedstat); empty where /proc is missing. With the process's own
 * (`process.cpuUsage()`, µs-exact) it gives the main thread's: the process's less these. A thread
 * running while this reads it shows its time up to its last scheduler tick; the rest lands in the
 * next reading, so over many readings nothing is lost.
 */
export function otherThreadsCpuMicros(): Map<number, number> {
  const times = new Map<number, number>();
  let ids: string[];
  try {
    ids = readdirSync('/proc/self/task');
  } catch {
    return times;
  }
  for (const id of ids) {
    if (Number(id) === process.pid) continue;
    const micros = taskCpuMicros(id);
    // null: the thread ended between the listing and the read.
    if (micros !== null) times.set(Number(id), micros);
  }
  return times;
}
