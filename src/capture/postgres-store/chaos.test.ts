import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { childEnv } from '../../../test/child-env.js';
import { createHeuristicFaithfulnessJudge } from '../../judge/index.js';
import { onCleanup } from '../../test-support/fixtures.js';
import { describeWithPostgres } from '../../test-support/postgres.js';
import { openCaptureStore } from '../store.js';
import { judgeVersionOf } from '../types.js';

const BIN = fileURLToPath(new URL('../../../bin/groundcheck.js', import.meta.url));
const APP = fileURLToPath(new URL('./__fixtures__/chaos-app.ts', import.meta.url));
const WORKER = fileURLToPath(new URL('./__fixtures__/chaos-worker.ts', import.meta.url));
const APPS = 3;
const CAPTURES_PER_APP = 120;
const WORKERS = 3;
const KILLS = 20;
/** Leases of a killed worker wait this long (Postgres cannot tell that a worker on some host is gone). */
const LEASE_MS = 1500;

/** A small seeded generator: the kill schedule is the same on every run (FAST_CHECK_SEED changes it). */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve({ code: child.exitCode, signal: child.signalCode });
    else child.once('exit', (code, signal) => resolve({ code, signal }));
  });
}

async function until(condition: () => Promise<boolean>, what: string, timeoutMs: number): Promise<void> {
  const started = Date.now();
  while (!(await condition())) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describeWithPostgres('Postgres capture store under chaos', (postgres) => {
  it(`${APPS} app processes write while ${WORKERS} judge-worker processes are SIGKILLed ${KILLS} times: every capture ends with exactly one judgment`, async () => {
    const url = postgres.url();
    const store = openCaptureStore({ path: url as `postgres://${string}` });
    onCleanup(() => void store.close());
    await store.ready(); // migrated once here, so the children race on the data, not on creating the tables
    const version = judgeVersionOf(createHeuristicFaithfulnessJudge().info);
    const env = childEnv({ GROUNDCHECK_LOG_LEVEL: 'warn' });
    const next = random(Number(process.env.FAST_CHECK_SEED ?? 20261201));
    const outputs: string[] = [];
    const track = (child: ChildProcess, name: string, keepOutput = true) => {
      // Workers log every judgment: keep only their warnings and errors for failure messages.
      const keep = (part: Buffer) => {
        const text = part.toString();
        if (keepOutput || /"level":(40|50|60)|^groundcheck|Error/m.test(text)) outputs.push(`${name}: ${text}`);
      };
      child.stdout!.on('data', keep);
      child.stderr!.on('data', keep);
      onCleanup(() => child.kill('SIGKILL'));
      return child;
    };

    const apps = Array.from({ length: APPS }, (_, index) =>
      track(spawn(process.execPath, ['--import', 'tsx', APP, url, `app${index}`, String(CAPTURES_PER_APP)], { env, stdio: ['ignore', 'pipe', 'pipe'] }), `app${index}`),
    );
    /**
     * Workers that have stored a judgment since they started: only those are killed, so every
     * life of a worker does some work and the kills land while it works (loading a worker takes
     * seconds on a busy 2-core machine; killing it sooner would test only startup).
     */
    const working = new Set<ChildProcess>();
    // Slot 0 runs `groundcheck judge-worker --db <url>`; the others the same worker in a process
    // that loads only the worker (the CLI takes ~4 s to load here, the worker alone ~1.4 s).
    const spawnWorker = (slot: number) => {
      const args =
        slot === 0
          ? [BIN, 'judge-worker', '--db', url, '--judge', 'heuristic', '--settle-ms', '0', '--concurrency', '2', '--poll-ms', '25', '--lease-ms', String(LEASE_MS)]
          : ['--import', 'tsx', WORKER, url, String(LEASE_MS)];
      // Info logs: one "rag.judgment" line per stored judgment.
      const child = track(spawn(process.execPath, args, { env: { ...env, GROUNDCHECK_LOG_LEVEL: 'info' }, stdio: ['ignore', 'pipe', 'pipe'] }), `worker${slot}`, false);
      const onOutput = (part: Buffer) => {
        if (part.toString().includes('"rag.judgment"')) working.add(child);
      };
      child.stdout!.on('data', onOutput);
      child.stderr!.on('data', onOutput);
      return child;
    };
    const workers = Array.from({ length: WORKERS }, (_, slot) => spawnWorker(slot));

    // Kill a random working worker after a random pause, and start it again at once, KILLS times.
    const judgedAtKill: number[] = [];
    for (let kill = 0; kill < KILLS; kill++) {
      await new Promise((resolve) => setTimeout(resolve, 100 + Math.floor(next() * 500)));
      await until(async () => workers.some((worker) => working.has(worker)), 'a worker that has judged', 30_000);
      const candidates = workers.map((worker, slot) => ({ worker, slot })).filter(({ worker }) => working.has(worker));
      const { slot } = candidates[Math.floor(next() * candidates.length)]!;
      const victim = workers[slot]!;
      expect(victim.exitCode, outputs.join('')).toBeNull(); // it was running, not crashed on its own
      victim.kill('SIGKILL');
      expect((await exited(victim)).signal).toBe('SIGKILL');
      judgedAtKill.push(await store.judgmentCount(version));
      workers[slot] = spawnWorker(slot);
    }
    for (const app of apps) expect(await exited(app), outputs.join('')).toEqual({ code: 0, signal: null });

    const total = APPS * CAPTURES_PER_APP;
    expect(await store.captureCount()).toBe(total);
    // The kills landed while judging went on, not before or after it.
    expect(judgedAtKill.some((judged) => judged > 0 && judged < total), JSON.stringify(judgedAtKill)).toBe(true);
    await until(async () => (await store.judgmentCount(version)) >= total, `${total} judgments`, 30_000);
    for (const worker of workers) worker.kill('SIGTERM');
    for (const worker of workers) await exited(worker);

    expect(await store.judgmentCount(version)).toBe(total);
    expect(await store.pendingCount(version)).toBe(0);
    // Every capture, page by page: exactly one judgment of the version (the count above equals the captures, and none lacks one).
    let cursor: string | undefined;
    let listed = 0;
    for (;;) {
      const page = await store.listCaptures({ limit: 500, judgeVersion: version, ...(cursor ? { cursor } : {}) });
      if (page.length === 0) break;
      for (const row of page) expect(row.judgment?.judgeVersion, row.capture.traceId).toBe(version);
      listed += page.length;
      cursor = page.at(-1)!.cursor;
    }
    expect(listed).toBe(total);
    for (const traceId of ['app0-0', `app1-${CAPTURES_PER_APP - 1}`, 'app2-57']) {
      expect((await store.getCapture(traceId))!.judgments.filter((judgment) => judgment.judgeVersion === version)).toHaveLength(1);
    }
  }, 90_000);
});
