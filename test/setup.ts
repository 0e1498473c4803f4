import { afterEach } from 'vitest';
// @ts-expect-error plain ESM module without types, shared with child processes
import { takeBlockedConnections } from './network-guard.mjs';

afterEach(() => {
  const blocked = takeBlockedConnections() as string[];
  if (blocked.length > 0) {
    throw new Error(`this test tried to reach the network outside loopback:\n${blocked.join('\n')}`);
  }
});
