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

/** A median with a distribution-free confidence interval (see {@link medianInterval}). */
export interface MedianInterval {
  median: number;
  /** The interval's lower end: an order statistic of the values; `null` with too few values for the confidence asked. */
  low: number | null;
  /** The interval's upper end; `null` as `low`. */
  high: number | null;
  /** The interval's exact coverage (at least the confidence asked), `null` as `low`. */
  coverage: number | null;
  count: number;
}

/**
 * The median of independent values and a confidence interval for it from order statistics: the
 * count of values below the true median is binomial (n, 1/2), so [x(j), x(n+1−j)] of the sorted
 * values holds it with probability 1 − 2·P(B ≤ j−1); j is the largest rank keeping that at or
 * above `confidence`. Distribution-free (no normality, no resampling); for 95% it needs at least
 * 6 values (with 5, even the smallest and largest hold the median only 94% of the time).
 *
 * @example
 * medianInterval([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]); // { median: 5.5, low: 2, high: 9, coverage: 0.9785…, count: 10 }
 */
export function medianInterval(values: readonly number[], confidence = 0.95): MedianInterval {
  const sorted = [...values].sort((a, b) => a - b);
  const count = sorted.length;
  const tailAllowed = (1 - confidence) / 2;
  let rank = 0;
  let tail = 0;
  // P(B ≤ k) summed in log space, so that long runs (2^-n underflows past n = 1074) stay exact.
  let logProbability = -count * Math.LN2;
  let cumulative = 0;
  for (let k = 0; k < Math.floor(count / 2); k++) {
    if (k > 0) logProbability += Math.log((count - k + 1) / k);
    cumulative += Math.exp(logProbability);
    if (cumulative > tailAllowed) break;
    rank = k + 1;
    tail = cumulative;
  }
  const middle = median(sorted);
  if (rank === 0) return { median: middle, low: null, high: null, coverage: null, count };
  return { median: middle, low: sorted[rank - 1]!, high: sorted[count - rank]!, coverage: 1 - 2 * tail, count };
}

/** Two-sided 95% quantiles of Student's t, degrees of freedom 1 to 30. */
const T_975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042];

/** The 97.5% quantile of Student's t with `df` degrees of freedom (from a table to 30, then the first Cornish–Fisher term, within 0.003). */
export function tQuantile975(df: number): number {
  if (!Number.isInteger(df) || df < 1) throw new RangeError(`tQuantile975: degrees of freedom must be a whole number of at least 1, got ${df}`);
  if (df <= T_975.length) return T_975[df - 1]!;
  const z = 1.959964;
  return z + (z ** 3 + z) / (4 * df);
}

/** A mean with its 95% interval from Student's t (`low`/`high` `null` with fewer than two values). */
export interface MeanInterval {
  mean: number;
  low: number | null;
  high: number | null;
  count: number;
}

/**
 * The mean of independent values and its 95% t-interval, mean ± t(0.975, n − 1)·s/√n. For a few
 * values that are themselves medians of many (one per server process), where the values'
 * spread, not the count of cycles inside them, is what the interval must carry.
 */
export function meanInterval(values: readonly number[]): MeanInterval {
  const count = values.length;
  const center = mean(values);
  if (count < 2) return { mean: center, low: null, high: null, count };
  const variance = values.reduce((sum, value) => sum + (value - center) ** 2, 0) / (count - 1);
  const half = (tQuantile975(count - 1) * Math.sqrt(variance)) / Math.sqrt(count);
  return { mean: center, low: center - half, high: center + half, count };
}

/**
 * Whether a figure meets an upper limit ("at most `limit`"), from its confidence interval: "met"
 * when the whole interval is at or under the limit, "missed" when the whole interval is above it,
 * else (or without an interval) "not resolved".
 */
export function limitVerdict(interval: Pick<MedianInterval, 'low' | 'high'>, limit: number): 'met' | 'missed' | 'not resolved' {
  if (interval.low === null || interval.high === null) return 'not resolved';
  if (interval.high <= limit) return 'met';
  if (interval.low > limit) return 'missed';
  return 'not resolved';
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
