import { readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import express from 'express';
import { chromium } from 'playwright-core';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { judgeVersionOf, type JudgeInfo } from '../../contract/judgment.js';
import { flagsOf, outcomeNames, outcomeOf, type JudgmentOutcome } from '../../contract/outcome.js';
import { runEval } from '../../eval/runner.js';
import type { EvalResults } from '../../eval/types.js';
import { writeReports } from '../../eval/write-reports.js';
import { createHeuristicFaithfulnessJudge } from '../../judge/index.js';
import { createLocalEmbedder } from '../../providers/local/embedder.js';
import { createLocalChatModel } from '../../providers/local/generator.js';
import { judgmentWithOutcome, sampleCapture } from '../../test-support/capture-samples.js';
import { CHROMIUM, CHROMIUM_ARGS, hasChromium, warnWithoutChromium } from '../../test-support/chromium.js';
import { CORPUS_DIR, onCleanup, tempDir } from '../../test-support/fixtures.js';
import { groundcheckErrorHandler } from '../errors.js';
import { openCaptureStore } from '../store.js';
import { groundcheckDashboard } from './dashboard.js';
import type { GroundcheckDashboardOptions } from './options.js';

warnWithoutChromium('dashboard live-vs-offline browser check');

const SMOKE_SUITE = join(CORPUS_DIR, '..', '..', 'evals/suites/smoke.json');
const HOUR = 3_600_000;
/** The page's clock: its "last 24 hours" run to 14:00 UTC. */
const NOW = Date.parse('2026-03-01T13:20:00.000Z');
const RANGE = { from: Date.parse('2026-03-01T14:00:00.000Z') - 24 * HOUR, to: Date.parse('2026-03-01T14:00:00.000Z') };
const judge = createHeuristicFaithfulnessJudge();
const version = judgeVersionOf(judge.info);

/** What a page shows for a share (the test's own copy of the rule). */
const percent = (count: number, of: number) => (of === 0 ? '—' : `${((count / of) * 100).toFixed(1)}%`);

/**
 * Live traffic over three hours (10:00 to 13:00 UTC) with judgments of known outcomes by the live
 * judge, every capture state, a judgment of another judge version and captures outside the range;
 * then a real offline eval with the same judge, and results files that must not be picked.
 */
async function fixture() {
  const dir = tempDir();
  const path = join(dir, 'captures.db');
  const store = openCaptureStore({ path, backgroundCheckpoints: false });
  onCleanup(() => void store.close());
  const names = outcomeNames();
  const plan: { traceId: string; at: number; outcome: JudgmentOutcome | null; aborted?: boolean; truncated?: boolean; otherJudge?: boolean }[] = [];
  for (let hour = 0; hour < 4; hour++) {
    const start = Date.parse('2026-03-01T10:00:00.000Z') + hour * HOUR;
    const count = hour === 3 ? 4 : 14 + hour * 5;
    for (let index = 0; index < count; index++) {
      // Mostly correct, with each outcome in some hours and not in others.
      const outcome = index % 3 === 0 ? names[(index + hour * 2) % names.length]! : 'correct';
      plan.push({ traceId: `h${hour}-${index}`, at: start + index * 60_000, outcome });
    }
    plan.push({ traceId: `h${hour}-aborted`, at: start + 50 * 60_000, outcome: 'correct', aborted: true });
    plan.push({ traceId: `h${hour}-pending`, at: start + 51 * 60_000, outcome: null });
    plan.push({ traceId: `h${hour}-cut`, at: start + 52 * 60_000, outcome: null, truncated: true });
    plan.push({ traceId: `h${hour}-other-judge`, at: start + 53 * 60_000, outcome: 'hallucinated', otherJudge: true });
  }
  plan.push({ traceId: 'yesterday', at: RANGE.from - 60_000, outcome: 'hallucinated' });
  await store.writeCaptures(plan.map((entry) => sampleCapture(entry.traceId, { capturedAt: new Date(entry.at).toISOString(), aborted: entry.aborted ?? false, truncated: entry.truncated ?? false })));
  const otherJudge: JudgeInfo = { kind: 'llm', model: 'openai:gpt-4o-mini', promptVersion: 'faithfulness-v3' };
  for (const entry of plan) {
    if (entry.outcome === null) continue;
    const by = entry.otherJudge ? otherJudge : judge.info;
    await store.saveJudgment(judgmentWithOutcome(entry.traceId, entry.outcome, { judgeVersion: judgeVersionOf(by), judge: by }));
  }

  const resultsDir = join(dir, 'results');
  const results = await runEval({ suite: SMOKE_SUITE, generator: createLocalChatModel(), embedder: createLocalEmbedder(), indexPath: join(dir, 'index.db'), cwd: dir, judge: 'heuristic' });
  expect(judgeVersionOf(results.versions.faithfulnessJudge)).toBe(version);
  const latest = writeReports(results, resultsDir).json;
  // An older run of the same judge, a newer run of another judge, and a JSON file that is no results file.
  writeReports({ ...results, startedAt: '2026-01-01T00:00:00.000Z', suite: { ...results.suite, name: 'older' } }, resultsDir);
  writeReports({ ...results, startedAt: '2027-01-01T00:00:00.000Z', suite: { ...results.suite, name: 'other-judge' }, versions: { ...results.versions, faithfulnessJudge: otherJudge } }, resultsDir);
  writeFileSync(join(resultsDir, 'notes.json'), '{"not": "results"}\n');
  return { store, path, resultsDir, latest };
}

/** Counts straight from the file: every capture row, its judgment's record parsed and classified, per hour of the range. */
function countsFromTheFile(path: string) {
  const db = new Database(path, { readonly: true });
  onCleanup(() => db.close());
  const rows = db
    .prepare(`SELECT c.captured_ms AS ms, c.aborted, c.truncated, j.status, j.record FROM captures c LEFT JOIN judgments j ON j.capture_id = c.id AND j.judge_version = ?`)
    .all(version) as { ms: number; aborted: number; truncated: number; status: string | null; record: string | null }[];
  const empty = (start: number) => ({ start, captures: 0, judged: 0, pending: 0, notJudged: 0, aborted: 0, counts: Object.fromEntries(outcomeNames().map((outcome) => [outcome, 0])) as Record<JudgmentOutcome, number> });
  const buckets = Array.from({ length: 24 }, (_, index) => empty(RANGE.from + index * HOUR));
  const total = empty(RANGE.from);
  for (const row of rows) {
    if (row.ms < RANGE.from || row.ms >= RANGE.to) continue;
    for (const bucket of [buckets[Math.floor((row.ms - RANGE.from) / HOUR)]!, total]) {
      bucket.captures += 1;
      if (row.aborted === 1) bucket.aborted += 1;
      else if (row.record === null) row.truncated === 1 ? (bucket.notJudged += 1) : (bucket.pending += 1);
      else {
        bucket.judged += 1;
        bucket.counts[outcomeOf(row.status === 'ok' ? (JSON.parse(row.record) as { flags: never }).flags : null)] += 1;
      }
    }
  }
  return { buckets, total };
}

/** The offline outcomes straight from the results file: each question's RAG-on judgment, classified. */
function countsFromTheResults(file: string) {
  const results = JSON.parse(readFileSync(file, 'utf8')) as EvalResults;
  const counts = Object.fromEntries(outcomeNames().map((outcome) => [outcome, 0])) as Record<JudgmentOutcome, number>;
  let judged = 0;
  for (const question of results.runs.flatMap((run) => run.questions)) {
    if (question.rag === null) continue;
    counts[outcomeOf(flagsOf(question.rag.judgment))] += 1;
    judged += 1;
  }
  // The eval's own summary classified them the same way.
  expect(counts).toEqual(results.runs[0]!.faithfulness.rag.outcomes);
  return { counts, judged, suite: results.suite.name };
}

function dashboardApp(options: Partial<GroundcheckDashboardOptions> & Pick<GroundcheckDashboardOptions, 'store'>) {
  const app = express();
  app.use('/groundcheck', groundcheckDashboard({ token: null, env: {}, judge, judgeVersion: version, now: () => NOW, ...options }));
  app.use(groundcheckErrorHandler());
  return app;
}

describe('the dashboard: live beside offline', () => {
  it('the API’s and the page’s live and offline numbers equal counts computed straight from the store and the results file', async () => {
    const { store, path, resultsDir, latest } = await fixture();
    const app = dashboardApp({ store, evalResults: resultsDir });
    const direct = countsFromTheFile(path);
    const offline = countsFromTheResults(latest);
    // The fixture is what it says: judgments in most hours, every state, and a real offline run.
    expect(direct.total.judged).toBeGreaterThan(60);
    expect([direct.total.aborted, direct.total.pending, direct.total.notJudged]).toEqual([4, 8, 4]);
    expect(offline.judged).toBe(8);

    const rates = await request(app).get(`/groundcheck/api/rates?from=${RANGE.from}&to=${RANGE.to}`);
    expect(rates.status).toBe(200);
    expect(rates.body.range).toEqual({ ...RANGE, bucket: 'hour' });
    const asView = (bucket: ReturnType<typeof countsFromTheFile>['total']) => ({
      start: bucket.start,
      captures: bucket.captures,
      judged: bucket.judged,
      pending: bucket.pending,
      notJudged: bucket.notJudged,
      aborted: bucket.aborted,
      outcomes: Object.fromEntries(outcomeNames().map((outcome) => [outcome, { count: bucket.counts[outcome], rate: bucket.judged === 0 ? null : bucket.counts[outcome] / bucket.judged }])),
    });
    expect(rates.body.buckets).toEqual(direct.buckets.map(asView));
    expect(rates.body.live).toEqual(asView(direct.total));
    expect(rates.body.offline).toMatchObject({
      file: latest,
      suite: 'smoke',
      judgeVersion: version,
      judged: offline.judged,
      outcomes: Object.fromEntries(outcomeNames().map((outcome) => [outcome, { count: offline.counts[outcome], rate: offline.counts[outcome] / offline.judged }])),
    });
    expect(rates.body.missingOffline).toBeNull();
    expect(rates.body.comparison).toContain(`The same judge (${version}) grades both sides`);
    expect(rates.body.outcomes.map((row: { outcome: string }) => row.outcome)).toEqual(outcomeNames());

    // The capture list's filter counts over the range are the same numbers.
    const listed = await request(app).get(`/groundcheck/api/captures?from=${RANGE.from}&to=${RANGE.to}`);
    expect(listed.body.counts).toEqual({
      all: direct.total.captures,
      ...direct.total.counts,
      aborted: direct.total.aborted,
      pending: direct.total.pending,
      not_judged: direct.total.notJudged,
      refusals: 0,
      drifted: null,
    });

    if (!hasChromium) return;
    const server = app.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => server.once('listening', resolve));
    onCleanup(() => {
      server.closeAllConnections();
      server.close();
    });
    const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
    try {
      const context = await browser.newContext({ timezoneId: 'UTC', locale: 'en-GB' });
      const page = await context.newPage();
      const consoleErrors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') consoleErrors.push(message.text());
      });
      await page.clock.setFixedTime(new Date(NOW));
      await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/groundcheck`);
      await expect.poll(() => page.locator('#rates-summary .live-judged').textContent()).toBe(String(direct.total.judged));
      const shown = await page.locator('#rates-summary tbody tr').evaluateAll((rows) =>
        rows.map((row) => [row.getAttribute('data-outcome'), ...['.live-rate', '.live-count', '.offline-rate', '.offline-count'].map((cell) => row.querySelector(cell)!.textContent)]),
      );
      expect(shown).toEqual(
        outcomeNames().map((outcome) => [
          outcome,
          percent(direct.total.counts[outcome], direct.total.judged),
          String(direct.total.counts[outcome]),
          percent(offline.counts[outcome], offline.judged),
          String(offline.counts[outcome]),
        ]),
      );
      expect(await page.locator('#rates-summary .offline-judged').textContent()).toBe(String(offline.judged));
      expect(await page.locator('#rates-comparison').textContent()).toContain(`The same judge (${version}) grades both sides with the same outcome table`);
      expect(await page.locator('#rates-offline').textContent()).toContain(`Offline: smoke`);
      expect(await page.locator('#offline-missing').isHidden()).toBe(true);
      // Over time: one row per hour of the range, each with the hour's judged count and rates.
      const hours = await page.locator('#rates-over-time tbody tr').evaluateAll((rows) =>
        rows.map((row) => [Number(row.getAttribute('data-start')), row.querySelector('.bucket-judged')!.textContent, ...[...row.querySelectorAll('.bucket-rate')].map((cell) => cell.textContent)]),
      );
      expect(hours).toEqual(direct.buckets.map((bucket) => [bucket.start, String(bucket.judged), ...outcomeNames().map((outcome) => percent(bucket.counts[outcome], bucket.judged))]));
      // A filter of the list, over all of the range's captures.
      await page.locator('.filters button[data-filter="hallucinated"]').click();
      await expect.poll(() => page.locator('details.capture').count()).toBe(direct.total.counts.hallucinated);
      expect(new Set(await page.locator('details.capture').evaluateAll((cards) => cards.map((card) => card.getAttribute('data-verdict'))))).toEqual(new Set(['hallucinated']));
      expect(consoleErrors).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 60_000);

  it.each([
    [{ kind: 'heuristic', model: 'heuristic', promptVersion: 'heuristic-v9' }, 'npx groundcheck eval --suite <your-suite.json> --judge-provider local --out RESULTS'],
    [{ kind: 'heuristic', model: 'heuristic', promptVersion: 'heuristic-v128+encoder-v2' }, 'npx groundcheck eval --suite <your-suite.json> --judge-provider local --judge-encoder --out RESULTS'],
    [{ kind: 'llm', model: 'openai:gpt-4o-mini', promptVersion: 'faithfulness-v3' }, 'GROUNDCHECK_JUDGE_MODEL=gpt-4o-mini npx groundcheck eval --suite <your-suite.json> --judge-provider openai --out RESULTS'],
    [{ kind: 'mock', model: 'my-judge', promptVersion: 'v1' }, "writeReports(await runEval({ suite: '<your-suite.json>', judge: { faithfulness: <this judge>, pairwise } }), 'RESULTS')"],
  ] as const)('with no offline eval of the judge version %j, the page says how to make one', async (info, command) => {
    const dir = tempDir();
    const store = openCaptureStore({ path: join(dir, 'captures.db'), backgroundCheckpoints: false });
    onCleanup(() => void store.close());
    const resultsDir = join(dir, 'results dir');
    const app = dashboardApp({ store, judge: { info }, judgeVersion: judgeVersionOf(info), evalResults: resultsDir });
    const rates = await request(app).get('/groundcheck/api/rates');
    expect(rates.status).toBe(200);
    expect(rates.body.offline).toBeNull();
    expect(rates.body.missingOffline.message).toMatch(new RegExp(`^No offline eval in ${resultsDir} was graded by this judge\\.`));
    expect(rates.body.missingOffline.command).toBe(command.replace('RESULTS', info.kind === 'mock' ? resultsDir : `'${resultsDir}'`));
    // The default range: the 24 hours up to the next full hour after the dashboard's clock.
    expect(rates.body.range).toEqual({ ...RANGE, bucket: 'hour' });
    expect(rates.body.buckets).toHaveLength(24);

    const none = await request(dashboardApp({ store, evalResults: false })).get('/groundcheck/api/rates');
    expect(none.body.missingOffline.message).toMatch(/^No results folder is configured \(the dashboard option evalResults\)\./);
  });
});
