/**
 * `bench:capture-path`'s apart measurement: each side alone in a process of its own, as an app
 * runs one of them, the processes taking turns so that the machine's drift falls on every side
 * alike (a turn is a few milliseconds). In one process (`capture-path.ts`) each side also pays
 * for what the others leave behind (their heap, their garbage, their code and data in the CPU's
 * caches), and what it pays depends on which sides share the process (see docs/performance.md,
 * "Middleware overhead").
 *
 * Each side runs in `capture-path-side.ts`, driven over the IPC channel; every process is pinned
 * like the in-process measurement (the coordinator's CPU affinity is inherited). Turns rotate
 * their order.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RagTrace } from '../../src/contract/trace.js';
import { CAPTURE_SIDES, SDK_SIDES, SIDES, startReceiver, type CaptureSide, type CaptureSideCounts, type SdkSide, type Side } from './capture-path.js';
import type { SideSettings, SideSummary } from './capture-path-side.js';
import { spawnChildServer, type ChildServer } from './child-ipc.js';
import { mean } from './stats.js';

export interface ApartFigures extends CaptureSideCounts {
  turns: number;
  blocksPerTurn: number;
  /** Mean over the turns, µs per request, per side, on the side's request (main) thread. */
  micros: Record<Side, number>;
  /** Per side: its main thread's CPU time over the whole run, between turns too, µs per request timed. */
  cumulativeMicros: Record<Side, number>;
}

const SIDE_SCRIPT = fileURLToPath(new URL('./capture-path-side.ts', import.meta.url));

/** Run `turns` rotations of one turn per side, each side in its own process, after `warmupBlocks` blocks each. */
export async function measureApart(options: {
  traces: readonly RagTrace[];
  folder: string;
  turns: number;
  blocksPerTurn: number;
  warmupBlocks: number;
  /** The side processes' environment (tests: the network guard, tsx). [env=process.env] */
  env?: NodeJS.ProcessEnv;
}): Promise<ApartFigures> {
  const tracesFile = join(options.folder, 'traces.json');
  writeFileSync(tracesFile, JSON.stringify(options.traces));
  const receiver = await startReceiver();
  const sides = {} as Record<Side, ChildServer>;
  try {
    // One at a time, so their start (an index, a thread, the SDK) does not overlap another's warm-up.
    for (const side of SIDES) {
      const settings: SideSettings = { side, tracesFile, folder: mkdtempSync(join(options.folder, `${side}-`)), warmupBlocks: options.warmupBlocks, blocksPerTurn: options.blocksPerTurn, otlpUrl: receiver.url };
      // No pinning of its own: it inherits this process's CPU affinity, as its threads do.
      sides[side] = await spawnChildServer(SIDE_SCRIPT, [JSON.stringify(settings)], { cpu: null, cwd: options.folder, readyTimeoutMs: 600_000, ...(options.env ? { env: options.env } : {}) });
    }
    const times = Object.fromEntries(SIDES.map((side) => [side, [] as number[]])) as Record<Side, number[]>;
    for (let turn = 0; turn < options.turns; turn++) {
      for (let offset = 0; offset < SIDES.length; offset++) {
        const side = SIDES[(turn + offset) % SIDES.length]!;
        const value = (await sides[side].request<{ micros: number }>('turn')).micros;
        if (!Number.isFinite(value)) throw new Error(`the ${side} side answered a turn with ${value}`);
        times[side].push(value);
      }
    }
    const summaries = {} as Record<Side, SideSummary>;
    for (const side of SIDES) {
      summaries[side] = (await sides[side].request<{ summary: SideSummary }>('end')).summary;
    }
    const cheaper = Object.fromEntries(
      CAPTURE_SIDES.map((side) => [side, Object.fromEntries(SDK_SIDES.map((sdk) => [sdk, times[side].filter((value, turn) => value < times[sdk][turn]!).length]))]),
    ) as Record<CaptureSide, Record<SdkSide, number>>;
    return {
      turns: options.turns,
      blocksPerTurn: options.blocksPerTurn,
      micros: Object.fromEntries(SIDES.map((side) => [side, mean(times[side])])) as Record<Side, number>,
      cumulativeMicros: Object.fromEntries(SIDES.map((side) => [side, summaries[side].cumulativeMicros])) as Record<Side, number>,
      cheaper,
      capturesStored: Object.fromEntries(CAPTURE_SIDES.map((side) => [side, summaries[side].capturesStored ?? 0])) as Record<CaptureSide, number>,
      spans: Object.fromEntries(SDK_SIDES.map((side) => [side, summaries[side].spans ?? { ended: 0, exported: 0 }])) as Record<SdkSide, { ended: number; exported: number }>,
      otlpRequests: await receiver.requests(),
    };
  } finally {
    for (const side of SIDES) await sides[side]?.close();
    await receiver.close();
  }
}
