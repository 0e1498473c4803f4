import { afterEach } from 'vitest';
import fc from 'fast-check';
// @ts-expect-error plain ESM module without types, shared with child processes
import { takeBlockedConnections } from './network-guard.mjs';

afterEach(() => {
  const blocked = takeBlockedConnections() as string[];
  if (blocked.length > 0) {
    throw new Error(`this test tried to reach the network outside loopback:\n${blocked.join('\n')}`);
  }
});

// Property tests draw from a fixed seed, so a CI run is repeatable; set FAST_CHECK_SEED to explore
// other inputs locally (a failure prints the seed and the shrunk counterexample).
fc.configureGlobal({ seed: Number(process.env.FAST_CHECK_SEED ?? 20261201), numRuns: Number(process.env.FAST_CHECK_RUNS ?? 200) });
