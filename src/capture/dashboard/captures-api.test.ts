import { join } from 'node:path';
import express from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { outcomeNames } from '../../contract/outcome.js';
import { judgmentWithOutcome, sampleCapture } from '../../test-support/capture-samples.js';
import { onCleanup, tempDir } from '../../test-support/fixtures.js';
import type { CapturedChunk } from '../types.js';
import { groundcheckErrorHandler } from '../errors.js';
import { openCaptureStore } from '../store.js';
import { groundcheckDashboard } from './dashboard.js';
import type { GroundcheckDashboardOptions } from './options.js';

const T0 = Date.parse('2026-03-01T10:00:00.000Z');
const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();
const version = 'heuristic:heuristic:h1';

function newStore() {
  const store = openCaptureStore({ path: join(tempDir(), 'captures.db'), backgroundCheckpoints: false });
  onCleanup(() => void store.close());
  return store;
}

function appWith(options: Partial<GroundcheckDashboardOptions> & Pick<GroundcheckDashboardOptions, 'store'>) {
  const app = express();
  app.use('/groundcheck', groundcheckDashboard({ token: null, env: {}, evalResults: false, ...options }));
  app.use(groundcheckErrorHandler());
  return app;
}

type Row = { traceId: string; verdict: string };
const ids = (body: { captures: Row[] }) => body.captures.map((row) => row.traceId);

describe('GET <mount>/api/captures: every capture, paged and filtered by the store', () => {
  it('paging over more than 500 captures returns every capture exactly once, filtered or not; the last page has no next cursor', async () => {
    const store = newStore();
    const captures = Array.from({ length: 1100 }, (_, index) => sampleCapture(`t${index}`, { capturedAt: at(index % 240), refused: index % 4 === 0 }));
    for (let start = 0; start < captures.length; start += 250) await store.writeCaptures(captures.slice(start, start + 250));
    const app = appWith({ store, judgeVersion: version });
    const pages = async (query: string, limit = 200) => {
      const seen: string[][] = [];
      let cursor: string | null = null;
      do {
        const response = await request(app).get(`/groundcheck/api/captures?limit=${limit}&${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        expect(response.status).toBe(200);
        seen.push(ids(response.body));
        cursor = response.body.nextCursor;
      } while (cursor !== null && seen.length < 20);
      return seen;
    };
    const all = await pages('');
    expect(all.map((page) => page.length)).toEqual([200, 200, 200, 200, 200, 100]);
    expect(new Set(all.flat()).size).toBe(1100);
    const refusals = (await pages('filter=refusals')).flat();
    expect([...refusals].sort()).toEqual(captures.filter((capture) => capture.refused).map((capture) => capture.traceId).sort());
    expect(new Set(refusals).size).toBe(275);
    // Filtered by time too; and when the last page is full, no empty page follows it.
    const early = captures.filter((capture) => capture.refused && Date.parse(capture.capturedAt) < Date.parse(at(200))).length;
    expect((await pages(`filter=refusals&from=${T0}&to=${Date.parse(at(200))}`)).map((page) => page.length)).toEqual([200, early - 200]);
    expect((await pages('filter=refusals', 55)).map((page) => page.length)).toEqual([55, 55, 55, 55, 55]);
  });

  describe('each filter', () => {
    async function fixture() {
      const store = newStore();
      const chunk = (chunkId: string, hash: string): CapturedChunk => ({ ...sampleCapture('x').chunks[0]!, chunkId, hash });
      const outcomes = outcomeNames();
      await store.writeCaptures([
        ...outcomes.map((outcome, index) => sampleCapture(`judged-${outcome}`, { capturedAt: at(index), refused: outcome.endsWith('refusal') })),
        sampleCapture('aborted', { capturedAt: at(20), aborted: true }),
        sampleCapture('pending', { capturedAt: at(21), route: '/ask', query: 'Where is the Leeds office?' }),
        sampleCapture('cut', { capturedAt: at(22), truncated: true }),
        sampleCapture('drifted', { capturedAt: at(23), chunks: [chunk('leave#parental', 'old-hash')] }),
      ]);
      for (const outcome of outcomes) await store.saveJudgment(judgmentWithOutcome(`judged-${outcome}`, outcome));
      const index = { chunkHashes: () => new Map([['travel-and-expenses#mileage-rates', 'h1'], ['leave#parental', 'new-hash']]) };
      return { store, app: appWith({ store, judgeVersion: version, index }) };
    }

    it.each([
      ...outcomeNames().map((outcome) => [outcome, [`judged-${outcome}`]] as const),
      ['all', ['drifted', 'cut', 'pending', 'aborted', ...[...outcomeNames()].reverse().map((outcome) => `judged-${outcome}`)]],
      ['aborted', ['aborted']],
      ['pending', ['drifted', 'pending']],
      ['not_judged', ['cut']],
      ['refusals', ['judged-over_refusal', 'judged-correct_refusal']],
      ['drifted', ['drifted']],
    ] as const)('%s', async (filter, expected) => {
      const { app } = await fixture();
      const response = await request(app).get(`/groundcheck/api/captures?filter=${filter}`);
      expect(response.status).toBe(200);
      expect(ids(response.body)).toEqual(expected);
      // The store's filter and the verdict the page shows agree, and so does the filter's count.
      const rows = response.body.captures as (Row & { capture: { refused: boolean }; drift: unknown[] })[];
      if (filter === 'refusals') expect(rows.every((row) => row.capture.refused)).toBe(true);
      else if (filter === 'drifted') expect(rows.every((row) => row.drift.length > 0)).toBe(true);
      else if (filter !== 'all') expect(rows.every((row) => row.verdict === filter)).toBe(true);
      expect(response.body.counts[filter]).toBe(filter === 'drifted' ? null : expected.length);
    });

    it('route, text in the question and a time range narrow any filter; a live judge makes unjudged captures pending, none makes them not judged', async () => {
      const { app, store } = await fixture();
      expect(ids((await request(app).get('/groundcheck/api/captures?route=/ask')).body)).toEqual(['pending']);
      expect(ids((await request(app).get('/groundcheck/api/captures?q=leeds%20OFFICE')).body)).toEqual(['pending']);
      expect(ids((await request(app).get('/groundcheck/api/captures?filter=pending&q=leeds')).body)).toEqual(['pending']);
      expect(ids((await request(app).get(`/groundcheck/api/captures?from=${Date.parse(at(21))}&to=${Date.parse(at(23))}`)).body)).toEqual(['cut', 'pending']);
      const ranged = await request(app).get(`/groundcheck/api/captures?from=${Date.parse(at(0))}&to=${Date.parse(at(5))}`);
      expect(ranged.body.counts).toMatchObject({ all: 5, correct_refusal: 1, judge_error: 1, pending: 0, aborted: 0 });

      const unjudging = appWith({ store, judgeVersion: version, judging: false });
      const listed = await request(unjudging).get('/groundcheck/api/captures?filter=not_judged');
      expect(ids(listed.body)).toEqual(['drifted', 'cut', 'pending']);
      expect([listed.body.counts.not_judged, listed.body.counts.pending]).toEqual([3, 0]);
      expect(ids((await request(unjudging).get('/groundcheck/api/captures?filter=pending')).body)).toEqual([]);
      // Without an index nothing is checked for drift.
      expect(ids((await request(unjudging).get('/groundcheck/api/captures?filter=drifted')).body)).toEqual([]);
    });

    it('without a configured judge, the verdicts and counts are those of the newest judged capture’s judge version', async () => {
      const { store } = await fixture();
      await store.writeCaptures([sampleCapture('judged-by-v2', { capturedAt: at(30) })]);
      await store.saveJudgment(judgmentWithOutcome('judged-by-v2', 'hallucinated', { judgeVersion: 'llm:openai:gpt-4o-mini:v2' }));
      const app = appWith({ store });
      const listed = await request(app).get('/groundcheck/api/captures');
      expect(listed.body.judgeVersion).toBe('llm:openai:gpt-4o-mini:v2');
      expect(listed.body.counts).toMatchObject({ hallucinated: 1, correct: 0, not_judged: 12 });
      expect((await request(app).get('/groundcheck/api/captures?judgeVersion=heuristic:heuristic:h1')).body.counts).toMatchObject({ hallucinated: 1, correct: 1, not_judged: 4 });
    });
  });

  it.each([
    ['filter=everything', /filter must be one of all, judge_error/],
    ['limit=0', /query parameter limit is invalid: use a whole number from 1 to 200/],
    ['limit=201', /limit is invalid/],
    ['limit=ten', /limit is invalid/],
    ['from=20&to=10', /query parameter to is invalid: it must be after from/],
    ['from=-1', /from is invalid/],
    ['cursor=not-a-cursor', /query parameter cursor is invalid: use the nextCursor of a previous page/],
    ['q=' + 'x'.repeat(501), /query parameter q is invalid: at most 500 characters/],
    ['route=a&route=b', /query parameter route is invalid: give it once/],
  ])('?%s is a 400 request.invalid naming the parameter', async (query, message) => {
    const app = appWith({ store: newStore(), judgeVersion: version });
    const response = await request(app).get(`/groundcheck/api/captures?${query}`);
    expect([response.status, response.body.error.type]).toEqual([400, 'request.invalid']);
    expect(response.body.error.message).toMatch(message);
  });
});
