import { afterEach, describe, expect, it } from 'vitest';
import type { CaptureStore, ClaimOptions } from '../capture/capture-store.js';
import type { Capture, CapturedChunk, StoredJudgment } from '../capture/types.js';
import { judgmentFor, sampleCapture } from './capture-samples.js';
import { describeListingContract } from './capture-store-contract-listing.js';

/**
 * The capture store contract: the behaviour every `CaptureStore` must have, as one suite run on
 * each implementation. Call it from a test file with a factory that returns a new, empty store:
 *
 *   describeCaptureStoreContract('SQLite', () => openCaptureStore({ path: join(tempDir(), 'c.db') }));
 *
 * It covers captures, evidence, listing with cursor paging and filters and the live outcome counts
 * (`capture-store-contract-listing.ts`), the judge queue (claims, leases, attempts, backoff),
 * exactly one judgment per capture and judge version, and drift references. Every time
 * it passes is given explicitly (no clock is read), and nothing here knows how a store keeps its
 * data: a store passes by what it returns.
 */
export interface CaptureStoreContractOptions {
  /**
   * Close a store and open the same one again (same file, same database): the contract then
   * checks what must survive a restart (the redaction key). Without it those tests are not run.
   */
  reopen?: (store: CaptureStore) => Promise<CaptureStore>;
}

export function describeCaptureStoreContract(name: string, openEmpty: () => CaptureStore | Promise<CaptureStore>, options: CaptureStoreContractOptions = {}): void {
  describe(`CaptureStore contract: ${name}`, () => {
    const open: CaptureStore[] = [];
    afterEach(async () => {
      while (open.length > 0) await open.pop()!.close();
    });
    async function newStore(): Promise<CaptureStore> {
      const store = await openEmpty();
      open.push(store);
      return store;
    }

    const T0 = Date.parse('2026-03-01T10:00:00.000Z');
    const at = (seconds: number) => new Date(T0 + seconds * 1000).toISOString();
    const chunk = (chunkId: string, overrides: Partial<CapturedChunk> = {}): CapturedChunk => ({ ...sampleCapture('x').chunks[0]!, chunkId, hash: `hash-of-${chunkId}`, ...overrides });
    const version = 'heuristic:heuristic:h1';
    const claimer =
      (store: CaptureStore, defaults: Partial<ClaimOptions> = {}) =>
      async (owner: string, nowSeconds: number, options: Partial<ClaimOptions> = {}) =>
        (
          await store.claimPending({
            judgeVersion: version,
            settledBefore: T0 + (nowSeconds - 5) * 1000,
            limit: 10,
            owner,
            leaseMs: 60_000,
            now: T0 + nowSeconds * 1000,
            ...defaults,
            ...options,
          })
        ).map((capture) => capture.traceId);
    /** Claim everything claimable for `judgeVersion`, through as many claims as the store needs to queue its backlog. */
    async function claimAll(store: CaptureStore, judgeVersion: string, owner: string, nowMs: number): Promise<Capture[]> {
      const claimed: Capture[] = [];
      for (let round = 0; round < 1000; round++) {
        const batch = await store.claimPending({ judgeVersion, settledBefore: nowMs, limit: 500, owner, leaseMs: 60_000, now: nowMs });
        claimed.push(...batch);
        if (batch.length === 0 && !(await store.hasUnqueuedCaptures(judgeVersion))) return claimed;
      }
      throw new Error('claimAll: the queue never drained');
    }

    describe('captures and evidence', () => {
      it('round-trips every kind of capture exactly; a trace id is stored once', async () => {
        const store = await newStore();
        const captures = [
          sampleCapture('rag', { chunks: [chunk('a#one', { rank: 1 }), chunk('b#two', { rank: 2, updated: null, section: '' })] }),
          sampleCapture('norag', { mode: 'norag', chunks: [], refused: true, refusalReason: 'model', models: { chat: 'openai:gpt-4o-mini', embedding: null } }),
          // A gate refusal keeps the chunks the gate withheld (one shared with the 'rag' capture's chunks), for the live judge.
          sampleCapture('gated', {
            chunks: [],
            withheldChunks: [chunk('c#three', { rank: 1, score: 0.2 }), chunk('a#one', { rank: 2, score: 0.1 })],
            refused: true,
            refusalReason: 'gate',
            usage: { inputTokens: null, outputTokens: null, totalTokens: null },
            costUsd: 0.0012,
          }),
          sampleCapture('gated-empty-index', { chunks: [], refused: true, refusalReason: 'gate' }),
          sampleCapture('cut', { truncated: true, query: 'q'.repeat(50), latencyMs: 0.125 }),
        ];
        await store.writeCaptures(captures);
        await store.writeCaptures([captures[0]!, { ...captures[1]!, answer: 'a later write of the same trace id is ignored' }]);
        await store.writeCaptures([]);
        expect(await store.captureCount()).toBe(5);
        for (const capture of captures) expect(await store.getCapture(capture.traceId)).toEqual({ capture, judgments: [] });
        // The judge worker reads captures through a claim: the withheld chunks come back there too.
        const claimed = await claimAll(store, 'heuristic:heuristic:contract', 'owner-withheld', Date.parse('2030-01-01T00:00:00Z'));
        expect(claimed.find((capture) => capture.traceId === 'gated')).toEqual(captures[2]);
        expect(claimed.find((capture) => capture.traceId === 'rag')).toEqual(captures[0]);
        expect(await store.getCapture('unknown')).toBeUndefined();
      });

      it('a chunk shared by many captures reads back with each capture’s own score and rank; equal texts with other hashes stay apart', async () => {
        const store = await newStore();
        const shared = chunk('travel#mileage');
        await store.writeCaptures([
          sampleCapture('a', { chunks: [shared, chunk('leave#parental', { rank: 2 })] }),
          sampleCapture('b', { chunks: [{ ...shared, score: 0.9, fusedScore: 0.5, rank: 3 }] }),
        ]);
        await store.writeCaptures([sampleCapture('c', { chunks: [{ ...shared, hash: 'other-original' }, { ...shared, title: 'Renamed' }] })]);
        expect((await store.getCapture('a'))!.capture.chunks).toEqual([shared, chunk('leave#parental', { rank: 2 })]);
        expect((await store.getCapture('b'))!.capture.chunks).toEqual([{ ...shared, score: 0.9, fusedScore: 0.5, rank: 3 }]);
        expect((await store.getCapture('c'))!.capture.chunks).toEqual([
          { ...shared, hash: 'other-original' },
          { ...shared, title: 'Renamed' },
        ]);
      });

      it('a batch is written whole or not at all, and the store keeps working after a failed write', async () => {
        const store = await newStore();
        const broken = { ...sampleCapture('broken'), chunks: null } as unknown as Capture;
        await expect(store.writeCaptures([sampleCapture('before-broken'), broken])).rejects.toThrow();
        expect(await store.getCapture('before-broken')).toBeUndefined();
        await store.writeCaptures([sampleCapture('after')]);
        expect(await store.captureCount()).toBe(1);
      });
    });

    describeListingContract(newStore);

    describe('judge queue', () => {
      it('claims settled, unjudged, untruncated captures oldest first, up to the limit', async () => {
        const store = await newStore();
        await store.writeCaptures([
          sampleCapture('second', { capturedAt: at(2) }),
          sampleCapture('first', { capturedAt: at(1) }),
          sampleCapture('cut', { capturedAt: at(0), truncated: true }),
          sampleCapture('fresh', { capturedAt: at(9) }),
          sampleCapture('third', { capturedAt: at(3) }),
        ]);
        const claim = claimer(store);
        expect(await claim('a', 10, { limit: 2 })).toEqual(['first', 'second']);
        expect(await claim('a', 10)).toEqual(['third']); // fresh settles at 14 s; cut is never judged
        expect(await claim('b', 14)).toEqual(['fresh']);
        expect(await store.pendingCount(version)).toBe(4);
      });

      it('a leased capture is not claimed by anyone else until its lease expires or is released', async () => {
        const store = await newStore();
        await store.writeCaptures([sampleCapture('one'), sampleCapture('two'), sampleCapture('three')]);
        const claim = claimer(store);
        expect(await claim('a', 10, { limit: 1, leaseMs: 30_000 })).toEqual(['one']);
        expect(await claim('b', 10, { limit: 1, leaseMs: 30_000 })).toEqual(['two']);
        expect(await claim('c', 39)).toEqual(['three']);
        expect(await claim('d', 39)).toEqual([]);
        await store.releaseLease('two', version, 'someone-else'); // not b's release: nothing changes
        expect(await claim('d', 39)).toEqual([]);
        await store.releaseLease('two', version, 'b');
        expect(await claim('d', 39)).toEqual(['two']);
        expect(await claim('e', 40)).toEqual(['one']); // a's lease ran out at 40 s
        expect(await store.releaseLeasesOf('c')).toBe(1);
        expect(await claim('e', 41)).toEqual(['three']);
      });

      it('two owners claiming at the same moment never get the same capture', async () => {
        const store = await newStore();
        await store.writeCaptures(Array.from({ length: 30 }, (_, index) => sampleCapture(`t${index}`)));
        const claim = claimer(store);
        const [a, b, c] = await Promise.all([claim('a', 10, { limit: 12 }), claim('b', 10, { limit: 12 }), claim('c', 10, { limit: 12 })]);
        const all = [...a!, ...b!, ...c!];
        expect(all).toHaveLength(30);
        expect(new Set(all).size).toBe(30);
      });

      it('counts failed attempts, waits out the backoff, then claims again', async () => {
        const store = await newStore();
        await store.writeCaptures([sampleCapture('flaky'), sampleCapture('other')]);
        const claim = claimer(store);
        expect(await claim('a', 10)).toEqual(['flaky', 'other']);
        expect(await store.attemptsOf('flaky', version)).toBe(0);
        expect(await store.recordFailure('flaky', version, 'timeout', T0 + 30_000)).toBe(1);
        expect(await store.attemptsOf('flaky', version)).toBe(1);
        expect(await claim('b', 20)).toEqual([]); // in backoff until 30 s (and its lease is gone: a failure releases it)
        expect(await claim('b', 30)).toEqual(['flaky']);
        expect(await store.recordFailure('flaky', version, '500', T0 + 40_000)).toBe(2);
        expect(await store.attemptsOf('flaky', version)).toBe(2);
        expect(await store.attemptsOf('flaky', 'another-version')).toBe(0);
        expect(await store.attemptsOf('unknown', version)).toBe(0);
        expect(await store.pendingCount(version)).toBe(2);
      });

      it('a judge version never seen before claims every judgeable capture stored before it, once', async () => {
        const store = await newStore();
        await store.writeCaptures(Array.from({ length: 2_100 }, (_, index) => sampleCapture(`t${index}`, { truncated: index % 10 === 0 })));
        const now = T0 + 60_000;
        const first = await claimAll(store, version, 'a', now);
        expect(first).toHaveLength(1_890);
        expect(new Set(first.map((capture) => capture.traceId)).size).toBe(1_890);
        expect(first.some((capture) => capture.truncated)).toBe(false);
        expect(await store.hasUnqueuedCaptures(version)).toBe(false);
        expect(await store.pendingCount('next:version:v2')).toBe(1_890);
        expect(await claimAll(store, 'next:version:v2', 'b', now)).toHaveLength(1_890);
        await store.writeCaptures([sampleCapture('late')]);
        expect((await claimAll(store, version, 'c', now)).map((capture) => capture.traceId)).toEqual(['late']);
      });

      it('lease owners are unique; a store never reclaims the leases of a live owner or its own', async () => {
        const store = await newStore();
        const owners = [store.newLeaseOwner(), store.newLeaseOwner()];
        expect(owners[0]).not.toBe(owners[1]);
        await store.writeCaptures([sampleCapture('one'), sampleCapture('two')]);
        const claim = claimer(store);
        expect(await claim(owners[0]!, 10, { limit: 1 })).toEqual(['one']);
        expect(await claim(owners[1]!, 10, { limit: 1 })).toEqual(['two']);
        expect(await store.reclaimAbandonedLeases(T0 + 11_000, owners[0]!)).toEqual([]);
        expect(await claim('third', 11)).toEqual([]);
        // A stopped worker's leases come back with releaseLeasesOf.
        expect(await store.releaseLeasesOf(owners[1]!)).toBe(1);
        expect(await claim('third', 11)).toEqual(['two']);
      });
    });

    describe('judgments', () => {
      it('exactly one judgment per capture and judge version, even when saved concurrently; the first is kept', async () => {
        const store = await newStore();
        await store.writeCaptures([sampleCapture('t1'), sampleCapture('t2')]);
        const attempts = Array.from({ length: 6 }, (_, index) => judgmentFor('t1', { attempts: index + 1 }));
        const saved = await Promise.all(attempts.map((judgment) => store.saveJudgment(judgment)));
        expect(saved.filter(Boolean)).toHaveLength(1);
        const kept = attempts[saved.indexOf(true)]!;
        expect((await store.getCapture('t1'))!.judgments).toEqual([kept]);
        expect(await store.saveJudgment(judgmentFor('t1', { status: 'error', error: 'late', flags: null, claims: [] }))).toBe(false);
        const other = judgmentFor('t1', { judgeVersion: 'llm:openai:gpt-4o-mini:v2' });
        expect(await store.saveJudgment(other)).toBe(true);
        expect((await store.getCapture('t1'))!.judgments).toEqual([kept, other]);
        expect(await store.judgmentCount(version)).toBe(1);
        expect(await store.judgmentCount('llm:openai:gpt-4o-mini:v2')).toBe(1);
      });

      it('a judged capture is no longer pending or claimable, even while its lease is held', async () => {
        const store = await newStore();
        await store.writeCaptures([sampleCapture('t1'), sampleCapture('t2')]);
        const claim = claimer(store);
        expect(await claim('a', 10)).toEqual(['t1', 't2']);
        await store.saveJudgment(judgmentFor('t1'));
        expect(await store.pendingCount(version)).toBe(1);
        expect(await claim('b', 100)).toEqual(['t2']);
        // Judged without ever being claimed (another worker raced ahead): never claimed after.
        await store.writeCaptures([sampleCapture('t3')]);
        await store.saveJudgment(judgmentFor('t3'));
        expect(await claim('c', 200)).toEqual(['t2']);
      });

      it('stores a judge error and a judgment with fields this store has never heard of, exactly', async () => {
        const store = await newStore();
        await store.writeCaptures([sampleCapture('failed'), sampleCapture('future')]);
        const failure = judgmentFor('failed', { status: 'error', claims: [], counts: { verified: 0, contradicted: 0, absent: 0 }, flags: null, error: 'HTTP 500', rawReply: '{"oops"', attempts: 4, costUsd: null });
        // Judging v2 adds fields to the record: they are kept without a schema change.
        const future = {
          ...judgmentFor('future'),
          contextVerdicts: [{ chunkId: 'travel-and-expenses#mileage-rates', relevant: true }],
          answerRelevance: { score: 0.8, reason: 'answers the question' },
        } as StoredJudgment;
        await store.saveJudgment(failure);
        await store.saveJudgment(future);
        expect((await store.getCapture('failed'))!.judgments).toEqual([failure]);
        expect((await store.getCapture('future'))!.judgments).toEqual([future]);
        expect((await store.listCaptures()).map((row) => row.judgment)).toEqual([future, failure]);
      });

      it('saving a judgment of a capture that does not exist fails', async () => {
        const store = await newStore();
        await expect(store.saveJudgment(judgmentFor('nowhere'))).rejects.toThrow();
      });
    });

    describe('drift references', () => {
      it('lists every judged capture’s chunks in prompt order with the judgment’s verdict; unjudged captures have none', async () => {
        const store = await newStore();
        await store.writeCaptures([
          sampleCapture('judged', { capturedAt: at(1), chunks: [chunk('a#one'), chunk('b#two')] }),
          sampleCapture('unjudged', { capturedAt: at(2), chunks: [chunk('c#three')] }),
          sampleCapture('gated', { capturedAt: at(3), chunks: [] }),
          sampleCapture('failed', { capturedAt: at(4), chunks: [chunk('a#one')] }),
        ]);
        await store.saveJudgment(judgmentFor('judged'));
        await store.saveJudgment(judgmentFor('gated'));
        await store.saveJudgment(judgmentFor('failed', { status: 'error', flags: null, claims: [], error: 'x' }));
        expect(await store.judgedEvidence()).toEqual([
          { traceId: 'judged', capturedAt: at(1), chunkId: 'a#one', hash: 'hash-of-a#one', judgeVersion: version, status: 'ok', faithful: true, hallucinated: false },
          { traceId: 'judged', capturedAt: at(1), chunkId: 'b#two', hash: 'hash-of-b#two', judgeVersion: version, status: 'ok', faithful: true, hallucinated: false },
          { traceId: 'failed', capturedAt: at(4), chunkId: 'a#one', hash: 'hash-of-a#one', judgeVersion: version, status: 'error', faithful: null, hallucinated: null },
        ]);
      });
    });

    describe('redaction key', () => {
      it('redactionKey is at least 16 characters', async () => {
        const store = await newStore();
        expect(typeof store.redactionKey).toBe('string');
        expect(store.redactionKey!.length).toBeGreaterThanOrEqual(16);
      });

      const { reopen } = options;
      if (reopen) {
        it('redactionKey is at least 16 characters and survives reopen', async () => {
          const store = await newStore();
          const key = store.redactionKey;
          expect(key!.length).toBeGreaterThanOrEqual(16);
          open.splice(open.indexOf(store), 1);
          const again = await reopen(store);
          open.push(again);
          expect(again.redactionKey).toBe(key);
        });
      }
    });
  });
}
