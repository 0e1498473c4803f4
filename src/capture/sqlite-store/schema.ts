import { randomBytes } from 'node:crypto';
import type { SqliteMigration } from '../../sqlite/open.js';

/**
 * The SQLite capture store's schema, one migration per version (`PRAGMA user_version`), applied
 * by `openSqlite` (kind `capture-store`) when `store.ts` opens the file: all pending ones in one
 * transaction. To change the schema, append a migration; never edit one that has shipped.
 * Migrations may call the SQL functions `functions.ts` registers on the connection (the same
 * values the store computes when it writes): `gc_evidence_digest(chunk_id, document, title,
 * section, updated, hash, text)`, `gc_flags_key(status, record)` and `gc_chunk_ref(evidence, score,
 * fused_score, rank, withheld)`.
 */
export const CAPTURE_MIGRATIONS: readonly SqliteMigration[] = [
  {
    version: 1,
    up: `
      CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      CREATE TABLE captures (
        id INTEGER PRIMARY KEY,
        trace_id TEXT NOT NULL UNIQUE,
        request_id TEXT NOT NULL,
        captured_at TEXT NOT NULL,
        captured_ms INTEGER NOT NULL,
        route TEXT NOT NULL,
        method TEXT NOT NULL,
        status INTEGER NOT NULL,
        latency_ms REAL NOT NULL,
        query TEXT NOT NULL,
        mode TEXT NOT NULL,
        answer TEXT NOT NULL,
        refused INTEGER NOT NULL,
        refusal_reason TEXT,
        prompt_version TEXT NOT NULL,
        chat_model TEXT NOT NULL,
        embedding_model TEXT,
        input_tokens INTEGER,
        output_tokens INTEGER,
        total_tokens INTEGER,
        cost_usd REAL,
        retrieval_ms REAL NOT NULL,
        generation_ms REAL NOT NULL,
        total_ms REAL NOT NULL,
        truncated INTEGER NOT NULL
      );
      CREATE INDEX captures_time ON captures(captured_ms);
      CREATE TABLE capture_chunks (
        capture_id INTEGER NOT NULL REFERENCES captures(id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        chunk_id TEXT NOT NULL,
        document TEXT NOT NULL,
        title TEXT NOT NULL,
        section TEXT NOT NULL,
        updated TEXT,
        hash TEXT NOT NULL,
        text TEXT NOT NULL,
        score REAL NOT NULL,
        fused_score REAL NOT NULL,
        rank INTEGER NOT NULL,
        PRIMARY KEY (capture_id, position)
      );
      CREATE TABLE judgments (
        id INTEGER PRIMARY KEY,
        capture_id INTEGER NOT NULL REFERENCES captures(id) ON DELETE CASCADE,
        judge_version TEXT NOT NULL,
        judge_kind TEXT NOT NULL,
        judge_model TEXT NOT NULL,
        judge_prompt_version TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('ok', 'error')),
        claims TEXT NOT NULL,
        verified INTEGER NOT NULL,
        contradicted INTEGER NOT NULL,
        absent INTEGER NOT NULL,
        flags TEXT,
        faithful INTEGER,
        hallucinated INTEGER,
        refused INTEGER,
        error TEXT,
        raw_reply TEXT,
        attempts INTEGER NOT NULL,
        input_tokens INTEGER,
        output_tokens INTEGER,
        total_tokens INTEGER,
        cost_usd REAL,
        duration_ms REAL NOT NULL,
        judged_at TEXT NOT NULL,
        UNIQUE (capture_id, judge_version)
      );
      CREATE TABLE judge_jobs (
        capture_id INTEGER NOT NULL REFERENCES captures(id) ON DELETE CASCADE,
        judge_version TEXT NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt_ms INTEGER NOT NULL DEFAULT 0,
        lease_owner TEXT,
        lease_expires_ms INTEGER NOT NULL DEFAULT 0,
        last_error TEXT,
        PRIMARY KEY (capture_id, judge_version)
      );
    `,
  },
  {
    // Version 2:
    // - Each distinct chunk is stored once, in `evidence`, content-addressed: keyed by the SHA-256
    //   of what is stored for it (its id, document, title, section, updated date, index hash and
    //   redacted text). The same passages come back request after request, and their text was
    //   most of the bytes written per capture; a capture's chunk rows now hold only the reference,
    //   the scores and the rank. `hash` is still the index's content hash of the text the
    //   generator saw (drift compares it); two chunks whose texts redact alike keep their own.
    // - `capture_chunks` is WITHOUT ROWID: one b-tree per chunk row instead of a table plus its
    //   primary-key index. `captures_time` is dropped: no query reads captures by time.
    // - The live judge's queue: `judge_jobs` holds one row per capture waiting for a judgment of a
    //   judge version (not only leased or failed ones), keyed by (judge version, capture), so the
    //   worker's claim reads that version's settled pending rows (oldest first, by
    //   `judge_jobs_settled`) instead of every capture. `judge_marks` holds, per judge version,
    //   the highest capture id already considered for the queue.
    version: 2,
    up: `
      CREATE TABLE evidence (
        digest BLOB PRIMARY KEY,
        chunk_id TEXT NOT NULL,
        document TEXT NOT NULL,
        title TEXT NOT NULL,
        section TEXT NOT NULL,
        updated TEXT,
        hash TEXT NOT NULL,
        text TEXT NOT NULL
      );
      INSERT INTO evidence (digest, chunk_id, document, title, section, updated, hash, text)
        SELECT gc_evidence_digest(chunk_id, document, title, section, updated, hash, text), chunk_id, document, title, section, updated, hash, text
        FROM capture_chunks WHERE true
        ON CONFLICT (digest) DO NOTHING;
      CREATE TABLE capture_chunks_v2 (
        capture_id INTEGER NOT NULL REFERENCES captures(id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        evidence BLOB NOT NULL REFERENCES evidence(digest),
        score REAL NOT NULL,
        fused_score REAL NOT NULL,
        rank INTEGER NOT NULL,
        PRIMARY KEY (capture_id, position)
      ) WITHOUT ROWID;
      INSERT INTO capture_chunks_v2 (capture_id, position, evidence, score, fused_score, rank)
        SELECT capture_id, position, gc_evidence_digest(chunk_id, document, title, section, updated, hash, text), score, fused_score, rank FROM capture_chunks;
      DROP TABLE capture_chunks;
      ALTER TABLE capture_chunks_v2 RENAME TO capture_chunks;
      DROP INDEX captures_time;

      CREATE TABLE judge_jobs_v2 (
        judge_version TEXT NOT NULL,
        capture_id INTEGER NOT NULL REFERENCES captures(id) ON DELETE CASCADE,
        captured_ms INTEGER NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt_ms INTEGER NOT NULL DEFAULT 0,
        lease_owner TEXT,
        lease_expires_ms INTEGER NOT NULL DEFAULT 0,
        last_error TEXT,
        PRIMARY KEY (judge_version, capture_id)
      ) WITHOUT ROWID;
      INSERT INTO judge_jobs_v2 (judge_version, capture_id, captured_ms, attempts, next_attempt_ms, lease_owner, lease_expires_ms, last_error)
        SELECT q.judge_version, q.capture_id, c.captured_ms, q.attempts, q.next_attempt_ms, q.lease_owner, q.lease_expires_ms, q.last_error
        FROM judge_jobs q JOIN captures c ON c.id = q.capture_id;
      DROP TABLE judge_jobs;
      ALTER TABLE judge_jobs_v2 RENAME TO judge_jobs;
      CREATE INDEX judge_jobs_settled ON judge_jobs(judge_version, captured_ms);
      CREATE INDEX judge_jobs_leases ON judge_jobs(lease_owner) WHERE lease_owner IS NOT NULL;
      CREATE TABLE judge_marks (
        judge_version TEXT PRIMARY KEY,
        last_capture_id INTEGER NOT NULL
      );
    `,
  },
  {
    // Version 3: what the client received. `aborted` is 1 when the client hung up before the
    // response finished (such captures are never queued for the judge: a partial answer is not a
    // complete one); `first_token_ms` is the time to the first streamed answer text, NULL when the
    // answer was not streamed. Older rows get 0 and NULL, which is what they were.
    version: 3,
    up: `
      ALTER TABLE captures ADD COLUMN aborted INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE captures ADD COLUMN first_token_ms REAL;
    `,
  },
  {
    // Version 4: a judgment is stored as its record, JSON (`record`: the `StoredJudgment` without
    // its trace id), beside the few columns the queries read (the unique key, status, the flags
    // drift reports, the time). The judgment record grows (per-chunk verdicts, answer relevance…);
    // a new field is kept in `record` with no migration. A migration is needed only when a query
    // must filter on a new field: add its column, filled from json_extract(record, '$.field').
    version: 4,
    up: `
      CREATE TABLE judgments_v4 (
        id INTEGER PRIMARY KEY,
        capture_id INTEGER NOT NULL REFERENCES captures(id) ON DELETE CASCADE,
        judge_version TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('ok', 'error')),
        faithful INTEGER,
        hallucinated INTEGER,
        refused INTEGER,
        judged_at TEXT NOT NULL,
        record TEXT NOT NULL CHECK (json_valid(record)),
        UNIQUE (capture_id, judge_version)
      );
      INSERT INTO judgments_v4 (id, capture_id, judge_version, status, faithful, hallucinated, refused, judged_at, record)
        SELECT id, capture_id, judge_version, status, faithful, hallucinated, refused, judged_at,
          json_object(
            'judgeVersion', judge_version,
            'judge', json_object('kind', judge_kind, 'model', judge_model, 'promptVersion', judge_prompt_version),
            'status', status,
            'claims', json(claims),
            'counts', json_object('verified', verified, 'contradicted', contradicted, 'absent', absent),
            'flags', json(flags),
            'error', error,
            'rawReply', raw_reply,
            'attempts', attempts,
            'usage', json_object('inputTokens', input_tokens, 'outputTokens', output_tokens, 'totalTokens', total_tokens),
            'costUsd', cost_usd,
            'durationMs', duration_ms,
            'judgedAt', judged_at
          )
        FROM judgments;
      DROP TABLE judgments;
      ALTER TABLE judgments_v4 RENAME TO judgments;
    `,
  },
  {
    // Version 5: live outcome counts without reading judgment records. Each judgment keeps its
    // flags key (`src/contract/flags-key.ts`: its flags as one canonical text, NULL for a judge
    // error) and, copied from its capture, the capture time and whether the capture was aborted.
    // Counts per bucket of time and outcome are then range reads of the partial index
    // `judgments_outcomes` (judge version, flags key, capture time), one per distinct key and
    // bucket: no table row, no JSON and no sort per judgment (grouping a million judgments by key
    // in one statement sorted them: 1.5 s, against 0.1 s for the range reads). The outcome of each
    // distinct key is decided when the counts are read, so a change of the outcome table never
    // leaves stale outcomes in the file. `judgment_flag_keys` holds each judge version's distinct
    // keys (a few dozen): the counts and the outcome filter of a list read it.
    // `captures_time` (dropped in version 2, when nothing read captures by time) comes back for
    // time ranges, newest-first lists and the per-bucket capture counts, covering the flags those
    // counts read.
    version: 5,
    up: `
      ALTER TABLE judgments ADD COLUMN captured_ms INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE judgments ADD COLUMN capture_aborted INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE judgments ADD COLUMN flags_key TEXT;
      UPDATE judgments SET captured_ms = c.captured_ms, capture_aborted = c.aborted, flags_key = gc_flags_key(judgments.status, judgments.record)
        FROM captures c WHERE c.id = judgments.capture_id;
      CREATE INDEX judgments_outcomes ON judgments(judge_version, flags_key, captured_ms) WHERE capture_aborted = 0;
      CREATE TABLE judgment_flag_keys (
        judge_version TEXT NOT NULL,
        flags_key TEXT NOT NULL,
        PRIMARY KEY (judge_version, flags_key)
      ) WITHOUT ROWID;
      INSERT INTO judgment_flag_keys (judge_version, flags_key)
        SELECT DISTINCT judge_version, flags_key FROM judgments WHERE flags_key IS NOT NULL;
      CREATE INDEX captures_time ON captures(captured_ms, aborted, truncated, refused);
    `,
  },
  {
    // Version 6: the store's redaction key (`meta.redaction_key`), random, made once per file, so
    // the default redaction's placeholders (`[email:3fa2c1d9]`) match across restarts and across
    // the processes that share the file. Older files get theirs now (their earlier captures were
    // keyed per process and keep their tokens).
    version: 6,
    up: (db) => {
      db.prepare(`INSERT INTO meta (key, value) VALUES ('redaction_key', ?) ON CONFLICT (key) DO NOTHING`).run(newRedactionKey());
    },
  },
  {
    // Version 7: a gate refusal's withheld chunks (`Capture.withheldChunks`: what retrieval ranked,
    // never shown to the model, read by the live judge) are chunk rows marked `withheld`, at the
    // positions after the model's chunks. Earlier rows are the model's.
    version: 7,
    up: `ALTER TABLE capture_chunks ADD COLUMN withheld INTEGER NOT NULL DEFAULT 0;`,
  },
  {
    // Version 8: a capture's chunk references move into its own row (`captures.chunk_refs`, a
    // JSON array, by position, of [evidence key in lowercase hex, score, fused score, rank,
    // withheld 0/1]: `ChunkRef` in capture-log.ts) and `capture_chunks` goes: a row per chunk was
    // half the CPU of writing a capture. `gc_chunk_ref` renders each as the store writes it
    // (JavaScript's shortest exact form of each number; SQLite's JSON functions keep 15 digits,
    // which would change a score).
    version: 8,
    up: `
      ALTER TABLE captures ADD COLUMN chunk_refs TEXT NOT NULL DEFAULT '[]';
      UPDATE captures SET chunk_refs = refs.list
        FROM (
          SELECT capture_id, '[' || group_concat(gc_chunk_ref(evidence, score, fused_score, rank, withheld), ',' ORDER BY position) || ']' AS list
          FROM capture_chunks GROUP BY capture_id
        ) AS refs
        WHERE refs.capture_id = captures.id;
      DROP TABLE capture_chunks;
    `,
  },
  {
    // Version 9: evidence rows get an integer key (`evidence.id`, an INTEGER PRIMARY KEY, which
    // VACUUM keeps), and `chunk_refs` names evidence by it instead of by its 64-digit hex digest
    // (still UNIQUE, still how a chunk's row is found when it is written): a capture's row is a
    // third smaller, and so is what each commit writes to the log and each checkpoint copies. Only
    // the keys in `chunk_refs` change; the numbers keep their text. A key whose evidence row the
    // file lacks (a file edited by hand) stays as it was, and reading that capture names it.
    version: 9,
    up: (db) => {
      db.exec(`
        CREATE TABLE evidence_v9 (
          id INTEGER PRIMARY KEY,
          digest BLOB NOT NULL UNIQUE,
          chunk_id TEXT NOT NULL,
          document TEXT NOT NULL,
          title TEXT NOT NULL,
          section TEXT NOT NULL,
          updated TEXT,
          hash TEXT NOT NULL,
          text TEXT NOT NULL
        );
        INSERT INTO evidence_v9 (digest, chunk_id, document, title, section, updated, hash, text)
          SELECT digest, chunk_id, document, title, section, updated, hash, text FROM evidence ORDER BY rowid;
        DROP TABLE evidence;
        ALTER TABLE evidence_v9 RENAME TO evidence;
      `);
      const ids = new Map(db.prepare(`SELECT lower(hex(digest)), id FROM evidence`).raw().all() as [string, number][]);
      db.function('gc_chunk_refs_by_id', { deterministic: true }, (refs) =>
        String(refs).replace(/\["([0-9a-f]{64})",/g, (whole, hex: string) => {
          const id = ids.get(hex);
          return id === undefined ? whole : `[${id},`;
        }),
      );
      db.exec(`UPDATE captures SET chunk_refs = gc_chunk_refs_by_id(chunk_refs) WHERE chunk_refs <> '[]'`);
    },
  },
];

/** The capture schema this code writes (`PRAGMA user_version`): the last migration's. */
export const CAPTURE_SCHEMA_VERSION = CAPTURE_MIGRATIONS.at(-1)!.version;

/** 32 random bytes, base64url: 43 characters. */
export function newRedactionKey(): string {
  return randomBytes(32).toString('base64url');
}
