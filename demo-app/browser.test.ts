import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { verdictOf } from '../src/capture/verdict.js';
import { memoryLogger } from '../src/test-support/capture-helpers.js';
import { CHROMIUM, CHROMIUM_ARGS, hasChromium, warnWithoutChromium } from '../src/test-support/chromium.js';
import { handbookIndex, onCleanup, tempDir } from '../src/test-support/fixtures.js';
import { createApp } from './app.js';

warnWithoutChromium('demo browser test');

describe('demo chat page in a real browser (chromium)', () => {
  it.skipIf(!hasChromium)('types a question, sees the answer with its sources, then the verdict appears; the dashboard shows the claims', async () => {
    const dir = tempDir();
    const demo = createApp({
      index: await handbookIndex(),
      capture: { store: join(dir, 'captures.db') },
      worker: { settleMs: 200, pollMs: 50 },
      env: {},
      logger: memoryLogger().logger,
      evalResults: join(dir, 'results'),
    });
    const server = demo.app.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => server.once('listening', resolve));
    onCleanup(() => {
      server.closeAllConnections();
      server.close();
      void demo.close();
    });
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    const context = await chromium.launchPersistentContext(join(dir, 'profile'), { executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      const consoleErrors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') consoleErrors.push(message.text());
      });
      await page.goto(base);
      await expect.poll(() => page.title()).toContain('handbook assistant');

      await page.fill('#question', 'How many weeks of parental leave does a birth parent get?');
      await page.press('#question', 'Enter');

      const answer = page.locator('.bubble.answer').first();
      await answer.locator('.sources li:visible').first().waitFor({ timeout: 15_000 });
      expect(await answer.locator('.answer-text').textContent()).toContain('20 weeks of parental leave at full pay');
      const sources = await answer.locator('.sources li:visible').allTextContents();
      expect(sources.length).toBeGreaterThan(0);
      expect(sources.join('\n')).toMatch(/Leave Policy › .*updated 2026-01-12/);

      const verdict = answer.locator('.verdict');
      await answer.locator('.verdict:not([data-verdict="pending"])').waitFor({ timeout: 20_000 });
      const traceId = await answer.getAttribute('data-trace-id');
      const stored = (await demo.store!.getCapture(traceId!))!;
      // The page shows what the outcome table says of the stored judgment, word for word.
      const expected = verdictOf(stored.capture, stored.judgments[0]!, true);
      expect(expected.verdict).toBe('correct');
      expect(await verdict.getAttribute('data-verdict')).toBe(expected.verdict);
      expect(await verdict.getAttribute('data-tone')).toBe('pass');
      expect(await verdict.textContent()).toBe(expected.text);

      // RAG off: no sources, and the verdict for the closed-book answer appears too.
      await page.click('label.switch');
      expect(await page.isChecked('#rag-toggle')).toBe(false);
      await page.fill('#question', 'Is my salary paid in cryptocurrency?');
      await page.click('#send');
      const second = page.locator('.bubble.answer').nth(1);
      await second.locator('.verdict:not([data-verdict="pending"])').waitFor({ timeout: 20_000 });
      expect(await second.locator('.no-sources').textContent()).toMatch(/RAG off/);

      // The dashboard lists both captures with verdicts and shows claims against their evidence.
      await page.goto(`${base}/dashboard`);
      await page.locator('details.capture').nth(1).waitFor({ timeout: 10_000 });
      expect(await page.locator('details.capture').count()).toBe(2);
      const card = page.locator(`details.capture[data-trace-id="${traceId}"]`);
      await card.locator('summary').click();
      await card.locator('.claim').first().waitFor();
      expect(await card.locator('.claim.verified, .claim.contradicted, .claim.absent').count()).toBeGreaterThan(0);
      // The answer was judged correct (pinned above), so it has verified claims, each shown with its evidence marked.
      expect(await card.locator('.claim.verified').count()).toBeGreaterThan(0);
      expect(await card.locator('.claim.verified .evidence mark').count()).toBeGreaterThan(0);
      // The rates panel: both answers judged by the live judge, and no offline eval of that judge
      // yet, so it says how to make one.
      await expect.poll(() => page.locator('#rates-summary .live-judged').textContent()).toBe('2');
      expect(await page.locator('#rates-comparison').textContent()).toContain(`The same judge (${demo.worker!.judgeVersion}) grades both sides`);
      expect(await page.locator('#offline-missing').isVisible()).toBe(true);
      expect(await page.locator('#offline-missing-command').textContent()).toBe(`npx groundcheck eval --suite <your-suite.json> --judge-provider local --out ${join(dir, 'results')}`);
      expect(consoleErrors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);
});
