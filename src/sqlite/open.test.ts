import Database from 'better-sqlite3';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DatabaseFileError, InvalidInputError } from '../errors.js';
import { onCleanup, tempDir } from '../test-support/fixtures.js';
import { makeReadOnly, readOnlyFilesSupported } from '../test-support/read-only-file.js';
import { openSqlite, type OpenSqliteOptions, type SqliteMigration } from './open.js';
import { LEGACY_SHARED_APPLICATION_ID, SQLITE_FILE_KINDS } from './registry.js';

const NOTES_V1: SqliteMigration = { version: 1, up: `CREATE TABLE calls (key TEXT PRIMARY KEY, result TEXT NOT NULL);` };
const NOTES_V2: SqliteMigration = { version: 2, up: `ALTER TABLE calls ADD COLUMN model TEXT NOT NULL DEFAULT 'm';` };

function open(options: Partial<OpenSqliteOptions> & { path: string }) {
  const opened = openSqlite({ kind: 'llm-cache', migrations: [NOTES_V1], ...options });
  onCleanup(() => opened.db.close());
  return opened;
}

function catchError(run: () => unknown): DatabaseFileError {
  try {
    run();
  } catch (error) {
    if (error instanceof DatabaseFileError) return error;
    throw error;
  }
  throw new Error('expected a DatabaseFileError');
}

function raw(path: string, setup: (db: Database.Database) => void): void {
  const db = new Database(path);
  setup(db);
  db.close();
}

describe('the SQLite file-kind registry', () => {
  it('gives every kind its own application_id, none of them the legacy shared one', () => {
    const ids = Object.values(SQLITE_FILE_KINDS).map((info) => info.applicationId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).not.toContain(LEGACY_SHARED_APPLICATION_ID);
    expect(Object.fromEntries(Object.values(SQLITE_FILE_KINDS).map((info) => [info.kind, Buffer.from(info.applicationId.toString(16), 'hex').toString('latin1')]))).toEqual({
      index: 'GCK1',
      'capture-store': 'GCS1',
      'llm-cache': 'GCL1',
    });
  });
});

describe('openSqlite', () => {
  it('creates a file in WAL mode with its kind’s id and schema version; reopening changes nothing', () => {
    const path = join(tempDir(), 'a', 'b', 'notes.db');
    const created: string[] = [];
    const first = open({ path, migrations: [NOTES_V1, NOTES_V2], onCreate: (db) => created.push(String(db.pragma('user_version', { simple: true }))) });
    expect(first).toMatchObject({ created: true, fromVersion: 0, version: 2 });
    expect(first.db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(first.db.pragma('application_id', { simple: true })).toBe(SQLITE_FILE_KINDS['llm-cache'].applicationId);
    expect(created).toEqual(['2']);
    first.db.close();
    const again = open({ path, migrations: [NOTES_V1, NOTES_V2], onCreate: () => created.push('again') });
    expect(again).toMatchObject({ created: false, fromVersion: 2, version: 2 });
    expect(created).toEqual(['2']);
  });

  it('migrates an older file in place, all pending versions in one transaction: a failing one leaves the file as it was', () => {
    const path = join(tempDir(), 'notes.db');
    open({ path }).db.prepare(`INSERT INTO calls (key, result) VALUES ('k', 'r')`).run();
    const broken: SqliteMigration = { version: 3, up: `CREATE TABLE calls (x);` };
    expect(() => open({ path, migrations: [NOTES_V1, NOTES_V2, broken] })).toThrow(/table calls already exists/);
    const unchanged = new Database(path);
    onCleanup(() => unchanged.close());
    expect(unchanged.pragma('user_version', { simple: true })).toBe(1);
    expect(unchanged.prepare(`SELECT name FROM pragma_table_info('calls')`).pluck().all()).toEqual(['key', 'result']);
    unchanged.close();

    const migrated = open({ path, migrations: [NOTES_V1, NOTES_V2] });
    expect(migrated).toMatchObject({ created: false, fromVersion: 1, version: 2 });
    expect(migrated.db.prepare(`SELECT key, result, model FROM calls`).all()).toEqual([{ key: 'k', result: 'r', model: 'm' }]);
  });

  it('refuses a newer schema, naming both versions', () => {
    const path = join(tempDir(), 'notes.db');
    open({ path, migrations: [NOTES_V1, NOTES_V2] }).db.close();
    const error = catchError(() => open({ path }));
    expect(error).toMatchObject({ code: 'schema_too_new', expected: 'llm-cache', path });
    expect(error.message).toBe(`${path} was written by a newer groundcheck (cache schema 2, this one knows 1); upgrade groundcheck`);
  });

  it.skipIf(!readOnlyFilesSupported().ok)('a folder that cannot be written is not_writable, naming the folder (not "not a SQLite database")', () => {
    const folder = join(tempDir(), 'locked');
    mkdirSync(folder);
    const restore = makeReadOnly(folder);
    try {
      expect(catchError(() => open({ path: join(folder, 'cache.db') }))).toMatchObject({
        code: 'not_writable',
        message: expect.stringMatching(/^cannot create the groundcheck LLM cache at .*cache\.db: the folder .*locked is not writable by this process/),
      });
      expect(catchError(() => open({ path: join(folder, 'sub', 'cache.db') }))).toMatchObject({ code: 'not_writable', message: expect.stringMatching(/its folder cannot be created/) });
    } finally {
      restore();
    }
    // Writable again: the same path opens.
    expect(open({ path: join(folder, 'cache.db') }).created).toBe(true);
  });

  it('input errors for a missing file, a folder, a file that is not SQLite and a foreign SQLite database', () => {
    const dir = tempDir();
    const missing = catchError(() => open({ path: join(dir, 'missing.db'), create: false, notFoundMessage: 'run ingest first' }));
    expect(missing).toMatchObject({ code: 'not_found', message: 'run ingest first' });
    mkdirSync(join(dir, 'folder.db'));
    expect(catchError(() => open({ path: join(dir, 'folder.db') }))).toMatchObject({ code: 'not_a_database', message: expect.stringMatching(/is a folder, not a groundcheck LLM cache file/) });
    writeFileSync(join(dir, 'text.db'), 'not a database '.repeat(300));
    expect(catchError(() => open({ path: join(dir, 'text.db') }))).toMatchObject({ code: 'not_a_database', message: expect.stringMatching(/is not a SQLite database/) });
    raw(join(dir, 'app.db'), (db) => db.exec('CREATE TABLE users (id INTEGER PRIMARY KEY)'));
    const foreign = catchError(() => open({ path: join(dir, 'app.db'), pathHint: 'pass another --cache path' }));
    expect(foreign).toMatchObject({ code: 'foreign_database', message: `${join(dir, 'app.db')} is a SQLite database but not a groundcheck LLM cache; pass another --cache path` });
    expect(foreign).toBeInstanceOf(InvalidInputError);
  });

  it.each([
    ['index', 'capture-store'],
    ['index', 'llm-cache'],
    ['capture-store', 'index'],
    ['capture-store', 'llm-cache'],
    ['llm-cache', 'index'],
    ['llm-cache', 'capture-store'],
  ] as const)('a %s file opened as a %s is an input error naming both kinds, and the file is left alone', (found, expected) => {
    const path = join(tempDir(), 'file.db');
    open({ path, kind: found }).db.close();
    const error = catchError(() => open({ path, kind: expected, pathHint: 'pass another --db path' }));
    expect(error).toMatchObject({ code: 'wrong_file_kind', expected, found });
    expect(error.message).toBe(`${path} is a ${SQLITE_FILE_KINDS[found].label}, not a ${SQLITE_FILE_KINDS[expected].label}; pass another --db path`);
    const after = new Database(path);
    onCleanup(() => after.close());
    expect(after.pragma('application_id', { simple: true })).toBe(SQLITE_FILE_KINDS[found].applicationId);
    expect(after.prepare(`SELECT name FROM sqlite_master`).pluck().all()).toEqual(['calls', 'sqlite_autoindex_calls_1']);
  });

  it('a file with the legacy shared id is told apart by its tables: its own kind is re-stamped, another kind is refused', () => {
    const dir = tempDir();
    const legacyCache = join(dir, 'cache.db');
    raw(legacyCache, (db) => {
      db.exec(`CREATE TABLE calls (key TEXT PRIMARY KEY, result TEXT NOT NULL); INSERT INTO calls VALUES ('k', 'r');`);
      db.pragma(`application_id = ${LEGACY_SHARED_APPLICATION_ID}`);
    });
    // Its tables say capture store? No: an LLM cache, so the capture store refuses it and never migrates into it.
    expect(catchError(() => open({ path: legacyCache, kind: 'capture-store', migrations: [] }))).toMatchObject({ code: 'wrong_file_kind', found: 'llm-cache' });
    const reopened = open({ path: legacyCache, migrations: [NOTES_V1, NOTES_V2] });
    // Unversioned legacy cache = version 1: only version 2 runs.
    expect(reopened).toMatchObject({ created: false, fromVersion: 1, version: 2 });
    expect(reopened.db.pragma('application_id', { simple: true })).toBe(SQLITE_FILE_KINDS['llm-cache'].applicationId);
    expect(reopened.db.pragma('user_version', { simple: true })).toBe(2);
    expect(reopened.db.prepare(`SELECT key, result, model FROM calls`).all()).toEqual([{ key: 'k', result: 'r', model: 'm' }]);

    const unknown = join(dir, 'unknown.db');
    raw(unknown, (db) => {
      db.exec('CREATE TABLE other (x)');
      db.pragma(`application_id = ${LEGACY_SHARED_APPLICATION_ID}`);
    });
    expect(catchError(() => open({ path: unknown }))).toMatchObject({ code: 'foreign_database' });
  });

  it('a check may refuse an existing file (closing it) or reset it to be migrated from nothing', () => {
    const path = join(tempDir(), 'notes.db');
    open({ path }).db.prepare(`INSERT INTO calls (key, result) VALUES ('k', 'r')`).run();
    expect(() =>
      open({
        path,
        check: () => {
          throw new InvalidInputError('no thanks', { code: 'refused' });
        },
      }),
    ).toThrow('no thanks');
    const reset = open({
      path,
      check: (db) => {
        db.exec('DROP TABLE calls');
        return 'reset';
      },
    });
    expect(reset).toMatchObject({ created: false, fromVersion: 0, version: 1 });
    expect(reset.db.prepare(`SELECT count(*) FROM calls`).pluck().get()).toBe(0);
  });

  it('counts statements through `verbose`', () => {
    const seen: string[] = [];
    const { db } = open({ path: ':memory:', verbose: (sql) => seen.push(sql) });
    seen.length = 0;
    db.prepare(`SELECT count(*) FROM calls`).get();
    expect(seen).toEqual(['SELECT count(*) FROM calls']);
  });
});
