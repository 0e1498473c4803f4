import { join } from 'node:path';
import Database from 'better-sqlite3';
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { onCleanup, tempDir } from '../test-support/fixtures.js';
import { CaptureStore, openCaptureStore } from './store.js';
import type { Capture, StoredJudgment } from './types.js';

export function sampleCapture(traceId: string, overrides: Partial<Capture> = {}): Capture {
  return {
    traceId,
    requestId: `req-${traceId}`,
    capturedAt: '2026-03-01T10:00:00.000Z',
    route: '/api/chat',
    method: 'POST',
    status: 200,
    latencyMs: 12.5,
    query: 'What is the mileage rate?',
    mode: 'rag',
    chunks: [
      {
        chunkId: 'travel-and-expenses#mileage-rates',
        document: 'travel-and-expenses',
        title: 'Travel and Expenses',
        section: 'Mileage Rates',
        updated: '2025-09-01',
        hash: 'h1',
        text: '[Source: Travel and Expenses | Last updated: 2025-09-01]\nCars: 45p per mile.',
        score: 0.61,
        fusedScore: 0.03,
        rank: 1,
      },
    ],
    answer: '45p per mile.',
    refused: false,
    refusalReason: null,
    promptVersion: 'grounded-v1',
    models: { chat: 'local:local-extractive-v1', embedding: 'local:local-hash-v1' },
    usage: { inputTokens: 100, outputTokens: 5, totalTokens: 105 },
    costUsd: null,
    timings: { retrievalMs: 1, generationMs: 2, totalMs: 3 },
    truncated: false,
    ...overrides,
  };
}

function judgmentFor(traceId: string, overrides: Partial<StoredJudgment> = {}): StoredJudgment {
  return {
    traceId,
    judgeVersion: 'heuristic:heuristic:h1',
    judge: { kind: 'heuristic', model: 'heuristic', promptVersion: 'h1' },
    status: 'ok',
    claims: [{ text: '45p per mile', verdict: 'verified', evidenceChunkId: 'travel-and-expenses#mileage-rates', note: '' }],
    counts: { verified: 1, contradicted: 0, absent: 0 },
    flags: { faithful: true, hallucinated: false, refused: false, evidenceRelevant: true, correctlyRefused: null, undetermined: false },
    error: null,
    rawReply: null,
    attempts: 1,
    usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
    costUsd: 0,
    durationMs: 3,
    judgedAt: '2026-03-01T10:00:05.000Z',
    ...overrides,
  };
}

function newStore(path = join(tempDir(), 'captures.db')): CaptureStore {
  const store = openCaptureStore({ path });
  onCleanup(() => store.close());
  return store;
}

describe('capture store', () => {
  it('round-trips a capture exactly, and stores a trace id once', () => {
    const store = newStore();
    const capture = sampleCapture('t1');
    store.writeCaptures([capture, capture]);
    store.writeCaptures([capture]);
    expect(store.captureCount()).toBe(1);
    expect(store.getCapture('t1')).toEqual({ capture, judgments: [] });
    expect(store.getCapture('nope')).toBeUndefined();
  });

  it('one judgment per capture and judge version: UNIQUE in the schema, a second save is refused', () => {
    const store = newStore();
    store.writeCaptures([sampleCapture('t1')]);
    expect(store.saveJudgment(judgmentFor('t1'))).toBe(true);
    expect(store.saveJudgment(judgmentFor('t1', { status: 'error', error: 'late duplicate', flags: null, claims: [] }))).toBe(false);
    expect(store.saveJudgment(judgmentFor('t1', { judgeVersion: 'llm:openai:gpt-4o-mini:v2' }))).toBe(true);
    const { judgments } = store.getCapture('t1')!;
    expect(judgments.map((judgment) => [judgment.judgeVersion, judgment.status])).toEqual([
      ['heuristic:heuristic:h1', 'ok'],
      ['llm:openai:gpt-4o-mini:v2', 'ok'],
    ]);
    expect(judgments[0]).toEqual(judgmentFor('t1'));
    // The constraint lives in the schema, not only in the code path.
    expect(() =>
      store.db
        .prepare(`INSERT INTO judgments (capture_id, judge_version, judge_kind, judge_model, judge_prompt_version, status, claims, verified, contradicted, absent, attempts, duration_ms, judged_at)
                  SELECT capture_id, judge_version, judge_kind, judge_model, judge_prompt_version, status, claims, verified, contradicted, absent, attempts, duration_ms, judged_at FROM judgments LIMIT 1`)
        .run(),
    ).toThrow(/UNIQUE constraint failed/);
  });

  it('claims settled, unjudged captures with a lease; others skip leased, judged and backed-off ones', () => {
    const store = newStore();
    const base = Date.parse('2026-03-01T10:00:00.000Z');
    store.writeCaptures([
      sampleCapture('old1'),
      sampleCapture('old2'),
      sampleCapture('fresh', { capturedAt: '2026-03-01T10:00:09.000Z' }),
      sampleCapture('cut', { truncated: true }),
    ]);
    const version = 'heuristic:heuristic:h1';
    const claim = (owner: string, now: number, limit = 10) =>
      store.claimPending({ judgeVersion: version, settledBefore: now - 5000, limit, owner, leaseMs: 60_000, now }).map((capture) => capture.traceId);

    expect(claim('a', base + 10_000, 1)).toEqual(['old1']);
    expect(claim('b', base + 10_000)).toEqual(['old2']); // old1 leased by a; fresh not settled; truncated never judged
    expect(claim('c', base + 14_000)).toEqual(['fresh']);
    expect(claim('d', base + 14_000)).toEqual([]);
    expect(store.pendingCount(version)).toBe(3);

    // A failure schedules a retry and releases the lease.
    expect(store.recordFailure('old1', version, 'timeout', base + 30_000)).toBe(1);
    expect(claim('e', base + 20_000)).toEqual([]);
    expect(claim('e', base + 31_000)).toEqual(['old1']); // backoff over; old2 and fresh still leased
    store.releaseLeasesOf('b');
    expect(claim('e', base + 31_000)).toEqual(['old2']);
    expect(store.attemptsOf('old1', version)).toBe(1);

    // Storing a judgment drops the job; the capture is no longer pending.
    store.saveJudgment(judgmentFor('old1'));
    expect(store.pendingCount(version)).toBe(2);
    // Leases expire.
    expect(claim('f', base + 200_000)).toEqual(['old2', 'fresh']);
    expect(store.leaseOwners(base + 200_000)).toEqual(['f']);
  });

  it('refuses foreign and newer files with clear errors', () => {
    const dir = tempDir();
    const foreign = join(dir, 'foreign.db');
    const db = new Database(foreign);
    db.exec('CREATE TABLE t (x)');
    db.close();
    expect(() => openCaptureStore({ path: foreign })).toThrow(/is a SQLite database but not a groundcheck capture store/);

    const garbage = join(dir, 'garbage.db');
    writeFileSync(garbage, 'x'.repeat(4096));
    expect(() => openCaptureStore({ path: garbage })).toThrow(/is not a SQLite database/);

    const newer = join(dir, 'newer.db');
    newStore(newer).close();
    const raw = new Database(newer);
    raw.pragma('user_version = 99');
    raw.close();
    expect(() => openCaptureStore({ path: newer })).toThrow(/newer groundcheck \(capture schema 99/);
    expect(() => openCaptureStore({ path: join(dir, 'absent.db'), create: false })).toThrow(/no capture store/);
  });

  it('uses WAL', () => {
    const store = newStore();
    expect(store.db.pragma('journal_mode', { simple: true })).toBe('wal');
  });
});
