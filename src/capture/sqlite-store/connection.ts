import type Database from 'better-sqlite3';
import { openSqlite } from '../../sqlite/open.js';
import { SqliteCaptureLog } from './capture-log.js';
import { SqliteDriftQueries } from './drift-queries.js';
import { fileIdentity, type FileIdentity } from './file-state.js';
import { registerCaptureFunctions } from './functions.js';
import { SqliteJudgeQueue } from './judge-queue.js';
import { SqliteCaptureListing } from './listing.js';
import { SqliteRates } from './rates.js';
import { CAPTURE_MIGRATIONS } from './schema.js';

/**
 * One open connection to a capture store file with its parts (one per job) and the identity of
 * the file it opened. The store replaces the whole connection when its file was deleted or
 * replaced, or to pick up permissions fixed since (SQLite keeps a file it opened read-only so).
 */
export interface StoreConnection {
  db: Database.Database;
  log: SqliteCaptureLog;
  listing: SqliteCaptureListing;
  rates: SqliteRates;
  queue: SqliteJudgeQueue;
  drift: SqliteDriftQueries;
  /** The file opened (`null` for `:memory:`). */
  identity: FileIdentity | null;
  /** `meta.redaction_key` of the file. */
  redactionKey: string;
}

export interface OpenConnectionOptions {
  path: string;
  create: boolean;
  /** How long the open itself waits for another connection's lock (synchronously); calls made later never wait inside SQLite. */
  openBusyTimeoutMs: number;
  now: () => number;
  /** The key a file created now gets instead of a random one (a deleted file recreated keeps its process's key). */
  redactionKey?: string;
  verbose?: (sql: string) => void;
}

export function openStoreConnection(options: OpenConnectionOptions): StoreConnection {
  const { path, now } = options;
  const { db } = openSqlite({
    path,
    kind: 'capture-store',
    migrations: CAPTURE_MIGRATIONS,
    create: options.create,
    notFoundMessage: `no capture store at ${path}`,
    pathHint: 'pass another --db path',
    busyTimeoutMs: options.openBusyTimeoutMs,
    // WAL + NORMAL is durable across process crashes (only an OS crash can lose the last commits).
    pragmas: ['foreign_keys = ON', 'synchronous = NORMAL'],
    configure: registerCaptureFunctions,
    onCreate: (connection) => {
      connection.prepare(`INSERT INTO meta (key, value) VALUES ('created_at', ?)`).run(new Date(now()).toISOString());
      if (options.redactionKey !== undefined) {
        connection.prepare(`INSERT INTO meta (key, value) VALUES ('redaction_key', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`).run(options.redactionKey);
      }
    },
    ...(options.verbose ? { verbose: options.verbose } : {}),
  });
  try {
    // A lock held by another process makes a call fail at once (SQLITE_BUSY); the store retries
    // it on a timer, so the event loop never sits in SQLite's busy wait.
    db.pragma('busy_timeout = 0');
    const log = new SqliteCaptureLog(db, now);
    const redactionKey = db.prepare(`SELECT value FROM meta WHERE key = 'redaction_key'`).pluck().get() as string | undefined;
    if (redactionKey === undefined) throw new Error(`${path} has no redaction key (meta.redaction_key)`);
    return {
      db,
      log,
      listing: new SqliteCaptureListing(db, log),
      rates: new SqliteRates(db),
      queue: new SqliteJudgeQueue(db, log),
      drift: new SqliteDriftQueries(db),
      identity: path === ':memory:' ? null : fileIdentity(path),
      redactionKey,
    };
  } catch (error) {
    db.close();
    throw error;
  }
}
