import { join } from 'node:path';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../../demo-app/app.js';
import { judgmentFor, sampleCapture } from '../../test-support/capture-samples.js';
import { handbookIndex, onCleanup, tempDir } from '../../test-support/fixtures.js';
import { openCaptureStore } from '../store.js';

/**
 * Statements per read, counted with better-sqlite3's `verbose` hook (every statement the store
 * runs). Before schema 3 a list ran two statements per listed capture (its chunks, its
 * judgments): the dashboard's page of 500, refreshed every 5 s, was 1,001 statements (1 + 2 × 500,
 * measured on the old store with a counting wrapper on better-sqlite3's Statement).
 */
async function countingStore(captures: number) {
  let statements = 0;
  const store = openCaptureStore({ path: join(tempDir(), 'captures.db'), backgroundCheckpoints: false, verbose: () => (statements += 1) });
  onCleanup(() => void store.close());
  await store.writeCaptures(Array.from({ length: captures }, (_, index) => sampleCapture(`t${index}`, { chunks: [0, 1, 2].map((position) => ({ ...sampleCapture('x').chunks[0]!, chunkId: `c${index % 7}-${position}`, rank: position + 1 })) })));
  for (let index = 0; index < captures; index += 2) await store.saveJudgment(judgmentFor(`t${index}`));
  return {
    store,
    count: async (run: () => Promise<unknown>) => {
      statements = 0;
      await run();
      return statements;
    },
  };
}

describe('SQLite capture store statements per read', () => {
  it.each([1, 50, 500])('a page of %i captures with chunks and judgments costs 3 statements', async (limit) => {
    const { store, count } = await countingStore(600);
    let page: Awaited<ReturnType<typeof store.listCaptures>> = [];
    expect(await count(async () => (page = await store.listCaptures({ limit, judgeVersion: 'heuristic:heuristic:h1' })))).toBe(3);
    expect(page).toHaveLength(limit);
    expect(page[0]!.capture.chunks.map((chunk) => chunk.rank)).toEqual([1, 2, 3]);
    // Every other capture is judged (t0, t2…); the newest are t599, t598…
    expect(page.filter((row) => row.judgment !== null)).toHaveLength(Math.floor(limit / 2));
  });

  it('a claim of n captures costs the same few statements whatever n', async () => {
    const { store, count } = await countingStore(100);
    const claim = (limit: number, owner: string) => store.claimPending({ judgeVersion: 'v', settledBefore: Date.parse('2026-03-02'), limit, owner, leaseMs: 60_000, now: Date.parse('2026-03-02') });
    await claim(1, 'first'); // the first claim also moves the captures into the queue
    const one = await count(() => claim(1, 'a'));
    const forty = await count(() => claim(40, 'b'));
    // The lease is one UPDATE per claimed row, inside the claim's transaction; reading the captures back is two statements.
    expect(forty - one).toBe(39);
  });

  it('a dashboard refresh costs the same statements whatever the page size or the number of captures', async () => {
    const counted = async (captures: number, path: string) => {
      const { store, count } = await countingStore(captures);
      const demo = createApp({ index: await handbookIndex(), capture: { store }, worker: false, env: {}, evalResults: false });
      onCleanup(() => void demo.close());
      let status = 0;
      const statements = await count(async () => (status = (await request(demo.app).get(path)).status));
      expect(status, path).toBe(200);
      return statements;
    };
    // No live judge in this app, so each refresh first finds the judge version of the newest
    // judged capture (a list of one: 3), then lists the page (3) and counts the range (BEGIN, the
    // captures, the judgments by flags key, COMMIT: 4).
    expect(await counted(600, '/dashboard/api/captures?limit=1')).toBe(10);
    expect(await counted(600, '/dashboard/api/captures?limit=200')).toBe(10);
    expect(await counted(60, '/dashboard/api/captures?limit=200&filter=correct')).toBe(11); // + the judge version's flags keys
    // The rates of a day of the samples' captures: the judge version (3), then two statements per hour inside one read transaction.
    const day = `from=${Date.parse('2026-03-01T00:00:00.000Z')}&to=${Date.parse('2026-03-02T00:00:00.000Z')}`;
    expect(await counted(600, `/dashboard/api/rates?${day}`)).toBe(3 + 2 + 24 * 2);
    expect(await counted(60, `/dashboard/api/rates?${day}`)).toBe(3 + 2 + 24 * 2);
  });
});
