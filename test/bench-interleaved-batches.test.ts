import { describe, expect, it } from 'vitest';
import { batchThroughput, pairedLoss, processLoss, runInterleavedCycles, shareCycles } from '../bench/lib/interleaved-batches.js';

describe('bench interleaved batches', () => {
  it('runs one batch per app per cycle, the same requests within a cycle, in rotating order, and drops the warm-up cycles', async () => {
    const calls: string[] = [];
    const cycles = await runInterleavedCycles({
      names: ['bare', 'captured', 'otel'] as const,
      cycles: 3,
      warmupCycles: 1,
      batchOf: (index) => [`q${index}a`, `q${index}b`],
      runBatch: async (name, bodies) => {
        calls.push(`${name}:${bodies.join('+')}`);
        return name === 'bare' ? 100 : 104;
      },
    });
    expect(calls).toEqual([
      'bare:q0a+q0b', 'captured:q0a+q0b', 'otel:q0a+q0b', // warm-up, dropped
      'captured:q1a+q1b', 'otel:q1a+q1b', 'bare:q1a+q1b',
      'otel:q2a+q2b', 'bare:q2a+q2b', 'captured:q2a+q2b',
      'bare:q3a+q3b', 'captured:q3a+q3b', 'otel:q3a+q3b',
    ]);
    expect(cycles.map((cycle) => cycle.order)).toEqual([
      ['captured', 'otel', 'bare'],
      ['otel', 'bare', 'captured'],
      ['bare', 'captured', 'otel'],
    ]);
    expect(batchThroughput(cycles, 2, 'bare')).toEqual({ median: 20, min: 20, max: 20 });
  });

  it('pairs each cycle: a loss that drifts with the machine is read from the ratio, not from the drift', () => {
    // The machine slows by half over the run; captured is 2% slower than bare in every cycle but one.
    const cycles = Array.from({ length: 12 }, (_, index) => {
      const bare = 100 * (1 + index / 12);
      return { order: ['bare', 'captured'] as ('bare' | 'captured')[], elapsedMs: { bare, captured: index === 5 ? bare * 0.99 : bare / 0.98 } };
    });
    const loss = pairedLoss(cycles, 'bare', 'captured', 3);
    expect(loss.lossPct.median).toBeCloseTo(2, 10);
    expect([loss.lossPct.low, loss.lossPct.high].map((value) => Number(value?.toFixed(6)))).toEqual([2, 2]);
    expect(loss.slowerCycles).toBe(11);
    expect(loss.verdict).toBe('met');
    expect(pairedLoss(cycles, 'bare', 'captured', 1.5).verdict).toBe('missed');
  });
  it('reads the loss across server processes: each process one value, the interval from their spread', () => {
    // Four processes whose cycles agree within each (pooled, the interval would be narrow) but
    // not between them: 1%, 2%, 3% and 6% slower.
    const slowdowns = [0.01, 0.02, 0.03, 0.06];
    const cycles = slowdowns.flatMap((slowdown, process) =>
      Array.from({ length: 10 }, () => ({ process, order: ['bare', 'captured'] as ('bare' | 'captured')[], elapsedMs: { bare: 100, captured: 100 / (1 - slowdown) } })),
    );
    const pooled = pairedLoss(cycles, 'bare', 'captured', 4);
    expect(pooled.verdict).toBe('met'); // the pooled cycles' median interval sits at 2 to 3%
    const across = processLoss(cycles, 'bare', 'captured', 4);
    expect(across.perProcess.map((value) => Number(value.toFixed(6)))).toEqual([1, 2, 3, 6]);
    expect(across.between.mean).toBeCloseTo(3, 10);
    // s = √(14/3) ≈ 2.160; half-width 3.182 · 2.160 / 2 ≈ 3.437
    expect(across.between.low).toBeCloseTo(-0.437, 2);
    expect(across.between.high).toBeCloseTo(6.437, 2);
    expect(across.verdict).toBe('not resolved');
    expect(processLoss(cycles, 'bare', 'captured', 7).verdict).toBe('met');
  });

  it('gives no verdict across fewer than three processes, however narrow their interval', () => {
    const cycles = [0.02, 0.021].flatMap((slowdown, process) =>
      Array.from({ length: 10 }, () => ({ process, order: ['bare', 'captured'] as ('bare' | 'captured')[], elapsedMs: { bare: 100, captured: 100 / (1 - slowdown) } })),
    );
    const across = processLoss(cycles, 'bare', 'captured', 3);
    expect(across.between.high).toBeLessThan(3);
    expect(across.verdict).toBe('not resolved');
  });

  it('shares cycles over processes as evenly as whole cycles allow, and refuses a process with none', () => {
    expect(shareCycles(10, 4)).toEqual([3, 3, 2, 2]);
    expect(shareCycles(8, 8)).toEqual([1, 1, 1, 1, 1, 1, 1, 1]);
    expect(() => shareCycles(3, 4)).toThrow(RangeError);
    expect(() => shareCycles(3, 0)).toThrow(RangeError);
  });
});
