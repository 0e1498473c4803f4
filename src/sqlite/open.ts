import Database from 'better-sqlite3';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseFileError } from '../errors.js';
import { kindOfApplicationId, kindOfLegacyFile, LEGACY_SHARED_APPLICATION_ID, SQLITE_FILE_KINDS, type SqliteFileKind, type SqliteFileKindInfo } from './registry.js';

/**
 * The one opener of groundcheck's SQLite files (the index, the capture store, the LLM cache): it
 * checks the file's `application_id` against the registry, turns on WAL, refuses files of another
 * kind or of a newer schema with input errors that name both, and runs the pending migrations in
 * one transaction. The modules that own each file call it and then prepare their statements.
 */

/** One schema version. Migrations run in order, all pending ones in one transaction. */
export interface SqliteMigration<Context = undefined> {
  version: number;
  /** SQL for `exec`, or a function for what SQL alone cannot do (it gets the opener's `context`). */
  up: string | ((db: Database.Database, context: Context) => void);
}

export interface OpenSqliteOptions<Context = undefined> {
  /** The file; `:memory:` for a throwaway database. Parent folders are created. */
  path: string;
  kind: SqliteFileKind;
  /** Every schema version, oldest first; the last one's version is the schema this code writes. */
  migrations: readonly SqliteMigration<Context>[];
  /** Passed to function migrations (the index's vector dimensions). */
  context?: Context;
  /** Create the file when it does not exist. [create=true] */
  create?: boolean;
  /** The `not_found` message when `create` is false. [notFoundMessage='no <label> at <path>'] */
  notFoundMessage?: string;
  /** Appended to the `foreign_database` and `wrong_file_kind` messages, e.g. `pass another --db path`. */
  pathHint?: string;
  /** Milliseconds a writer waits for another connection's lock. [busyTimeoutMs=5000] */
  busyTimeoutMs?: number;
  /** More pragmas, set after WAL and the busy timeout, e.g. `foreign_keys = ON`. [pragmas=[]] */
  pragmas?: readonly string[];
  /** Load extensions and register SQL functions (migrations may call them), before the schema is read. */
  configure?(db: Database.Database): void;
  /**
   * An existing file of this kind, before its migrations: throw to refuse it (the opener closes the
   * file), or drop its tables and return `'reset'` to have it migrated again from version 0.
   */
  check?(db: Database.Database, state: { version: number }): 'reset' | void;
  /** A new file, inside the transaction that creates its schema: write its first rows. */
  onCreate?(db: Database.Database): void;
  /** Called with the SQL of every statement run (tests and benchmarks count them). */
  verbose?: (sql: string) => void;
}

export interface OpenedSqlite {
  db: Database.Database;
  /** The schema was created now (a new or empty file). */
  created: boolean;
  /** The schema version the file had (0 when created). */
  fromVersion: number;
  /** The schema version it has now: the last migration's. */
  version: number;
}

/**
 * Open (or create) a groundcheck SQLite file of one kind and bring its schema up to date.
 *
 * @throws DatabaseFileError `not_found`, `not_writable` (the file or its folder cannot be written: it cannot be created, or WAL cannot make its files), `not_a_database`, `foreign_database`, `wrong_file_kind`, `schema_too_new`.
 * @example
 * const { db } = openSqlite({ path: '.groundcheck/llm-cache.db', kind: 'llm-cache', migrations: CACHE_MIGRATIONS });
 */
export function openSqlite<Context = undefined>(options: OpenSqliteOptions<Context>): OpenedSqlite {
  const info = SQLITE_FILE_KINDS[options.kind];
  const { path } = options;
  const fail = (code: string, message: string, extra: { found?: string; cause?: unknown } = {}) =>
    new DatabaseFileError(code, message, { path, expected: info.kind, ...extra });
  const inMemory = path === ':memory:';
  const exists = !inMemory && existsSync(path);
  if (!exists && !inMemory && options.create === false) throw fail('not_found', options.notFoundMessage ?? `no ${info.label} at ${path}`);
  if (exists && statSync(path).isDirectory()) throw fail('not_a_database', `${path} is a folder, not a ${info.label} file`);
  if (!exists && !inMemory) {
    try {
      mkdirSync(dirname(path), { recursive: true });
    } catch (error) {
      throw fail('not_writable', `cannot create the ${info.label} at ${path}: its folder cannot be created (${(error as Error).message})`, { cause: error });
    }
  }

  let db: Database.Database | undefined;
  try {
    const verbose = options.verbose;
    db = new Database(path, verbose ? { verbose: (sql) => verbose(String(sql)) } : {});
    // Reading the journal mode is the first read of the file: a file that is not SQLite fails here.
    db.pragma('journal_mode = WAL');
  } catch (error) {
    if (db?.open) db.close();
    // A file that is not there yet cannot be "not SQLite": the folder refused it (permissions, a
    // read-only or immutable folder, a full disk). WAL also needs its -wal and -shm files beside it.
    const code = String((error as { code?: unknown }).code ?? '');
    if (!inMemory && (!exists || code.startsWith('SQLITE_CANTOPEN') || code.startsWith('SQLITE_READONLY'))) {
      throw fail('not_writable', `cannot ${exists ? 'open' : 'create'} the ${info.label} at ${path}: the folder ${dirname(path)} is not writable by this process (${(error as Error).message})`, { cause: error });
    }
    throw fail('not_a_database', `${path} is not a SQLite database (${(error as Error).message})`, { cause: error });
  }
  try {
    db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
    for (const pragma of options.pragmas ?? []) db.pragma(pragma);
    options.configure?.(db);
    return prepareSchema(db, options, info, fail);
  } catch (error) {
    db.close();
    throw error;
  }
}

function prepareSchema<Context>(
  db: Database.Database,
  options: OpenSqliteOptions<Context>,
  info: SqliteFileKindInfo,
  fail: (code: string, message: string, extra?: { found?: string }) => DatabaseFileError,
): OpenedSqlite {
  const { path } = options;
  const latest = options.migrations.at(-1)?.version ?? 0;
  options.migrations.forEach((migration, position) => {
    if (migration.version !== position + 1) throw new Error(`${info.kind} migrations must be versions 1, 2, 3… in order; found ${migration.version} at position ${position + 1}`);
  });
  const applicationId = db.pragma('application_id', { simple: true }) as number;
  const userVersion = db.pragma('user_version', { simple: true }) as number;
  const tables = new Set(db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).pluck().all() as string[]);
  const hint = options.pathHint ? `; ${options.pathHint}` : '';
  const wrongKind = (found: SqliteFileKindInfo) =>
    fail('wrong_file_kind', `${path} is a ${found.label}, not a ${info.label}${hint}`, { found: found.kind });

  let created = false;
  let restamp = false;
  let fromVersion = userVersion;
  if (applicationId === info.applicationId) {
    // One of ours.
  } else if (applicationId === LEGACY_SHARED_APPLICATION_ID) {
    const legacy = kindOfLegacyFile(tables);
    if (legacy === undefined) throw fail('foreign_database', `${path} is a SQLite database but not a ${info.label}${hint}`);
    if (legacy.kind !== info.kind) throw wrongKind(legacy);
    restamp = true;
    if (userVersion === 0) fromVersion = info.legacyUnversionedIs ?? 0;
  } else if (kindOfApplicationId(applicationId) !== undefined) {
    throw wrongKind(kindOfApplicationId(applicationId)!);
  } else if (applicationId === 0 && tables.size === 0) {
    created = true;
    fromVersion = 0;
  } else {
    throw fail('foreign_database', `${path} is a SQLite database but not a ${info.label}${hint}`);
  }
  if (fromVersion > latest) {
    throw fail('schema_too_new', `${path} was written by a newer groundcheck (${info.schemaLabel} ${fromVersion}, this one knows ${latest}); upgrade groundcheck`);
  }
  if (!created && options.check?.(db, { version: fromVersion }) === 'reset') fromVersion = 0;
  if (created || restamp || fromVersion < latest) {
    db.transaction(() => {
      migrate(db, options.migrations, fromVersion, options.context as Context);
      if (created || restamp) db.pragma(`application_id = ${info.applicationId}`);
      if (restamp && fromVersion === latest) db.pragma(`user_version = ${latest}`);
      if (created) options.onCreate?.(db);
    })();
  }
  return { db, created, fromVersion, version: latest };
}

/**
 * Run the migrations past `fromVersion` in order, setting `user_version` after each. Call it
 * inside a transaction (`openSqlite` does); exported for a store that rebuilds itself.
 */
export function migrate<Context>(db: Database.Database, migrations: readonly SqliteMigration<Context>[], fromVersion: number, context: Context): void {
  for (const migration of migrations) {
    if (migration.version <= fromVersion) continue;
    if (typeof migration.up === 'string') db.exec(migration.up);
    else migration.up(db, context);
    db.pragma(`user_version = ${migration.version}`);
  }
}
