import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderFlagsKey } from '../../contract/flags-key.js';
import { outcomeNames } from '../../contract/outcome.js';
import { openSqlite } from '../../sqlite/open.js';
import { judgmentWithOutcome, sampleCapture } from '../../test-support/capture-samples.js';
import { onCleanup, tempDir } from '../../test-support/fixtures.js';
import { CAPTURE_SCHEMA_VERSION, openSqliteCaptureStore } from '../store.js';
import { registerCaptureFunctions } from './functions.js';
import { listingSql } from './listing.js';
import { RATES_SQL } from './rates.js';
import { judgmentRecord } from '../capture-row.js';
import { judgmentColumns } from './rows.js';
import { CAPTURE_MIGRATIONS } from './schema.js';

const version = 'heuristic:heuristic:h1';
const T0 = Date.parse('2026-03-01T10:00:00.000Z');
const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();

function newStore(path = join(tempDir(), 'captures.db')) {
  const store = openSqliteCaptureStore({ path, backgroundCheckpoints: false });
  onCleanup(() => void store.close());
  return store;
}

/** Every bound name of a statement, with a value of the right type, for EXPLAIN QUERY PLAN. */
function planOf(store: ReturnType<typeof newStore>, sql: string): string[] {
  const values: Record<string, unknown> = { judgeVersion: version, start: 0, end: 1, limit: 50, cursorMs: 1, cursorId: 1, from: 0, to: 1, outcomeKeys: '[]' };
  const names = [...new Set([...sql.matchAll(/@(\w+)/g)].map((match) => match[1]!))];
  const rows = store.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(Object.fromEntries(names.map((name) => [name, values[name]]))) as { detail: string }[];
  return rows.map((row) => row.detail);
}

describe('SQLite live outcome counts', () => {
  it('read index ranges only: no scan of a table, no table row or JSON per judgment, no sort', async () => {
    const store = newStore();
    // Enough rows that the planner has something to choose between.
    await store.writeCaptures(Array.from({ length: 300 }, (_, index) => sampleCapture(`t${index}`, { capturedAt: at(index), truncated: index % 10 === 0 })));
    for (let index = 1; index < 300; index += 2) await store.saveJudgment(judgmentWithOutcome(`t${index}`, outcomeNames()[index % 9]!));
    store.db.exec('ANALYZE');
    const captures = planOf(store, RATES_SQL.captures);
    const judgments = planOf(store, RATES_SQL.judgments);
    expect(captures[0]).toMatch(/^SEARCH c USING COVERING INDEX captures_time \(captured_ms>\? AND captured_ms<\?\)$/);
    expect(judgments).toContainEqual(expect.stringMatching(/^SEARCH j USING COVERING INDEX judgments_outcomes \(judge_version=\? AND flags_key=\? AND captured_ms>\? AND captured_ms<\?\)$/));
    expect(judgments).toContainEqual(expect.stringMatching(/^SEARCH judgment_flag_keys USING PRIMARY KEY \(judge_version=\?\)$/));
    for (const line of [...captures, ...judgments]) {
      expect(line).not.toMatch(/\bSCAN (c|j|captures|judgments)\b|TEMP B-TREE/);
    }
    expect(RATES_SQL.judgments).not.toMatch(/record|json/);
  });

  it('lists newest first along captures_time: the first page and a time range read only what they return (ties sorted within one time)', () => {
    const store = newStore();
    for (const conditions of [[], ['cursor'], ['from', 'to'], ['from', 'to', 'cursor']] as const) {
      const plan = planOf(store, listingSql(conditions));
      expect(plan[0], conditions.join()).toMatch(/^(SCAN|SEARCH) c USING INDEX captures_time/);
      expect(plan.slice(1), conditions.join()).toEqual(['USE TEMP B-TREE FOR LAST TERM OF ORDER BY']);
    }
  });

  it('schema 5 backfills the flags key, the capture time and the aborted flag of stored judgments with the same values a save writes', async () => {
    const path = join(tempDir(), 'captures.db');
    // A schema-4 file, written with the code of the time (captures through the capture log, judgments as schema 4 stored them).
    const { db } = openSqlite({ path, kind: 'capture-store', migrations: CAPTURE_MIGRATIONS.slice(0, 4), configure: registerCaptureFunctions });
    const captures = [
      sampleCapture('old-correct', { capturedAt: at(5) }),
      sampleCapture('old-error', { capturedAt: at(10) }),
      sampleCapture('old-aborted', { capturedAt: at(15), aborted: true }),
      sampleCapture('old-hallucinated', { capturedAt: at(70) }),
      sampleCapture('new-correct', { capturedAt: at(75) }),
    ];
    // The capture rows as schema 4 held them (without chunks: this test is about judgments).
    const insertCapture = db.prepare(`
      INSERT INTO captures (trace_id, request_id, captured_at, captured_ms, route, method, status, latency_ms, query, mode, answer, refused,
        prompt_version, chat_model, retrieval_ms, generation_ms, total_ms, truncated, aborted)
      VALUES (@traceId, @requestId, @capturedAt, @capturedMs, @route, @method, @status, @latencyMs, @query, @mode, @answer, 0, @promptVersion, 'm', 1, 1, 1, 0, @aborted)`);
    for (const capture of captures) insertCapture.run({ ...capture, capturedMs: Date.parse(capture.capturedAt), aborted: capture.aborted ? 1 : 0 });
    const old = [judgmentWithOutcome('old-correct', 'correct'), judgmentWithOutcome('old-error', 'judge_error'), judgmentWithOutcome('old-aborted', 'correct'), judgmentWithOutcome('old-hallucinated', 'hallucinated')];
    const insert = db.prepare(`
      INSERT INTO judgments (capture_id, judge_version, status, faithful, hallucinated, refused, judged_at, record)
      VALUES ((SELECT id FROM captures WHERE trace_id = @traceId), @judgeVersion, @status, @faithful, @hallucinated, @refused, @judgedAt, @record)`);
    for (const judgment of old) {
      const { flagsKey: _flagsKey, ...columns } = judgmentColumns(judgment);
      insert.run({ traceId: judgment.traceId, ...columns, record: judgmentRecord(judgment) });
    }
    expect(db.pragma('user_version', { simple: true })).toBe(4);
    db.close();

    const store = newStore(path);
    expect(store.db.pragma('user_version', { simple: true })).toBe(CAPTURE_SCHEMA_VERSION);
    await store.saveJudgment(judgmentWithOutcome('new-correct', 'correct'));
    const columns = store.db.prepare(`SELECT c.trace_id AS traceId, j.captured_ms AS capturedMs, j.capture_aborted AS aborted, j.flags_key AS flagsKey FROM judgments j JOIN captures c ON c.id = j.capture_id ORDER BY j.id`).all();
    const correctKey = renderFlagsKey(judgmentWithOutcome('x', 'correct').flags);
    expect(columns).toEqual([
      { traceId: 'old-correct', capturedMs: Date.parse(at(5)), aborted: 0, flagsKey: correctKey },
      { traceId: 'old-error', capturedMs: Date.parse(at(10)), aborted: 0, flagsKey: null },
      { traceId: 'old-aborted', capturedMs: Date.parse(at(15)), aborted: 1, flagsKey: correctKey },
      { traceId: 'old-hallucinated', capturedMs: Date.parse(at(70)), aborted: 0, flagsKey: renderFlagsKey(judgmentWithOutcome('x', 'hallucinated').flags) },
      { traceId: 'new-correct', capturedMs: Date.parse(at(75)), aborted: 0, flagsKey: correctKey },
    ]);
    expect(store.db.prepare(`SELECT flags_key FROM judgment_flag_keys WHERE judge_version = ? ORDER BY flags_key`).pluck().all(version)).toEqual([correctKey, renderFlagsKey(judgmentWithOutcome('x', 'hallucinated').flags)].sort());
    const [first, second] = await store.outcomeCounts({ judgeVersion: version, from: T0, to: T0 + 7_200_000, bucket: 'hour' });
    expect([first!.outcomes.correct, first!.outcomes.judge_error, first!.aborted, second!.outcomes.correct, second!.outcomes.hallucinated]).toEqual([1, 1, 1, 1, 1]);
    expect((await store.listCaptures({ judgeVersion: version, filter: { outcome: 'correct' } })).map((row) => row.capture.traceId)).toEqual(['new-correct', 'old-correct']);
    expect(store.db.pragma('integrity_check', { simple: true })).toBe('ok');
  });
});
