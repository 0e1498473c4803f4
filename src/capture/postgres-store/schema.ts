import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { InvalidInputError } from '../../errors.js';

/**
 * The Postgres capture store's schema, one migration per version. `schema_migrations` holds the
 * versions applied; {@link migrate} applies the pending ones in one transaction under an advisory
 * lock, so many processes opening the store at once migrate it once. To change the schema,
 * append a migration; never edit one that has shipped.
 *
 * The tables hold the same data as the SQLite store (`../sqlite-store/schema.ts`, at its version
 * 5, and version 2 here is its 7): captures, content-addressed evidence, judgments as their JSON record beside the indexed
 * columns the queries read (flags key, capture time, aborted), the distinct flags keys per judge
 * version, and the judge queue. What differs is how captures join a judge version's queue:
 * SQLite moves captures past a mark of capture ids, safe there because one writer at a time
 * commits growing ids. Here many writers commit concurrently, so a lower id can commit after a
 * higher one; each capture keeps the id of the transaction that wrote it (`write_xid`), and the
 * mark is a point in (write_xid, id) order below which every transaction has ended
 * (`pg_snapshot_xmin`): nothing can still commit behind it.
 */
export interface PostgresMigration {
  version: number;
  up: string;
}

export const POSTGRES_CAPTURE_MIGRATIONS: readonly PostgresMigration[] = [
  {
    version: 1,
    up: `
      CREATE TABLE meta (key text PRIMARY KEY, value text NOT NULL);
      CREATE TABLE captures (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        write_xid xid8 NOT NULL DEFAULT pg_current_xact_id(),
        trace_id text NOT NULL UNIQUE,
        request_id text NOT NULL,
        captured_at text NOT NULL,
        captured_ms bigint NOT NULL,
        route text NOT NULL,
        method text NOT NULL,
        status integer NOT NULL,
        latency_ms double precision NOT NULL,
        query text NOT NULL,
        mode text NOT NULL,
        answer text NOT NULL,
        refused boolean NOT NULL,
        refusal_reason text,
        prompt_version text NOT NULL,
        chat_model text NOT NULL,
        embedding_model text,
        input_tokens integer,
        output_tokens integer,
        total_tokens integer,
        cost_usd double precision,
        retrieval_ms double precision NOT NULL,
        generation_ms double precision NOT NULL,
        total_ms double precision NOT NULL,
        truncated boolean NOT NULL,
        aborted boolean NOT NULL,
        first_token_ms double precision
      );
      CREATE INDEX captures_time ON captures (captured_ms, id) INCLUDE (aborted, truncated, refused);
      CREATE INDEX captures_written ON captures (write_xid, id);
      CREATE TABLE evidence (
        digest bytea PRIMARY KEY,
        chunk_id text NOT NULL,
        document text NOT NULL,
        title text NOT NULL,
        section text NOT NULL,
        updated text,
        hash text NOT NULL,
        text text NOT NULL
      );
      CREATE TABLE capture_chunks (
        capture_id bigint NOT NULL REFERENCES captures (id) ON DELETE CASCADE,
        position integer NOT NULL,
        evidence bytea NOT NULL REFERENCES evidence (digest),
        score double precision NOT NULL,
        fused_score double precision NOT NULL,
        rank integer NOT NULL,
        PRIMARY KEY (capture_id, position)
      );
      CREATE INDEX capture_chunks_evidence ON capture_chunks (evidence);
      CREATE TABLE judgments (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        capture_id bigint NOT NULL REFERENCES captures (id) ON DELETE CASCADE,
        judge_version text NOT NULL,
        status text NOT NULL CHECK (status IN ('ok', 'error')),
        faithful boolean,
        hallucinated boolean,
        refused boolean,
        judged_at text NOT NULL,
        record json NOT NULL,
        captured_ms bigint NOT NULL,
        capture_aborted boolean NOT NULL,
        flags_key text,
        UNIQUE (capture_id, judge_version)
      );
      CREATE INDEX judgments_outcomes ON judgments (judge_version, captured_ms, flags_key) WHERE NOT capture_aborted;
      CREATE TABLE judgment_flag_keys (
        judge_version text NOT NULL,
        flags_key text NOT NULL,
        PRIMARY KEY (judge_version, flags_key)
      );
      CREATE TABLE judge_jobs (
        judge_version text NOT NULL,
        capture_id bigint NOT NULL REFERENCES captures (id) ON DELETE CASCADE,
        captured_ms bigint NOT NULL,
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_ms bigint NOT NULL DEFAULT 0,
        lease_owner text,
        lease_expires_ms bigint NOT NULL DEFAULT 0,
        last_error text,
        PRIMARY KEY (judge_version, capture_id)
      );
      CREATE INDEX judge_jobs_settled ON judge_jobs (judge_version, captured_ms, capture_id);
      CREATE INDEX judge_jobs_leases ON judge_jobs (lease_owner) WHERE lease_owner IS NOT NULL;
      CREATE TABLE judge_marks (
        judge_version text PRIMARY KEY,
        mark_xid xid8 NOT NULL,
        mark_id bigint NOT NULL
      );
    `,
  },
  {
    // Version 2 (SQLite's version 7): a gate refusal's withheld chunks (`Capture.withheldChunks`)
    // are chunk rows marked `withheld`, at the positions after the model's chunks.
    version: 2,
    up: `ALTER TABLE capture_chunks ADD COLUMN withheld boolean NOT NULL DEFAULT false;`,
  },
];

/** The schema version this code writes. */
export const POSTGRES_CAPTURE_SCHEMA_VERSION = POSTGRES_CAPTURE_MIGRATIONS.at(-1)!.version;

export interface MigrateOptions {
  /** Where the store is, for messages (no password). */
  location: string;
  /** Create the tables when the schema holds none. */
  create: boolean;
  /** Clock for `created_at`. */
  now: () => number;
}

/**
 * Bring the schema up to {@link POSTGRES_CAPTURE_SCHEMA_VERSION} and return the store's
 * redaction key (made at creation, kept in `meta`).
 *
 * @throws InvalidInputError `not_found` (no store here and `create: false`), `schema_too_new`.
 */
export async function migrate(client: pg.PoolClient, options: MigrateOptions): Promise<{ redactionKey: string }> {
  await client.query('BEGIN');
  try {
    // One migrator at a time per schema: the lock key is the schema's name.
    await client.query(`SELECT pg_advisory_xact_lock(hashtext('groundcheck.capture-store:' || current_schema()))`);
    const exists = (await client.query(`SELECT to_regclass('schema_migrations') IS NOT NULL AS present`)).rows[0].present as boolean;
    if (!exists) {
      if (!options.create) throw new InvalidInputError(`no capture store at ${options.location}: its schema has no groundcheck tables`, { code: 'not_found' });
      await client.query(`CREATE TABLE schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
    }
    const applied = Number((await client.query(`SELECT coalesce(max(version), 0) AS version FROM schema_migrations`)).rows[0].version);
    if (applied > POSTGRES_CAPTURE_SCHEMA_VERSION) {
      throw new InvalidInputError(`the capture store at ${options.location} has schema version ${applied}, newer than this groundcheck knows (${POSTGRES_CAPTURE_SCHEMA_VERSION}): upgrade groundcheck`, { code: 'schema_too_new' });
    }
    for (const migration of POSTGRES_CAPTURE_MIGRATIONS) {
      if (migration.version <= applied) continue;
      await client.query(migration.up);
      await client.query(`INSERT INTO schema_migrations (version) VALUES ($1)`, [migration.version]);
    }
    await client.query(`INSERT INTO meta (key, value) VALUES ('created_at', $1) ON CONFLICT (key) DO NOTHING`, [new Date(options.now()).toISOString()]);
    await client.query(`INSERT INTO meta (key, value) VALUES ('redaction_key', $1) ON CONFLICT (key) DO NOTHING`, [randomBytes(32).toString('base64url')]);
    const redactionKey = (await client.query(`SELECT value FROM meta WHERE key = 'redaction_key'`)).rows[0].value as string;
    await client.query('COMMIT');
    return { redactionKey };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
