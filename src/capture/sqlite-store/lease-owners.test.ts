import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sampleCapture } from '../../test-support/capture-samples.js';
import { onCleanup, tempDir } from '../../test-support/fixtures.js';
import { openSqliteCaptureStore } from '../store.js';

describe('SQLite store: giving back leases of workers that are gone', () => {
  it('reclaims a dead process’s leases on this host and a stopped worker’s in this process; never a live one’s, its own, or another host’s', async () => {
    const path = join(tempDir(), 'captures.db');
    const alive = new Set([222]);
    let counter = 0;
    const environment = { hostname: 'box', pid: 111, randomId: () => `r${(counter += 1)}`, processAlive: (pid: number) => alive.has(pid) };
    const store = openSqliteCaptureStore({ path, backgroundCheckpoints: false, leaseOwners: environment });
    onCleanup(() => void store.close());
    await store.writeCaptures(['a', 'b', 'c', 'd', 'e', 'f'].map((traceId) => sampleCapture(traceId)));
    const self = store.newLeaseOwner();
    const liveHere = store.newLeaseOwner();
    const stoppedHere = store.newLeaseOwner();
    expect([self, liveHere, stoppedHere]).toEqual(['box:111:r1', 'box:111:r2', 'box:111:r3']);
    const now = Date.parse('2026-03-01T11:00:00.000Z');
    const owners = [self, liveHere, stoppedHere, 'box:222:x', 'box:333:y', 'elsewhere:333:z'];
    for (const owner of owners) {
      const claimed = await store.claimPending({ judgeVersion: 'v', settledBefore: now, limit: 1, owner, leaseMs: 60_000, now });
      expect(claimed).toHaveLength(1);
    }
    // releaseLeasesOf retires the owner: its id is no longer live in this process.
    await store.releaseLeasesOf(stoppedHere);
    await store.claimPending({ judgeVersion: 'v', settledBefore: now, limit: 1, owner: stoppedHere, leaseMs: 60_000, now });
    expect(store.leaseOwners(now).sort()).toEqual([...owners].sort());

    expect(await store.reclaimAbandonedLeases(now + 1, self)).toEqual([
      { owner: stoppedHere, released: 1 },
      { owner: 'box:333:y', released: 1 },
    ]);
    expect(store.leaseOwners(now + 1).sort()).toEqual([self, liveHere, 'box:222:x', 'elsewhere:333:z'].sort());

    // A worker restarted in a new process (another pid) sees this one's live owners as dead once it exits.
    alive.delete(222);
    const restarted = openSqliteCaptureStore({ path, backgroundCheckpoints: false, leaseOwners: { ...environment, pid: 444, processAlive: () => false } });
    onCleanup(() => void restarted.close());
    const reclaimed = await restarted.reclaimAbandonedLeases(now + 2, restarted.newLeaseOwner());
    expect(reclaimed.map((entry) => entry.owner).sort()).toEqual([self, liveHere, 'box:222:x'].sort());
    expect(restarted.leaseOwners(now + 2)).toEqual(['elsewhere:333:z']);
  });
});
