import Database from 'better-sqlite3';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { childEnv } from '../../test/child-env.js';
import { registerEvidenceDigest } from '../capture/sqlite-store/capture-log.js';
import { CAPTURE_MIGRATIONS } from '../capture/sqlite-store/schema.js';
import { CAPTURE_SCHEMA_VERSION, openSqliteCaptureStore } from '../capture/store.js';
import { DatabaseFileError } from '../errors.js';
import { openLlmCache } from '../eval/cache.js';
import { createLocalEmbedder } from '../providers/local/embedder.js';
import { openIndex } from '../rag/store.js';
import { judgmentFor, sampleCapture } from '../test-support/capture-samples.js';
import { runCli } from '../test-support/cli.js';
import { onCleanup, tempDir } from '../test-support/fixtures.js';
import { migrate } from './open.js';
import { LEGACY_SHARED_APPLICATION_ID, SQLITE_FILE_KINDS, type SqliteFileKind } from './registry.js';

/** One real file of each kind, written by its own module. */
async function realFiles() {
  const dir = tempDir();
  const files = { index: join(dir, 'index.db'), 'capture-store': join(dir, 'captures.db'), 'llm-cache': join(dir, 'llm-cache.db') };
  openIndex({ path: files.index, embedder: createLocalEmbedder() }).close();
  const store = openSqliteCaptureStore({ path: files['capture-store'], backgroundCheckpoints: false });
  await store.writeCaptures([sampleCapture('t1')]);
  await store.close();
  const cache = openLlmCache({ path: files['llm-cache'] });
  cache.set('key', { provider: 'p', modelId: 'm', result: { text: 'cached', finishReason: 'stop', usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 }, costUsd: null } as never });
  cache.close();
  return files;
}

const OPENERS: Record<SqliteFileKind, (path: string) => { close(): unknown }> = {
  index: (path) => openIndex({ path, embedder: createLocalEmbedder() }),
  'capture-store': (path) => openSqliteCaptureStore({ path, backgroundCheckpoints: false }),
  'llm-cache': (path) => openLlmCache({ path }),
};

function thrown(run: () => unknown): unknown {
  try {
    const opened = run() as { close(): unknown };
    opened.close();
  } catch (error) {
    return error;
  }
  throw new Error('expected the open to fail');
}

const cli = (args: string[]) => runCli(args, { cwd: process.cwd() });

describe('each kind of file refuses to be opened as another', () => {
  it.each([
    ['index', 'capture-store'],
    ['index', 'llm-cache'],
    ['capture-store', 'index'],
    ['capture-store', 'llm-cache'],
    ['llm-cache', 'index'],
    ['llm-cache', 'capture-store'],
  ] as const)('a real %s file opened as a %s: DatabaseFileError wrong_file_kind naming both; the file still opens as what it is', async (found, expected) => {
    const files = await realFiles();
    const error = thrown(() => OPENERS[expected](files[found]));
    expect(error).toBeInstanceOf(DatabaseFileError);
    expect(error).toMatchObject({ code: 'wrong_file_kind', expected, found, path: files[found] });
    expect((error as Error).message).toContain(`is a ${SQLITE_FILE_KINDS[found].label}, not a ${SQLITE_FILE_KINDS[expected].label}`);
    OPENERS[found](files[found]).close();
  });

  it.each([
    [['drift', '--db', 'llm-cache', '--index', 'index'], 'llm-cache', 'capture-store'],
    [['judge-worker', '--db', 'index', '--once'], 'index', 'capture-store'],
    [['ask', 'How long is probation?', '--db', 'capture-store'], 'capture-store', 'index'],
    [['drift', '--db', 'capture-store', '--index', 'llm-cache'], 'llm-cache', 'index'],
    [['eval', '--suite', 'evals/suites/smoke.json', '--cache', 'capture-store', '--out', 'OUT'], 'capture-store', 'llm-cache'],
  ] as const)('CLI %j: exit 2 and one line naming both kinds', async (args, found, expected) => {
    const files = await realFiles();
    const out = tempDir();
    const result = await cli(args.map((arg) => (arg in files ? files[arg as SqliteFileKind] : arg === 'OUT' ? out : arg)));
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`groundcheck: ${files[found]} is a ${SQLITE_FILE_KINDS[found].label}, not a ${SQLITE_FILE_KINDS[expected].label}; pass another ${expected === 'llm-cache' ? '--cache' : '--db'} path\n`);
  });

  it('as a real process: exit 2, one line on stderr, no stack trace', async () => {
    const files = await realFiles();
    const bin = fileURLToPath(new URL('../../bin/groundcheck.js', import.meta.url));
    const failure = await promisify(execFile)(process.execPath, [bin, 'drift', '--db', files['llm-cache'], '--index', files.index], { env: childEnv() }).then(
      () => null,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure).toMatchObject({ code: 2, stderr: `groundcheck: ${files['llm-cache']} is a groundcheck LLM cache, not a groundcheck capture store; pass another --db path\n` });
  });
});

describe('files from before the kinds had ids of their own (application_id "GCC1", shared)', () => {
  /** A capture store exactly as schema 2 wrote it: the shared id, the schema-2 judgment columns. */
  function legacyCaptureStore(path: string): void {
    const db = new Database(path);
    registerEvidenceDigest(db);
    db.transaction(() => migrate(db, CAPTURE_MIGRATIONS.slice(0, 2), 0, undefined))();
    db.pragma(`application_id = ${LEGACY_SHARED_APPLICATION_ID}`);
    db.close();
  }

  it('a capture store of schema 2 opens: re-stamped, migrated to the judgment record, its captures and judgments intact', async () => {
    const path = join(tempDir(), 'captures.db');
    legacyCaptureStore(path);
    // Write through today's code paths for captures, then put a schema-2 judgment row in by hand.
    const judgment = judgmentFor('t1');
    const db = new Database(path);
    db.prepare(`INSERT INTO captures (trace_id, request_id, captured_at, captured_ms, route, method, status, latency_ms, query, mode, answer, refused, refusal_reason, prompt_version, chat_model, embedding_model, input_tokens, output_tokens, total_tokens, cost_usd, retrieval_ms, generation_ms, total_ms, truncated)
      VALUES ('t1', 'req-t1', '2026-03-01T10:00:00.000Z', 0, '/api/chat', 'POST', 200, 12.5, 'What is the mileage rate?', 'rag', '45p per mile.', 0, NULL, 'grounded-v2', 'local:local-extractive-v1', 'local:local-hash-v1', 100, 5, 105, NULL, 1, 2, 3, 0)`).run();
    db.prepare(`INSERT INTO judgments (capture_id, judge_version, judge_kind, judge_model, judge_prompt_version, status, claims, verified, contradicted, absent, flags, faithful, hallucinated, refused, error, raw_reply, attempts, input_tokens, output_tokens, total_tokens, cost_usd, duration_ms, judged_at)
      VALUES (1, ?, 'heuristic', 'heuristic', 'h1', 'ok', ?, 1, 0, 0, ?, 1, 0, 0, NULL, NULL, 1, 0, 0, 0, 0, 3, ?)`).run(judgment.judgeVersion, JSON.stringify(judgment.claims), JSON.stringify(judgment.flags), judgment.judgedAt);
    db.close();

    // An LLM cache must not take it for one of its own.
    expect(thrown(() => openLlmCache({ path }))).toMatchObject({ code: 'wrong_file_kind', found: 'capture-store' });
    const store = openSqliteCaptureStore({ path, backgroundCheckpoints: false });
    onCleanup(() => void store.close());
    expect(store.db.pragma('application_id', { simple: true })).toBe(SQLITE_FILE_KINDS['capture-store'].applicationId);
    expect(store.db.pragma('user_version', { simple: true })).toBe(CAPTURE_SCHEMA_VERSION);
    expect((await store.getCapture('t1'))!.judgments).toEqual([judgment]);
    expect((await store.getCapture('t1'))!.capture).toEqual({ ...sampleCapture('t1', { chunks: [] }) });
  });

  it('an LLM cache opens: re-stamped, its entries served; a capture store refuses it instead of migrating into it', () => {
    const path = join(tempDir(), 'llm-cache.db');
    const db = new Database(path);
    db.exec(`CREATE TABLE calls (key TEXT PRIMARY KEY, provider TEXT NOT NULL, model TEXT NOT NULL, result TEXT NOT NULL, created_at TEXT NOT NULL)`);
    db.prepare(`INSERT INTO calls VALUES ('k', 'p', 'm', '{"text":"cached"}', '2026-01-01T00:00:00.000Z')`).run();
    db.pragma(`application_id = ${LEGACY_SHARED_APPLICATION_ID}`);
    db.close();

    expect(thrown(() => openSqliteCaptureStore({ path, backgroundCheckpoints: false }))).toMatchObject({ code: 'wrong_file_kind', found: 'llm-cache', expected: 'capture-store' });
    const untouched = new Database(path);
    expect(untouched.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).pluck().all()).toEqual(['calls']);
    untouched.close();

    const cache = openLlmCache({ path });
    onCleanup(() => cache.close());
    expect(cache.get('k')).toEqual({ text: 'cached' });
    expect(cache.size()).toBe(1);
    const raw = new Database(path, { readonly: true });
    onCleanup(() => raw.close());
    expect([raw.pragma('application_id', { simple: true }), raw.pragma('user_version', { simple: true })]).toEqual([SQLITE_FILE_KINDS['llm-cache'].applicationId, 1]);
  });
});
