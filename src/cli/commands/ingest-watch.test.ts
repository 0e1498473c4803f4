import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { childEnv } from '../../../test/child-env.js';
import { copyCorpus, tempDir } from '../../test-support/fixtures.js';
import { main } from '../main.js';

const BIN = fileURLToPath(new URL('../../../bin/groundcheck.js', import.meta.url));

/** Wait until `read()` matches `pattern`, or fail after `ms`. */
async function waitFor(read: () => string, pattern: RegExp, ms: number): Promise<void> {
  const started = Date.now();
  while (!pattern.test(read())) {
    if (Date.now() - started > ms) throw new Error(`no ${pattern} within ${ms} ms in:\n${read()}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('groundcheck ingest <folder> --watch', () => {
  it('runs as a real process: ingests, prints an edit within two seconds, stops cleanly on SIGINT', async () => {
    const folder = copyCorpus();
    const db = join(tempDir(), 'index.db');
    const child = spawn(process.execPath, [BIN, 'ingest', folder, '--watch', '--db', db], { env: childEnv() });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      await waitFor(() => out, /watching .* for changes/, 20_000);
      expect(out).toMatch(/21 added, 0 replaced/);
      const edited = Date.now();
      appendFileSync(join(folder, 'pay-and-payroll.md'), '\n## Pay Advances\n\nPayroll does not offer salary advances.\n');
      await waitFor(() => out, /replaced {2}pay-and-payroll\.md/, 2000);
      expect(Date.now() - edited).toBeLessThan(2000);
      expect(out).toMatch(/0 added, 1 replaced, 20 unchanged \(skipped\), 0 removed/);
    } finally {
      child.kill('SIGINT');
    }
    expect(await exited).toBe(0);
    expect(out).toContain('stopped watching');
  }, 30_000);

  it('refuses --watch for a URL (crawls are refreshed by crawling again)', async () => {
    const err: string[] = [];
    const code = await main(['ingest', 'https://example.org', '--watch'], { stdout: { write: () => true }, stderr: { write: (text: string) => err.push(text) }, env: {}, cwd: process.cwd() });
    expect(code).toBe(2);
    expect(err.join('')).toContain('--watch watches a folder');
  });
});
