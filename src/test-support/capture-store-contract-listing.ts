import { describe, expect, it } from 'vitest';
import type { CaptureFilter, CaptureStore, ListCapturesOptions } from '../capture/capture-store.js';
import type { Capture, CapturedChunk, StoredJudgment } from '../capture/types.js';
import { OUTCOME_TABLE, outcomeNames, type JudgmentOutcome } from '../contract/outcome.js';
import { judgmentFor, judgmentWithOutcome, sampleCapture } from './capture-samples.js';

/**
 * The listing part of the capture store contract (run by `describeCaptureStoreContract`): newest
 * first, cursor paging, every filter of `CaptureFilter`, and the live outcome counts. `newStore`
 * returns a new, empty store that the caller closes.
 */
export function describeListingContract(newStore: () => Promise<CaptureStore>): void {
  const T0 = Date.parse('2026-03-01T10:00:00.000Z');
  const at = (seconds: number) => new Date(T0 + seconds * 1000).toISOString();
  const version = 'heuristic:heuristic:h1';
  const otherVersion = 'llm:openai:gpt-4o-mini:v2';
  const chunk = (chunkId: string, hash: string): CapturedChunk => ({ ...sampleCapture('x').chunks[0]!, chunkId, hash });

  /** Every page of a list, following cursors. */
  async function everyPage(store: CaptureStore, options: ListCapturesOptions): Promise<string[][]> {
    const pages: string[][] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 100; page++) {
      const rows = await store.listCaptures({ ...options, ...(cursor !== undefined ? { cursor } : {}) });
      if (rows.length === 0) return pages;
      pages.push(rows.map((row) => row.capture.traceId));
      cursor = rows.at(-1)!.cursor;
    }
    throw new Error('everyPage: more than 100 pages');
  }

  describe('listing', () => {
    it('lists newest first by capture time, then by when stored, and pages with cursors without gaps or repeats', async () => {
      const store = await newStore();
      // Written out of time order, with ties: the list follows the capture time, ties newest-stored first.
      const seconds = [5, 1, 9, 1, 3, 9, 0, 7, 1, 2, 8, 6, 4, 9, 5, 3, 0, 2, 7, 6, 8, 4, 1];
      const written = seconds.map((second, index) => sampleCapture(`t${String(index).padStart(2, '0')}`, { capturedAt: at(second) }));
      for (const capture of written) await store.writeCaptures([capture]);
      const expected = written
        .map((capture, index) => ({ traceId: capture.traceId, second: seconds[index]!, index }))
        .sort((a, b) => b.second - a.second || b.index - a.index)
        .map((entry) => entry.traceId);
      const pages = await everyPage(store, { limit: 5 });
      expect(pages.map((page) => page.length)).toEqual([5, 5, 5, 5, 3]);
      expect(pages.flat()).toEqual(expected);
      expect((await store.listCaptures()).map((row) => row.capture.traceId)).toEqual(expected);
      expect((await store.listCaptures({ limit: 2 }))[0]).toEqual({ cursor: expect.any(String), capture: written[13], judgment: null });
    });

    it('paging over more than 500 captures returns every capture exactly once, filtered or not', async () => {
      const store = await newStore();
      // 1,234 captures over 7 capture times (many ties), in batches as the middleware writes them.
      const captures = Array.from({ length: 1234 }, (_, index) => sampleCapture(`t${index}`, { capturedAt: at((index * 5) % 7), refused: index % 3 === 0 }));
      for (let start = 0; start < captures.length; start += 100) await store.writeCaptures(captures.slice(start, start + 100));
      const pages = await everyPage(store, { limit: 500 });
      expect(pages.map((page) => page.length)).toEqual([500, 500, 234]);
      const seen = pages.flat();
      expect(new Set(seen).size).toBe(1234);
      expect([...seen].sort()).toEqual(captures.map((capture) => capture.traceId).sort());
      const refusals = (await everyPage(store, { limit: 500, filter: { refused: true } })).flat();
      expect([...refusals].sort()).toEqual(captures.filter((capture) => capture.refused).map((capture) => capture.traceId).sort());
      expect(new Set(refusals).size).toBe(refusals.length);
    });

    it('shows each capture with its newest judgment, or that of the judge version asked for', async () => {
      const store = await newStore();
      await store.writeCaptures([sampleCapture('one'), sampleCapture('two'), sampleCapture('three')]);
      const first = judgmentFor('one');
      const second = judgmentFor('one', { judgeVersion: otherVersion, judge: { kind: 'llm', model: 'openai:gpt-4o-mini', promptVersion: 'v2' } });
      await store.saveJudgment(first);
      await store.saveJudgment(second);
      await store.saveJudgment(judgmentFor('two'));
      const judgmentOf = (rows: { capture: Capture; judgment: StoredJudgment | null }[]) => Object.fromEntries(rows.map((row) => [row.capture.traceId, row.judgment]));
      expect(judgmentOf(await store.listCaptures())).toEqual({ one: second, two: judgmentFor('two'), three: null });
      expect(judgmentOf(await store.listCaptures({ judgeVersion: version }))).toEqual({ one: first, two: judgmentFor('two'), three: null });
      expect(judgmentOf(await store.listCaptures({ judgeVersion: 'never-ran' }))).toEqual({ one: null, two: null, three: null });
    });

    it('caps a page at 500 and floors it at 1; a cursor it did not give is an input error', async () => {
      const store = await newStore();
      await store.writeCaptures(Array.from({ length: 501 }, (_, index) => sampleCapture(`t${index}`)));
      expect(await store.listCaptures({ limit: 10_000 })).toHaveLength(500);
      expect(await store.listCaptures({ limit: 0 })).toHaveLength(1);
      for (const cursor of ['', 'not-a-cursor', '12', 'x.y']) {
        await expect(store.listCaptures({ cursor }), cursor).rejects.toMatchObject({ code: 'invalid_cursor' });
      }
    });
  });

  describe('listing filters', () => {
    /** Newest first: captures of every outcome (judged by `version`), then every capture state. */
    async function filterFixture(): Promise<CaptureStore> {
      const store = await newStore();
      const outcomes = outcomeNames();
      const judged = outcomes.map((outcome, index) =>
        sampleCapture(`judged-${outcome}`, { capturedAt: at(index * 60), query: `A question judged ${outcome.replace(/_/g, ' ')}`, refused: outcome === 'correct_refusal' || outcome === 'over_refusal' }),
      );
      await store.writeCaptures([
        ...judged,
        sampleCapture('aborted-judged', { capturedAt: at(540), aborted: true }),
        sampleCapture('aborted', { capturedAt: at(600), aborted: true }),
        sampleCapture('pending', { capturedAt: at(660), route: '/ask', query: 'Is the 100% bonus_rate paid in MARCH?' }),
        sampleCapture('cut', { capturedAt: at(720), truncated: true }),
        sampleCapture('other-version', { capturedAt: at(780) }),
        sampleCapture('drifted', { capturedAt: at(840), chunks: [chunk('travel-and-expenses#mileage-rates', 'h1'), chunk('leave#parental', 'old-hash')] }),
        sampleCapture('vanished', { capturedAt: at(900), chunks: [chunk('gone#x', 'hash-of-gone')] }),
        sampleCapture('gated', { capturedAt: at(960), chunks: [], refused: true, refusalReason: 'gate' }),
      ]);
      for (const outcome of outcomes) await store.saveJudgment(judgmentWithOutcome(`judged-${outcome}`, outcome));
      await store.saveJudgment(judgmentWithOutcome('aborted-judged', 'correct'));
      await store.saveJudgment(judgmentWithOutcome('other-version', 'hallucinated', { judgeVersion: otherVersion }));
      return store;
    }
    const judgedNewestFirst = [...outcomeNames()].reverse().map((outcome) => `judged-${outcome}`);
    const all = ['gated', 'vanished', 'drifted', 'other-version', 'cut', 'pending', 'aborted', 'aborted-judged', ...judgedNewestFirst];
    const ms = (seconds: number) => T0 + seconds * 1000;
    const current = new Map([
      ['travel-and-expenses#mileage-rates', 'h1'],
      ['leave#parental', 'new-hash'],
    ]);

    const cases: [string, CaptureFilter, string[]][] = [
      ['no filter', {}, all],
      ['aborted', { aborted: true }, ['aborted', 'aborted-judged']],
      ['not aborted', { aborted: false }, all.filter((traceId) => !traceId.startsWith('aborted'))],
      ['judged', { judged: true }, ['aborted-judged', ...judgedNewestFirst]],
      ['not judged', { judged: false }, ['gated', 'vanished', 'drifted', 'other-version', 'cut', 'pending', 'aborted']],
      ['pending (not judged, not aborted, not truncated)', { judged: false, aborted: false, truncated: false }, ['gated', 'vanished', 'drifted', 'other-version', 'pending']],
      ['not judged and truncated', { judged: false, aborted: false, truncated: true }, ['cut']],
      ['refused', { refused: true }, ['gated', 'judged-over_refusal', 'judged-correct_refusal']],
      ['answered', { refused: false }, all.filter((traceId) => !['gated', 'judged-over_refusal', 'judged-correct_refusal'].includes(traceId))],
      ['route', { route: '/ask' }, ['pending']],
      ['time range (from inclusive, to exclusive)', { from: ms(600), to: ms(780) }, ['cut', 'pending', 'aborted']],
      ['text, any case', { text: 'bonus_RATE paid in march' }, ['pending']],
      ['text: % and _ are plain characters', { text: '%' }, ['pending']],
      ['text: underscore', { text: '_' }, ['pending']],
      ['text: nothing matches', { text: 'parental leave in 1999' }, []],
      ['drifted: a changed chunk, or one gone', { driftedFrom: current }, ['vanished', 'drifted']],
      ['drifted: nothing changed', { driftedFrom: new Map([...current, ['leave#parental', 'old-hash'], ['gone#x', 'hash-of-gone']]) }, []],
      ['an outcome, with another filter', { refused: true, outcome: 'over_refusal' }, ['judged-over_refusal']],
      ['judged, in a time range', { judged: true, from: ms(0), to: ms(300) }, ['judged-hallucinated', 'judged-should_have_refused', 'judged-over_refusal', 'judged-correct_refusal', 'judged-judge_error']],
      // An aborted capture's verdict is aborted whatever its judgment: never listed under an outcome.
      ['correct (the aborted capture judged correct is not)', { outcome: 'correct' }, ['judged-correct']],
      ...outcomeNames().map((outcome): [string, CaptureFilter, string[]] => [`outcome ${outcome}`, { outcome }, [`judged-${outcome}`]]),
    ];

    it.each(cases)('%s, judgments of one judge version', async (_name, filter, expected) => {
      const store = await filterFixture();
      expect((await everyPage(store, { judgeVersion: version, filter, limit: 3 })).flat()).toEqual(expected);
    });

    it.each([
      ['the newest judgment of any version decides the outcome', { outcome: 'hallucinated' as JudgmentOutcome }, ['other-version', 'judged-hallucinated']],
      ['a judgment of any version counts as judged', { judged: false }, ['gated', 'vanished', 'drifted', 'cut', 'pending', 'aborted']],
      ['an outcome no judgment has', { outcome: 'correct' as JudgmentOutcome, route: '/ask' }, []],
    ])('without a judge version: %s', async (_name, filter, expected) => {
      const store = await filterFixture();
      expect((await everyPage(store, { filter, limit: 4 })).flat()).toEqual(expected);
    });

    it('the outcome filter follows the outcome table as it is when the list is read', async () => {
      const store = await filterFixture();
      const row = OUTCOME_TABLE.find((candidate) => candidate.outcome === 'incomplete')!;
      const original = row.applies;
      row.applies = () => false;
      try {
        // Faithful but partial, with the incomplete row gone, falls through to undetermined.
        expect((await store.listCaptures({ judgeVersion: version, filter: { outcome: 'undetermined' } })).map((listed) => listed.capture.traceId)).toEqual(['judged-undetermined', 'judged-incomplete']);
        expect(await store.listCaptures({ judgeVersion: version, filter: { outcome: 'incomplete' } })).toEqual([]);
      } finally {
        row.applies = original;
      }
    });
  });

  describe('outcome counts', () => {
    const H = 3_600_000;
    const zeros = () => Object.fromEntries(outcomeNames().map((outcome) => [outcome, 0])) as Record<JudgmentOutcome, number>;
    const bucket = (start: number, counts: Partial<{ captures: number; aborted: number; refused: number; unjudged: number; unjudgedTruncated: number }> = {}, outcomes: Partial<Record<JudgmentOutcome, number>> = {}) => ({
      start,
      captures: 0,
      aborted: 0,
      refused: 0,
      unjudged: 0,
      unjudgedTruncated: 0,
      ...counts,
      outcomes: { ...zeros(), ...outcomes },
    });
    /** Two hours of captures (10:00 and 11:00 UTC), one before them and one after. */
    async function countsFixture(): Promise<CaptureStore> {
      const store = await newStore();
      const minute = (value: number) => at(value * 60);
      await store.writeCaptures([
        sampleCapture('before', { capturedAt: at(-1) }),
        sampleCapture('c1', { capturedAt: minute(5) }),
        sampleCapture('c2', { capturedAt: minute(20) }),
        sampleCapture('c3', { capturedAt: minute(40) }),
        sampleCapture('c4', { capturedAt: minute(50), aborted: true }),
        sampleCapture('c5', { capturedAt: minute(55), refused: true }),
        sampleCapture('c6', { capturedAt: minute(70) }),
        sampleCapture('c7', { capturedAt: minute(80) }),
        sampleCapture('c8', { capturedAt: minute(100), truncated: true }),
        sampleCapture('c9', { capturedAt: minute(105) }),
        sampleCapture('c10', { capturedAt: minute(110), truncated: true }),
        sampleCapture('after', { capturedAt: minute(180) }),
      ]);
      const judge = (traceId: string, outcome: JudgmentOutcome, overrides: Partial<StoredJudgment> = {}) => store.saveJudgment(judgmentWithOutcome(traceId, outcome, overrides));
      await judge('before', 'correct');
      await judge('c1', 'correct');
      await judge('c2', 'hallucinated');
      await judge('c3', 'judge_error');
      await judge('c4', 'correct'); // aborted: never counted as an outcome
      await judge('c5', 'correct_refusal');
      await judge('c6', 'correct');
      await judge('c9', 'correct', { judgeVersion: otherVersion }); // unjudged for `version`
      await judge('c10', 'correct'); // truncated, but judged
      await judge('after', 'correct');
      return store;
    }

    it('counts captures and judgments of one judge version per hour; every bucket is listed, empty ones too', async () => {
      const store = await countsFixture();
      expect(await store.outcomeCounts({ judgeVersion: version, from: T0, to: T0 + 3 * H, bucket: 'hour' })).toEqual([
        bucket(T0, { captures: 5, aborted: 1, refused: 1 }, { correct: 1, hallucinated: 1, judge_error: 1, correct_refusal: 1 }),
        bucket(T0 + H, { captures: 5, unjudged: 3, unjudgedTruncated: 1 }, { correct: 2 }),
        bucket(T0 + 2 * H),
      ]);
      expect(await store.outcomeCounts({ judgeVersion: otherVersion, from: T0, to: T0 + 2 * H, bucket: 'hour' })).toEqual([
        bucket(T0, { captures: 5, aborted: 1, refused: 1, unjudged: 4 }),
        bucket(T0 + H, { captures: 5, unjudged: 4, unjudgedTruncated: 2 }, { correct: 1 }),
      ]);
    });

    it('buckets start at `from`; without a bucket the whole range is one; a day bucket is cut short by `to`', async () => {
      const store = await countsFixture();
      const half = T0 + H / 2;
      expect(await store.outcomeCounts({ judgeVersion: version, from: half, to: half + 2 * H, bucket: 'hour' })).toEqual([
        bucket(half, { captures: 5, aborted: 1, refused: 1, unjudged: 1 }, { judge_error: 1, correct_refusal: 1, correct: 1 }),
        bucket(half + H, { captures: 3, unjudged: 2, unjudgedTruncated: 1 }, { correct: 1 }),
      ]);
      const whole = bucket(T0, { captures: 10, aborted: 1, refused: 1, unjudged: 3, unjudgedTruncated: 1 }, { correct: 3, hallucinated: 1, judge_error: 1, correct_refusal: 1 });
      expect(await store.outcomeCounts({ judgeVersion: version, from: T0, to: T0 + 3 * H })).toEqual([whole]);
      expect(await store.outcomeCounts({ judgeVersion: version, from: T0, to: T0 + 3 * H, bucket: 'day' })).toEqual([whole]);
      expect(await store.outcomeCounts({ judgeVersion: 'never-ran', from: T0, to: T0 + 3 * H })).toEqual([bucket(T0, { captures: 10, aborted: 1, refused: 1, unjudged: 9, unjudgedTruncated: 2 })]);
    });

    it('outcomes follow the outcome table as it is when the counts are read', async () => {
      const store = await countsFixture();
      const row = OUTCOME_TABLE.find((candidate) => candidate.outcome === 'correct')!;
      const original = row.applies;
      row.applies = () => false;
      try {
        const [counted] = await store.outcomeCounts({ judgeVersion: version, from: T0, to: T0 + 3 * H });
        expect(counted!.outcomes).toEqual({ ...zeros(), undetermined: 3, hallucinated: 1, judge_error: 1, correct_refusal: 1 });
      } finally {
        row.applies = original;
      }
    });

    it.each([
      [{ from: T0, to: T0 }, /to .* must be after from/],
      [{ from: T0 + 1, to: T0 }, /must be after from/],
      [{ from: 0.5, to: T0 }, /whole milliseconds/],
      [{ from: Number.NaN, to: T0 }, /whole milliseconds/],
      [{ from: 0, to: 1001 * H, bucket: 'hour' as const }, /1001 buckets of a hour; at most 1000/],
      [{ from: 0, to: H, bucket: 'week' as 'day' }, /bucket must be one of hour, day/],
      [{ from: 0, to: H, judgeVersion: '' }, /judgeVersion/],
    ])('rejects %j with invalid_range', async (range, message) => {
      const store = await newStore();
      await expect(store.outcomeCounts({ judgeVersion: version, ...range })).rejects.toMatchObject({ code: 'invalid_range', message: expect.stringMatching(message) });
    });
  });
}
