import { execFile } from 'node:child_process';
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { childEnv } from '../../test/child-env.js';
import { CORPUS_DIR, tempDir } from '../test-support/fixtures.js';
import { main } from './main.js';
import type { CliIO } from './io.js';

function capture(env: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIO = { stdout: { write: (text: string) => out.push(text) }, stderr: { write: (text: string) => err.push(text) }, env, cwd: process.cwd() };
  return { io, stdout: () => out.join(''), stderr: () => err.join('') };
}

async function run(args: string[], env: Record<string, string> = {}) {
  const captured = capture(env);
  const code = await main(args, captured.io);
  return { code, stdout: captured.stdout(), stderr: captured.stderr() };
}

describe('groundcheck CLI', () => {
  it('ingest then ask, human-readable and --json', async () => {
    const db = join(tempDir(), 'index.db');
    const ingest = await run(['ingest', CORPUS_DIR, '--db', db]);
    expect(ingest.code).toBe(0);
    expect(ingest.stdout).toMatch(/21 added, 0 replaced, 0 unchanged \(skipped\), 0 removed/);

    const again = await run(['ingest', CORPUS_DIR, '--db', db]);
    expect(again.stdout).toMatch(/0 added, 0 replaced, 21 unchanged \(skipped\), 0 removed/);

    const human = await run(['ask', 'What is the mileage rate for a car?', '--db', db]);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/45p/);
    expect(human.stdout).toMatch(/refused: no/);
    expect(human.stdout).toMatch(/Travel and Expenses › Mileage Rates \(updated 2025-09-01\)\s+travel-and-expenses#mileage-rates/);

    const json = await run(['ask', 'What is the mileage rate for a car?', '--db', db, '--json']);
    const payload = JSON.parse(json.stdout) as Record<string, unknown>;
    expect(Object.keys(payload)).toEqual(['answer', 'refused', 'sources', 'traceId', 'refusalReason']);
    expect(payload.refusalReason).toBeNull();
    expect(payload).toMatchObject({ refused: false, traceId: expect.any(String) });
    expect((payload.sources as object[])[0]).toEqual({
      chunkId: expect.any(String), title: expect.any(String), section: expect.any(String), updated: expect.any(String), score: expect.any(Number), text: expect.any(String),
    });

    // A refusal says which part refused: here the gate, for words the corpus never holds.
    const refusal = await run(['ask', 'Do we get free gym membership?', '--db', db, '--json']);
    expect(JSON.parse(refusal.stdout)).toMatchObject({ refused: true, refusalReason: 'gate', gate: { reason: 'coverage', uncoveredTerms: ['gym', 'membership'] } });
    // The chunks the gate withheld, best first, as ids and similarities (the judge grades the refusal against them).
    const withheld = JSON.parse(refusal.stdout).gate.withheld as { chunkId: string; score: number }[];
    expect(withheld.length).toBeGreaterThan(0);
    expect(withheld[0]).toEqual({ chunkId: expect.any(String), score: expect.any(Number) });

    // Closed-book, the offline model answers from its simulated 2024 memory: last year's rate, no sources.
    const norag = await run(['ask', 'What is the mileage rate for a car?', '--db', db, '--mode', 'norag', '--json']);
    expect(JSON.parse(norag.stdout)).toMatchObject({ refused: false, sources: [] });
    expect(JSON.parse(norag.stdout).answer).toContain('40p per mile');
  });

  it.each([
    [['ingest'], 2, /ingest needs a folder/],
    [['ask'], 2, /ask needs a question/],
    [['ask', 'x', '--mode', 'maybe'], 2, /--mode must be rag or norag/],
    [['ask', 'x', '--bogus'], 2, /Unknown option '--bogus'/],
    [['frobnicate'], 2, /unknown command "frobnicate"/],
  ])('usage error %j → exit %i', async (args, code, message) => {
    const result = await run(args);
    expect(result.code).toBe(code);
    expect(result.stderr).toMatch(message);
  });

  it('one-line errors without stack traces for bad folders and bad database files', async () => {
    const dir = tempDir();
    const missing = await run(['ingest', join(dir, 'nope'), '--db', join(dir, 'i.db')]);
    expect([missing.code, missing.stderr]).toEqual([2, `groundcheck: folder ${join(dir, 'nope')} does not exist\n`]);

    mkdirSync(join(dir, 'empty'));
    const empty = await run(['ingest', join(dir, 'empty'), '--db', join(dir, 'i.db')]);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/holds no \.md.*nothing to ingest\n$/);

    const noIndex = await run(['ask', 'hello?', '--db', join(dir, 'absent.db')]);
    expect(noIndex.code).toBe(2);
    expect(noIndex.stderr).toMatch(/no index at .*absent\.db: run `groundcheck ingest <folder>/);

    const garbage = join(dir, 'garbage.db');
    writeFileSync(garbage, 'x'.repeat(4096));
    const unreadable = await run(['ask', 'hello?', '--db', garbage]);
    expect(unreadable.code).toBe(2);
    expect(unreadable.stderr).toMatch(/is not a SQLite database/);

    const foreign = join(dir, 'foreign.db');
    new Database(foreign).exec('CREATE TABLE t (x)');
    const other = await run(['ask', 'hello?', '--db', foreign]);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/not a groundcheck index/);

    for (const result of [missing, empty, noIndex, unreadable, other]) {
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it('reports the embedder mismatch and how to fix it', async () => {
    const db = join(tempDir(), 'index.db');
    await run(['ingest', CORPUS_DIR, '--db', db]);
    const mismatch = await run(['ask', 'hello?', '--db', db], { GROUNDCHECK_EMBED_DIMENSIONS: '256' });
    expect(mismatch.code).toBe(2);
    expect(mismatch.stderr).toMatch(/built with embedder "local-hash-v1;d=1024;bigram=0;ngram=0\.5;n=3-5" but this run uses "local-hash-v1;d=256;bigram=0;ngram=0\.5;n=3-5"; re-ingest/);
    const rebuilt = await run(['ingest', CORPUS_DIR, '--db', db, '--rebuild'], { GROUNDCHECK_EMBED_DIMENSIONS: '256' });
    expect(rebuilt.code).toBe(0);
    expect(rebuilt.stdout).toMatch(/21 added/);
  });

  it('runs as a real process through bin/groundcheck.js', async () => {
    const db = join(tempDir(), 'index.db');
    const bin = fileURLToPath(new URL('../../bin/groundcheck.js', import.meta.url));
    const exec = promisify(execFile);
    await exec(process.execPath, [bin, 'ingest', CORPUS_DIR, '--db', db], { env: childEnv() });
    const { stdout } = await exec(process.execPath, [bin, 'ask', 'How long is the probation period?', '--db', db, '--json'], { env: childEnv() });
    expect(JSON.parse(stdout)).toMatchObject({ refused: false, sources: expect.arrayContaining([expect.objectContaining({ chunkId: 'onboarding#probation-period' })]) });
    const failure = await exec(process.execPath, [bin, 'ask'], { env: childEnv() }).catch((error: { code: number; stderr: string }) => error);
    expect(failure).toMatchObject({ code: 2, stderr: expect.stringMatching(/ask needs a question/) });
  });
});
