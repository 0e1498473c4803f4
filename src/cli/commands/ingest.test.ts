import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORPUS_DIR, tempDir } from '../../test-support/fixtures.js';
import { startTestSite } from '../../test-support/test-site.js';
import type { CliIO } from '../io.js';
import { main } from '../main.js';

async function run(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIO = { stdout: { write: (text: string) => out.push(text) }, stderr: { write: (text: string) => err.push(text) }, env: {}, cwd: process.cwd() };
  const code = await main(args, io);
  return { code, stdout: out.join(''), stderr: err.join('') };
}

const article = (title: string, text: string) =>
  `<html><head><title>${title}</title></head><body><nav><a href="/">Home</a> <a href="/leave">Leave</a></nav><main><h1>${title}</h1><p>${text}</p></main><footer>Footer text</footer></body></html>`;

describe('groundcheck ingest <url>', () => {
  it('crawls a site, prints what it did, and ask cites the page with its URL', async () => {
    const site = await startTestSite({
      '/': { body: article('Handbook', 'Welcome to the handbook of a small company; read the leave policy before you book time off.') },
      '/leave': { body: article('Leave Policy', 'Every employee receives 25 days of annual leave each year, booked two weeks ahead in the people portal.') },
    });
    const db = join(tempDir(), 'index.db');
    const first = await run(['ingest', site.url('/'), '--db', db, '--delay-ms', '0', '--max-pages', '5']);
    expect(first.stderr).toBe(`[1/5] added     ${site.url('/')}\n[2/5] added     ${site.url('/leave')}\n`);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(`  added     ${site.url('/leave')}\n`);
    expect(first.stdout).toMatch(/2 added, 0 replaced, 0 unchanged \(skipped\), 0 removed, 0 skipped; \d+ chunks written/);
    expect(first.stdout).toContain(`index: ${db}\n`);

    const again = await run(['ingest', site.url('/'), '--db', db, '--delay-ms', '0']);
    expect(again.stdout).toMatch(/0 added, 0 replaced, 2 unchanged \(skipped\), 0 removed/);

    const json = await run(['ask', 'How many days of annual leave does an employee receive?', '--db', db, '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout).sources[0]).toMatchObject({ title: 'Leave Policy', url: site.url('/leave') });
    const human = await run(['ask', 'How many days of annual leave does an employee receive?', '--db', db]);
    expect(human.stdout).toContain(`1. Leave Policy (updated unknown)`);
    expect(human.stdout).toContain(`     ${site.url('/leave')}\n`);

    // A folder ingested into the same index leaves the crawled pages alone.
    const folder = await run(['ingest', CORPUS_DIR, '--db', db]);
    expect(folder.stdout).toMatch(/21 added, 0 replaced, 0 unchanged \(skipped\), 0 removed; .* index holds 23 documents/);
  });

  it('fails with one line: exit 2 for bad input, exit 1 for an unreachable host', async () => {
    const site = await startTestSite();
    const down = site.url('/');
    await site.close();
    const db = join(tempDir(), 'index.db');
    const cases = [
      { args: ['ingest', 'ftp://example.com/', '--db', db], code: 2, stderr: 'groundcheck: ftp://example.com/ is not an http or https URL: only web pages can be crawled\n' },
      { args: ['ingest', down, '--db', db, '--delay-ms', '0'], code: 1, stderr: `groundcheck: cannot reach ${site.origin}: connection refused\n` },
      { args: ['ingest', CORPUS_DIR, '--max-pages', '5', '--db', db], code: 2, stderr: expect.stringMatching(/^groundcheck: --max-pages is for crawling a URL; .* is a folder\nusage: /) },
      { args: ['ingest', down, '--max-pages', '0', '--db', db], code: 2, stderr: expect.stringMatching(/^groundcheck: --max-pages must be a whole number from 1 to 100000, not "0"\nusage: /) },
    ];
    for (const { args, code, stderr } of cases) {
      const result = await run(args);
      expect({ code: result.code, stderr: result.stderr }).toEqual({ code, stderr });
    }
  });
});
