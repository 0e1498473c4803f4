import pg from 'pg';
import { InvalidInputError } from '../../errors.js';

/** Where a capture store lives, when it is in Postgres: a `postgres://` or `postgresql://` URL. */
export type PostgresUrl = `postgres://${string}` | `postgresql://${string}`;

/** Whether a store location (`--db`, `GROUNDCHECK_CAPTURE_DB`, `captureRag({ store })`) names a Postgres database. */
export function isPostgresUrl(location: unknown): location is PostgresUrl {
  return typeof location === 'string' && /^postgres(ql)?:\/\//i.test(location);
}

/**
 * The URL as it may be logged: no password (in the user part or as a `password` parameter), and
 * the schema when it is not the default.
 *
 * @example
 * safeLocation('postgres://app:s3cret@db:5432/groundcheck') // 'postgres://app@db:5432/groundcheck'
 */
export function safeLocation(url: string, schema?: string): string {
  let safe: string;
  try {
    const parsed = new URL(url);
    parsed.password = '';
    parsed.searchParams.delete('password');
    safe = parsed.toString();
  } catch {
    // Not a URL we can parse: keep the scheme and host part only, never what could be a password.
    safe = url.replace(/\/\/[^@/]*@/, '//***@');
  }
  return schema === undefined || schema === 'public' ? safe : `${safe} (schema ${schema})`;
}

/** bigint (ids, ms times, counts) read as numbers: every value the store keeps is far below 2^53. */
const INT8_OID = 20;
const NUMERIC_TYPES = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => (oid === INT8_OID && format !== 'binary' ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format ?? 'text'))) as typeof pg.types.getTypeParser,
};

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export interface PostgresPoolOptions {
  url: string;
  schema?: string;
  /** Most connections this process opens to the store. */
  maxConnections: number;
  /** Milliseconds to wait for a connection before the call fails. */
  connectTimeoutMs: number;
}

/** A pool whose connections use the store's schema; connects lazily (nothing happens until the first query). */
export function createPool(options: PostgresPoolOptions): pg.Pool {
  if (options.schema !== undefined && !SCHEMA_NAME.test(options.schema)) {
    throw new InvalidInputError(`option schema "${String(options.schema).slice(0, 80)}" is invalid: use lower-case letters, digits and _`, { code: 'invalid_option' });
  }
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.maxConnections,
    connectionTimeoutMillis: options.connectTimeoutMs,
    application_name: 'groundcheck',
    types: NUMERIC_TYPES,
    ...(options.schema !== undefined ? { options: `-c search_path=${options.schema}` } : {}),
  });
  // An idle connection that the server drops (restart, failover) must not crash the process: the
  // pool discards it and the next query opens another.
  pool.on('error', () => undefined);
  return pool;
}

/** Run `work` in one transaction on one connection; rolled back when it throws. */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>, begin = 'BEGIN'): Promise<T> {
  const client = await pool.connect();
  let broken = false;
  try {
    await client.query(begin);
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    try {
      await client.query('ROLLBACK');
    } catch {
      broken = true;
    }
    throw error;
  } finally {
    client.release(broken);
  }
}
