/**
 * The capture store's schema, one migration per version (`PRAGMA user_version`). Only
 * `store.ts` applies them.
 */
export const MIGRATIONS: { version: number; sql: string }[] = [
  {
    version: 1,
    sql: `
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
];
