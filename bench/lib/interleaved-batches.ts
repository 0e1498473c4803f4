import { limitVerdict, meanInterval, median, medianInterval, type MeanInterval, type MedianInterval } from './stats.js';

/** One cycle: each app's batch, in the order they ran, and the time each took, ms. */
export interface InterleavedCycle<Name extends string> {
  order: Name[];
  elapsedMs: Record<Name, number>;
}

export interface InterleavedOptions<Name extends string> {
  /** The apps; each cycle runs one batch of each. */
  names: readonly Name[];
  /** Cycles kept. */
  cycles: number;
  /** Cycles run first and dropped (warm-up). */
  warmupCycles: number;
  /** The requests of cycle `index` (warm-up cycles included, from 0): every app's batch in the cycle sends this list. */
  batchOf: (index: number) => readonly string[];
  /** Run one app's batch of `bodies` and return how long it took, ms. */
  runBatch: (name: Name, bodies: readonly string[]) => Promise<number>;
  /** Called after each kept cycle (progress). */
  onCycle?: (cycle: InterleavedCycle<Name>, index: number) => void;
}

/** `names` rotated left by `index`: over any run of `names.length` cycles each app runs once in each position. */
export function rotatedOrder<Name extends string>(names: readonly Name[], index: number): Name[] {
  return names.map((_, position) => names[(position + index) % names.length]!);
}

/**
 * Interleaved batches: cycles of one batch per app, the same requests for each, back to back in
 * rotating order. The apps' batches of one cycle are a fraction of a second apart, so the
 * machine's slow drift (JIT warm-up, neighbours) moves all of them alike and a per-cycle ratio
 * cancels it, where rounds of seconds per app each meet a different machine.
 */
export async function runInterleavedCycles<Name extends string>(options: InterleavedOptions<Name>): Promise<InterleavedCycle<Name>[]> {
  const kept: InterleavedCycle<Name>[] = [];
  for (let index = 0; index < options.warmupCycles + options.cycles; index++) {
    const bodies = options.batchOf(index);
    const order = rotatedOrder(options.names, index);
    const elapsedMs = {} as Record<Name, number>;
    for (const name of order) elapsedMs[name] = await options.runBatch(name, bodies);
    if (index < options.warmupCycles) continue;
    const cycle = { order, elapsedMs };
    kept.push(cycle);
    options.onCycle?.(cycle, kept.length - 1);
  }
  return kept;
}

/** An app's batch throughput over the cycles, req/s. */
export interface BatchThroughput {
  median: number;
  min: number;
  max: number;
}

export function batchThroughput<Name extends string>(cycles: readonly InterleavedCycle<Name>[], batchSize: number, name: Name): BatchThroughput {
  const rates = cycles.map((cycle) => (1000 * batchSize) / cycle.elapsedMs[name]);
  return { median: median(rates), min: Math.min(...rates), max: Math.max(...rates) };
}

/** An app's throughput loss against the baseline app, paired cycle by cycle. */
export interface PairedLoss {
  /** Per cycle, % (1 − the app's batch throughput ÷ the baseline's in the same cycle): the median and its 95% interval over the cycles. */
  lossPct: MedianInterval;
  /** Cycles in which the app's batch took longer than the baseline's. */
  slowerCycles: number;
  /** "At most `limitPct`" from the interval (see {@link limitVerdict}). */
  verdict: ReturnType<typeof limitVerdict>;
}

/**
 * The loss of `name` against `baseline`: each cycle's batches did the same requests, so the loss
 * is 1 − baseline time ÷ app time, one value per cycle; the median's interval comes from order
 * statistics (cycles taken as independent: the drift they share within a cycle is what cancels).
 */
export function pairedLoss<Name extends string>(cycles: readonly InterleavedCycle<Name>[], baseline: Name, name: Name, limitPct: number): PairedLoss {
  const losses = cycles.map((cycle) => cycleLossPct(cycle, baseline, name));
  const lossPct = medianInterval(losses);
  return { lossPct, slowerCycles: losses.filter((loss) => loss > 0).length, verdict: limitVerdict(lossPct, limitPct) };
}

/** One cycle's loss of `name` against `baseline`, %: 1 − baseline time ÷ app time (the same requests in both batches). */
function cycleLossPct<Name extends string>(cycle: InterleavedCycle<Name>, baseline: Name, name: Name): number {
  return 100 * (1 - cycle.elapsedMs[baseline] / cycle.elapsedMs[name]);
}

/** Server processes from which {@link processLoss} gives a verdict: a t-interval of two values is too often narrow by luck. */
export const MIN_PROCESSES_FOR_VERDICT = 3;

/** A kept cycle and the server process it ran in (0 for the first). */
export interface ProcessCycle<Name extends string> extends InterleavedCycle<Name> {
  process: number;
}

/** An app's loss read across server processes: what one process's cycles cannot show. */
export interface ProcessLoss {
  /** Per process, in order: the median of its cycles' losses, %. */
  perProcess: number[];
  /** The mean of `perProcess` and its 95% t-interval (`null` ends with one process). */
  between: MeanInterval;
  /** "At most `limitPct`" from `between` (see {@link limitVerdict}); "not resolved" from fewer than {@link MIN_PROCESSES_FOR_VERDICT} processes. */
  verdict: ReturnType<typeof limitVerdict>;
}

/**
 * The loss of `name` against `baseline` per server process, and across them. Cycles of one
 * process share what a process fixes once (where its heap and JIT code sit, its store file, the
 * page cache of its index): two runs of this bench differed by two points with per-run intervals
 * of about one (bench:middleware, 2026-12-05). So each process gives one value, the median of
 * its cycles' losses, and the interval comes from the spread of those values, not from the
 * count of cycles.
 */
export function processLoss<Name extends string>(cycles: readonly ProcessCycle<Name>[], baseline: Name, name: Name, limitPct: number): ProcessLoss {
  const processes = [...new Set(cycles.map((cycle) => cycle.process))].sort((a, b) => a - b);
  const perProcess = processes.map((process) =>
    median(cycles.filter((cycle) => cycle.process === process).map((cycle) => cycleLossPct(cycle, baseline, name))),
  );
  const between = meanInterval(perProcess);
  return { perProcess, between, verdict: perProcess.length >= MIN_PROCESSES_FOR_VERDICT ? limitVerdict(between, limitPct) : 'not resolved' };
}

/** `total` cycles shared over `parts` processes as evenly as whole cycles allow, the first ones taking the remainder. */
export function shareCycles(total: number, parts: number): number[] {
  if (!Number.isInteger(parts) || parts < 1 || parts > total) throw new RangeError(`shareCycles: cannot share ${total} cycles over ${parts} processes (each needs at least one)`);
  return Array.from({ length: parts }, (_, index) => Math.floor(total / parts) + (index < total % parts ? 1 : 0));
}
