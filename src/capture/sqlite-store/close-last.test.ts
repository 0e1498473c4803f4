import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { childEnv } from '../../../test/child-env.js';
import { tempDir } from '../../test-support/fixtures.js';

// The store's threads never keep a process alive on their own, but a close() being awaited must:
// a program that ends with `await store.close()` (a script, a CLI command) otherwise exits with
// the Promise unsettled, and nothing after the await runs (bench:capture-path printed nothing).
const SCRIPT = fileURLToPath(new URL('./__fixtures__/close-last.ts', import.meta.url));

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', SCRIPT, ...args], { env: childEnv({}), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (part: Buffer) => (stdout += part.toString()));
    child.stderr.on('data', (part: Buffer) => (stderr += part.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('await store.close() as a program’s last step', () => {
  it.each([
    ['writer thread and checkpoint thread', 'on', 'on'],
    ['writer thread only', 'on', 'off'],
    ['checkpoint thread only', 'off', 'on'],
  ])('resolves with the %s running, and the captures are in the file', async (_name, writerThread, checkpoints) => {
    const path = join(tempDir(), 'captures.db');
    const result = await run([path, writerThread, checkpoints]);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('closed\n');
    expect(result.code).toBe(0);
    const db = new Database(path, { readonly: true });
    try {
      expect(db.prepare('SELECT count(*) AS n FROM captures').get()).toEqual({ n: 2 });
    } finally {
      db.close();
    }
  }, 30_000);
});
