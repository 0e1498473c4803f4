import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe } from 'vitest';
import { openPostgresCaptureStore, type PostgresCaptureStore } from '../capture/postgres-store/store.js';

/**
 * Tests against a real Postgres. `GROUNDCHECK_TEST_POSTGRES_URL` names a server the tests may
 * create and drop databases on (`scripts/test-postgres.sh` and `.ci/run` start a throwaway one and
 * set it). Each test file gets its own new database, dropped after its tests; each store a test
 * opens gets its own new schema in it. Without the variable the Postgres tests are skipped with a
 * logged reason, never passed.
 */

export const TEST_POSTGRES_URL_VARIABLE = 'GROUNDCHECK_TEST_POSTGRES_URL';

/** The server the tests use, or `undefined` when none is configured. */
export function testPostgresUrl(): string | undefined {
  const url = process.env[TEST_POSTGRES_URL_VARIABLE];
  return url === undefined || url.trim() === '' ? undefined : url;
}

/** The URL of another database on the same server. */
export function databaseUrl(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export interface TestPostgres {
  /** The URL of this file's database (set once the file's `beforeAll` ran). */
  url(): string;
  /** A new, empty schema in this file's database. */
  newSchema(): Promise<string>;
  /** A new store in a new schema, closed after the file's tests (or earlier by the test). */
  newStore(options?: { create?: boolean }): Promise<PostgresCaptureStore>;
}

/**
 * `describe` for tests that need Postgres: with a server configured, the body runs with a new
 * database of its own (created before, dropped after); without one, the block is skipped and the
 * reason logged.
 */
export function describeWithPostgres(name: string, body: (postgres: TestPostgres) => void): void {
  const serverUrl = testPostgresUrl();
  if (serverUrl === undefined) {
    console.warn(
      `[groundcheck tests] skipping "${name}": ${TEST_POSTGRES_URL_VARIABLE} is not set. These tests need a real Postgres server they may create databases on. ` +
        `Run them with scripts/test-postgres.sh (it starts a throwaway cluster with initdb/pg_ctl, sets the variable and stops the cluster after), ` +
        `or set ${TEST_POSTGRES_URL_VARIABLE}=postgres://user@127.0.0.1:5432/postgres yourself.`,
    );
    describe.skip(name, () => body(unavailable));
    return;
  }
  const database = `gc_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const url = databaseUrl(serverUrl, database);
  const stores: PostgresCaptureStore[] = [];
  let schemas = 0;
  const postgres: TestPostgres = {
    url: () => url,
    async newSchema() {
      const schema = `s${++schemas}_${randomBytes(3).toString('hex')}`;
      await withClient(url, (client) => client.query(`CREATE SCHEMA ${schema}`));
      return schema;
    },
    async newStore(options = {}) {
      const store = await openPostgresCaptureStore({ url, schema: await postgres.newSchema(), maxConnections: 4, ...options });
      stores.push(store);
      return store;
    },
  };
  describe(name, () => {
    beforeAll(async () => {
      await withClient(serverUrl, (client) => client.query(`CREATE DATABASE ${database}`));
    });
    afterAll(async () => {
      for (const store of stores) await store.close();
      await withClient(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`));
    });
    body(postgres);
  });
}

const unavailable: TestPostgres = {
  url: () => {
    throw new Error(`${TEST_POSTGRES_URL_VARIABLE} is not set`);
  },
  newSchema: () => Promise.reject(new Error(`${TEST_POSTGRES_URL_VARIABLE} is not set`)),
  newStore: () => Promise.reject(new Error(`${TEST_POSTGRES_URL_VARIABLE} is not set`)),
};
