import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CORPUS_DIR, onCleanup, tempDir } from '../../test-support/fixtures.js';
import { serveForeignApp, SHOP_REFUSAL } from '../../test-support/foreign-rag-app.js';
import type { CliIO } from '../io.js';
import { runCli } from '../../test-support/cli.js';
import { RESULTS_FORMAT_VERSION } from '../../eval/types.js';
import { BUNDLED_SUITE, defaultSuite } from './eval.js';

const fixture = (name: string) => fileURLToPath(new URL(`../../eval/targets/__fixtures__/${name}`, import.meta.url));
const SHOP_QUESTIONS = fixture('shop-questions.jsonl');
const SMOKE_SUITE = join(CORPUS_DIR, '..', '..', 'evals/suites/smoke.json');

const run = runCli;

describe('groundcheck eval --target, and CI outputs', () => {
  it('--target <url> evaluates an app not built with groundcheck; --junit, --json and $GITHUB_STEP_SUMMARY are written', async () => {
    const app = await serveForeignApp({ onClose: onCleanup });
    const cwd = tempDir();
    const summaryFile = join(cwd, 'step-summary.md');
    const result = await run(
      ['eval', '--suite', SHOP_QUESTIONS, '--target', `${app.url}/api/chat`, '--refusal', SHOP_REFUSAL, '--junit', 'ci/eval.junit.xml', '--json', 'ci/eval.json', '--gate', 'hallucinationRate<=0.05'],
      { cwd, env: { GITHUB_STEP_SUMMARY: summaryFile } },
    );
    expect(result.stderr).toContain(`groundcheck eval: suite shop-questions · target POST ${app.url}/api/chat · judge heuristic (offline)`);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`target POST ${app.url}/api/chat: 12 answers asked, 0 from the cache, 0 failed attempts`);
    expect(result.stdout).toMatch(/^json: ci\/eval\.json$/m);
    expect(result.stdout).toMatch(/^junit: ci\/eval\.junit\.xml$/m);
    expect(result.stdout).toMatch(/^step summary: appended to \$GITHUB_STEP_SUMMARY$/m);

    const xml = readFileSync(join(cwd, 'ci/eval.junit.xml'), 'utf8');
    expect(XMLValidator.validate(xml)).toBe(true);
    const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (name) => name === 'testsuite' || name === 'testcase' }).parse(xml);
    expect(parsed.testsuites).toMatchObject({ tests: '7', failures: '2', errors: '0' });
    expect(parsed.testsuites.testsuite[1].testcase[0].failure.message).toBe('hallucinationRate 0.200 > 0.05 (max)');
    const json = JSON.parse(readFileSync(join(cwd, 'ci/eval.json'), 'utf8'));
    expect(json).toMatchObject({ format: RESULTS_FORMAT_VERSION, target: { kind: 'http', name: `POST ${app.url}/api/chat` }, config: { refusalSentence: SHOP_REFUSAL }, passed: false });
    expect(readFileSync(summaryFile, 'utf8')).toMatch(/^# groundcheck eval: shop-questions\n\n\*\*FAILED\*\*/);

    // The same command again: every answer from the cache; the summary file gets a second section.
    const again = await run(['eval', '--suite', SHOP_QUESTIONS, '--target', `${app.url}/api/chat`, '--refusal', SHOP_REFUSAL], { cwd, env: { GITHUB_STEP_SUMMARY: summaryFile } });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('0 answers asked, 12 from the cache');
    expect(readFileSync(summaryFile, 'utf8').match(/^# groundcheck eval/gm)).toHaveLength(2);
  });

  it('--target <module.ts> and a suite that names its own module target', async () => {
    const byFlag = await run(['eval', '--suite', SHOP_QUESTIONS, '--target', fixture('eval-target.ts'), '--no-gates']);
    expect(byFlag.code).toBe(0);
    expect(byFlag.stderr).toContain('target module ');
    const bySuite = await run(['eval', '--suite', fixture('shop-suite.json'), '--gate', 'hallucinationRate<=0.5']);
    expect(bySuite.stdout).toMatch(/pass {2}recall@5 1\.000 >= 0\.8 \(min\)/);
    expect(bySuite.stdout).toMatch(/pass {2}hallucinationRate 0\.200 <= 0\.5 \(max\)/);
    expect(bySuite.code).toBe(0);
  });

  it.each([
    [['--target', 'http://127.0.0.1:1/chat', '--provider', 'openai'], "--provider sets up groundcheck's own pipeline; target POST http://127.0.0.1:1/chat answers by itself"],
    [['--target', 'http://127.0.0.1:1/chat', '--sweep', 'wordCap=100,150'], "--sweep varies groundcheck's pipeline; target POST http://127.0.0.1:1/chat answers with its own settings"],
    [['--target', 'nope.ts'], '--target: module nope.ts not found'],
    [['--sweep', 'wordCap=100,150', '--junit', 'x.xml'], '--junit writes one testcase per question of one eval'],
    [['--sweep', 'wordCap=100'], '--sweep wordCap: give at least two values to compare'],
    [['--sweep', 'wordcap=1,2'], '--sweep wordcap: not a numeric pipeline option; use one of wordCap, topK'],
    [['--sweep', 'topK=2,2.5'], '--sweep topK=2.5 is invalid: use a whole number from 1 to 100'],
    [['--sweep', 'wordCap=100,100'], '--sweep wordCap: 100 is listed twice'],
    [['--refusal', ' '], '--refusal needs the sentence your app refuses with'],
  ])('usage errors exit 2 before anything runs: %j', async (args, message) => {
    const result = await run(['eval', '--suite', SHOP_QUESTIONS, ...args]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
  });

  it('with no --suite outside a checkout, the bundled example suite runs (and says so); without one, it says exactly what to pass', async () => {
    expect(existsSync(BUNDLED_SUITE)).toBe(true);
    const result = await run(['eval', '--no-gates', '--concurrency', '8', '--single-order']);
    expect(result.stderr).toContain(`no --suite given: running the bundled example suite (the handbook, 78 questions, offline) from ${BUNDLED_SUITE}`);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^handbook: 78 questions, 1 run\(s\)/);
    expect(readdirSync(join(result.cwd, 'evals/results'))).toHaveLength(3);

    const io: CliIO = { stdout: { write: () => true }, stderr: { write: () => true }, env: {}, cwd: tempDir() };
    expect(() => defaultSuite(io, join(tempDir(), 'missing.json'))).toThrow(
      'no --suite given and no evals/suites/handbook.json here: pass --suite <suite.json|questions.jsonl> (with --corpus <folder> for a .jsonl), and --target <http-url|module.ts> to evaluate your own app',
    );
  });

  it('--sweep writes one report with the trade-off plot', async () => {
    const result = await run(['eval', '--suite', SMOKE_SUITE, '--sweep', 'wordCap=12,150']);
    expect(result.stderr).toContain('wordCap=12 (1/2)');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^smoke: sweep of wordCap over 12, 150/);
    const files = readdirSync(join(result.cwd, 'evals/results'));
    expect(files.map((file) => file.replace(/-\d{8}T[\d.]+Z/, '')).sort()).toEqual(['smoke-sweep-wordCap.html', 'smoke-sweep-wordCap.json', 'smoke-sweep-wordCap.md']);
    const html = readFileSync(join(result.cwd, 'evals/results', files.find((file) => file.endsWith('.html'))!), 'utf8');
    expect(html).toContain('aria-label="Trade-off across wordCap');
  });
});
