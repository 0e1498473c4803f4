import Database from 'better-sqlite3';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { IndexError } from '../errors.js';
import { MIGRATIONS } from './store-schema.js';
import { nullableFlag, toJudgment, type CaptureRow, type ChunkRow, type JudgmentRow } from './store-rows.js';
import type { Capture, CaptureSink, CapturedChunk, StoredJudgment } from './types.js';

/**
 * The capture store: one SQLite file (separate from the index) holding captured traces, their
 * chunks, the live judge's judgments and its job state. This module is the only place that writes
 * SQL against it. A judgment is UNIQUE on (capture, judge version), so no crash or restart can
 * ever store two.
 */

/** Marks a SQLite file as a groundcheck capture store (`PRAGMA application_id`, "GCC1"). */
const APPLICATION_ID = 0x47434331;
export const CAPTURE_SCHEMA_VERSION = 1;
export const DEFAULT_CAPTURE_DB_PATH = '.groundcheck/captures.db';

export interface OpenCaptureStoreOptions {
  /** SQLite file; parent folders are created. [path='.groundcheck/captures.db'] */
  path?: string;
  /** Create the file when missing. [create=true] */
  create?: boolean;
  /** Milliseconds a writer waits for another process's lock. [busyTimeoutMs=5000] */
  busyTimeoutMs?: number;
}

/** A capture row for lists: the capture plus its newest judgment, if any. */
export interface CaptureWithJudgment {
  capture: Capture;
  judgment: StoredJudgment | null;
}

export interface ListCapturesOptions {
  /** [limit=50], at most 500. */
  limit?: number;
  /** Only judgments of this judge version count; default: the newest judgment of any version. */
  judgeVersion?: string;
  /** Only captures whose id is below this (for paging). */
  beforeId?: number;
}

export interface ClaimOptions {
  judgeVersion: string;
  /** Only captures made at or before this time (ms since epoch): the settle delay. */
  settledBefore: number;
  limit: number;
  owner: string;
  leaseMs: number;
  now: number;
}

export interface EvidenceReference {
  traceId: string;
  capturedAt: string;
  chunkId: string;
  hash: string;
  judgeVersion: string;
  status: 'ok' | 'error';
  faithful: boolean | null;
  hallucinated: boolean | null;
}

/**
 * Open (or create) a capture store.
 *
 * @throws IndexError `not_found`, `not_a_database`, `foreign_database`, `schema_too_new`.
 * @example
 * const store = openCaptureStore({ path: '.groundcheck/captures.db' });
 * app.use(captureRag({ store }));
 */
export function openCaptureStore(options: OpenCaptureStoreOptions = {}): CaptureStore {
  return new CaptureStore(options);
}

export class CaptureStore implements CaptureSink {
  readonly path: string;
  readonly db: Database.Database;
  private readonly statements: ReturnType<CaptureStore['prepare']>;

  constructor(options: OpenCaptureStoreOptions = {}) {
    const path = options.path ?? DEFAULT_CAPTURE_DB_PATH;
    this.path = path;
    const inMemory = path === ':memory:';
    const exists = !inMemory && existsSync(path);
    if (!exists && !inMemory && options.create === false) {
      throw new IndexError('not_found', `no capture store at ${path}`);
    }
    if (exists && statSync(path).isDirectory()) throw new IndexError('not_a_database', `${path} is a folder, not a capture store file`);
    if (!exists && !inMemory) mkdirSync(dirname(path), { recursive: true });
    try {
      this.db = new Database(path);
      this.db.pragma('journal_mode = WAL');
    } catch (error) {
      throw new IndexError('not_a_database', `${path} is not a SQLite database (${(error as Error).message})`, { cause: error });
    }
    try {
      this.db.pragma('foreign_keys = ON');
      this.db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
      // WAL + NORMAL is durable across process crashes (only an OS crash can lose the last commits).
      this.db.pragma('synchronous = NORMAL');
      this.prepareSchema();
    } catch (error) {
      this.db.close();
      throw error;
    }
    this.statements = this.prepare();
  }

  private prepareSchema(): void {
    const applicationId = this.db.pragma('application_id', { simple: true }) as number;
    const userVersion = this.db.pragma('user_version', { simple: true }) as number;
    const tableCount = (this.db.prepare(`SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'`).get() as { n: number }).n;
    if (applicationId !== APPLICATION_ID) {
      if (tableCount > 0 || applicationId !== 0) {
        throw new IndexError('foreign_database', `${this.path} is a SQLite database but not a groundcheck capture store`);
      }
      this.migrate(0);
      this.db.pragma(`application_id = ${APPLICATION_ID}`);
      this.db.prepare(`INSERT INTO meta (key, value) VALUES ('created_at', ?)`).run(new Date().toISOString());
      return;
    }
    if (userVersion > CAPTURE_SCHEMA_VERSION) {
      throw new IndexError(
        'schema_too_new',
        `${this.path} was written by a newer groundcheck (capture schema ${userVersion}, this one knows ${CAPTURE_SCHEMA_VERSION}); upgrade groundcheck`,
      );
    }
    if (userVersion < CAPTURE_SCHEMA_VERSION) this.migrate(userVersion);
  }

  private migrate(fromVersion: number): void {
    this.db.transaction(() => {
      for (const migration of MIGRATIONS.filter((candidate) => candidate.version > fromVersion)) {
        this.db.exec(migration.sql);
        this.db.pragma(`user_version = ${migration.version}`);
      }
    })();
  }

  private prepare() {
    const db = this.db;
    return {
      insertCapture: db.prepare(`
        INSERT INTO captures (trace_id, request_id, captured_at, captured_ms, route, method, status, latency_ms, query, mode,
          answer, refused, refusal_reason, prompt_version, chat_model, embedding_model, input_tokens, output_tokens,
          total_tokens, cost_usd, retrieval_ms, generation_ms, total_ms, truncated)
        VALUES (@traceId, @requestId, @capturedAt, @capturedMs, @route, @method, @status, @latencyMs, @query, @mode,
          @answer, @refused, @refusalReason, @promptVersion, @chatModel, @embeddingModel, @inputTokens, @outputTokens,
          @totalTokens, @costUsd, @retrievalMs, @generationMs, @totalMs, @truncated)
        ON CONFLICT (trace_id) DO NOTHING`),
      insertChunk: db.prepare(`
        INSERT INTO capture_chunks (capture_id, position, chunk_id, document, title, section, updated, hash, text, score, fused_score, rank)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
      captureByTraceId: db.prepare(`SELECT * FROM captures WHERE trace_id = ?`),
      chunksOf: db.prepare(`SELECT * FROM capture_chunks WHERE capture_id = ? ORDER BY position`),
      judgmentsOf: db.prepare(`SELECT * FROM judgments WHERE capture_id = ? ORDER BY id`),
      countCaptures: db.prepare(`SELECT count(*) FROM captures`).pluck(),
      countJudgments: db.prepare(`SELECT count(*) FROM judgments WHERE judge_version = ?`).pluck(),
      pending: db.prepare(`
        SELECT c.id FROM captures c
        WHERE c.captured_ms <= @settledBefore AND c.truncated = 0
          AND NOT EXISTS (SELECT 1 FROM judgments j WHERE j.capture_id = c.id AND j.judge_version = @judgeVersion)
          AND NOT EXISTS (
            SELECT 1 FROM judge_jobs q WHERE q.capture_id = c.id AND q.judge_version = @judgeVersion
              AND (q.next_attempt_ms > @now OR (q.lease_owner IS NOT NULL AND q.lease_expires_ms > @now)))
        ORDER BY c.id LIMIT @limit`).pluck(),
      countPending: db.prepare(`
        SELECT count(*) FROM captures c
        WHERE c.truncated = 0
          AND NOT EXISTS (SELECT 1 FROM judgments j WHERE j.capture_id = c.id AND j.judge_version = ?)`).pluck(),
      lease: db.prepare(`
        INSERT INTO judge_jobs (capture_id, judge_version, lease_owner, lease_expires_ms) VALUES (@captureId, @judgeVersion, @owner, @expires)
        ON CONFLICT (capture_id, judge_version) DO UPDATE SET lease_owner = excluded.lease_owner, lease_expires_ms = excluded.lease_expires_ms`),
      jobAttempts: db.prepare(`SELECT attempts FROM judge_jobs WHERE capture_id = ? AND judge_version = ?`).pluck(),
      insertJudgment: db.prepare(`
        INSERT INTO judgments (capture_id, judge_version, judge_kind, judge_model, judge_prompt_version, status, claims, verified,
          contradicted, absent, flags, faithful, hallucinated, refused, error, raw_reply, attempts, input_tokens, output_tokens,
          total_tokens, cost_usd, duration_ms, judged_at)
        VALUES (@captureId, @judgeVersion, @judgeKind, @judgeModel, @judgePromptVersion, @status, @claims, @verified,
          @contradicted, @absent, @flags, @faithful, @hallucinated, @refused, @error, @rawReply, @attempts, @inputTokens, @outputTokens,
          @totalTokens, @costUsd, @durationMs, @judgedAt)
        ON CONFLICT (capture_id, judge_version) DO NOTHING`),
      deleteJob: db.prepare(`DELETE FROM judge_jobs WHERE capture_id = ? AND judge_version = ?`),
      recordFailure: db.prepare(`
        INSERT INTO judge_jobs (capture_id, judge_version, attempts, next_attempt_ms, lease_owner, lease_expires_ms, last_error)
        VALUES (@captureId, @judgeVersion, 1, @nextAttemptMs, NULL, 0, @error)
        ON CONFLICT (capture_id, judge_version) DO UPDATE SET attempts = attempts + 1, next_attempt_ms = excluded.next_attempt_ms,
          lease_owner = NULL, lease_expires_ms = 0, last_error = excluded.last_error
        RETURNING attempts`).pluck(),
      releaseLease: db.prepare(`UPDATE judge_jobs SET lease_owner = NULL, lease_expires_ms = 0 WHERE capture_id = ? AND judge_version = ? AND lease_owner = ?`),
      releaseOwner: db.prepare(`UPDATE judge_jobs SET lease_owner = NULL, lease_expires_ms = 0 WHERE lease_owner = ?`),
      leaseOwners: db.prepare(`SELECT DISTINCT lease_owner FROM judge_jobs WHERE lease_owner IS NOT NULL AND lease_expires_ms > ?`).pluck(),
      evidence: db.prepare(`
        SELECT c.trace_id AS traceId, c.captured_at AS capturedAt, k.chunk_id AS chunkId, k.hash, j.judge_version AS judgeVersion,
               j.status, j.faithful, j.hallucinated
        FROM judgments j JOIN captures c ON c.id = j.capture_id JOIN capture_chunks k ON k.capture_id = c.id
        ORDER BY c.id, j.id, k.position`),
      capturedChunkRefs: db.prepare(`SELECT DISTINCT c.trace_id AS traceId, k.chunk_id AS chunkId, k.hash FROM capture_chunks k JOIN captures c ON c.id = k.capture_id`),
    };
  }

  /** Persist captures in one transaction; a trace id already stored is skipped. */
  writeCaptures(captures: readonly Capture[]): void {
    if (captures.length === 0) return;
    this.db.transaction(() => {
      for (const capture of captures) {
        const result = this.statements.insertCapture.run({
          traceId: capture.traceId,
          requestId: capture.requestId,
          capturedAt: capture.capturedAt,
          capturedMs: Date.parse(capture.capturedAt) || Date.now(),
          route: capture.route,
          method: capture.method,
          status: capture.status,
          latencyMs: capture.latencyMs,
          query: capture.query,
          mode: capture.mode,
          answer: capture.answer,
          refused: capture.refused ? 1 : 0,
          refusalReason: capture.refusalReason,
          promptVersion: capture.promptVersion,
          chatModel: capture.models.chat,
          embeddingModel: capture.models.embedding,
          inputTokens: capture.usage.inputTokens,
          outputTokens: capture.usage.outputTokens,
          totalTokens: capture.usage.totalTokens,
          costUsd: capture.costUsd,
          retrievalMs: capture.timings.retrievalMs,
          generationMs: capture.timings.generationMs,
          totalMs: capture.timings.totalMs,
          truncated: capture.truncated ? 1 : 0,
        });
        if (result.changes === 0) continue;
        const captureId = Number(result.lastInsertRowid);
        // Positional parameters: six or so rows per capture, and binding by name cost ~15% more (bench:middleware).
        capture.chunks.forEach((chunk, position) => {
          this.statements.insertChunk.run(captureId, position, chunk.chunkId, chunk.document, chunk.title, chunk.section, chunk.updated, chunk.hash, chunk.text, chunk.score, chunk.fusedScore, chunk.rank);
        });
      }
    })();
  }

  /** One capture by trace id, with every judgment stored for it (oldest first). */
  getCapture(traceId: string): { capture: Capture; judgments: StoredJudgment[] } | undefined {
    const row = this.statements.captureByTraceId.get(traceId) as CaptureRow | undefined;
    if (!row) return undefined;
    return { capture: this.toCapture(row), judgments: (this.statements.judgmentsOf.all(row.id) as JudgmentRow[]).map((judgment) => toJudgment(judgment, row.trace_id)) };
  }

  /** Newest captures first, each with its newest judgment (of `judgeVersion` when given). */
  listCaptures(options: ListCapturesOptions = {}): (CaptureWithJudgment & { id: number })[] {
    const limit = Math.max(1, Math.min(500, Math.floor(options.limit ?? 50)));
    const rows = this.db
      .prepare(`SELECT * FROM captures ${options.beforeId !== undefined ? 'WHERE id < ?' : ''} ORDER BY id DESC LIMIT ?`)
      .all(...(options.beforeId !== undefined ? [options.beforeId, limit] : [limit])) as CaptureRow[];
    return rows.map((row) => {
      const judgments = (this.statements.judgmentsOf.all(row.id) as JudgmentRow[]).filter(
        (judgment) => options.judgeVersion === undefined || judgment.judge_version === options.judgeVersion,
      );
      const newest = judgments.at(-1);
      return { id: row.id, capture: this.toCapture(row), judgment: newest ? toJudgment(newest, row.trace_id) : null };
    });
  }

  captureCount(): number {
    return this.statements.countCaptures.get() as number;
  }

  judgmentCount(judgeVersion: string): number {
    return this.statements.countJudgments.get(judgeVersion) as number;
  }

  /** Captures still waiting for a judgment of this judge version (settled or not, leased or not). */
  pendingCount(judgeVersion: string): number {
    return this.statements.countPending.get(judgeVersion) as number;
  }

  /**
   * Lease up to `limit` settled, unjudged captures to `owner` for `leaseMs`, in one write
   * transaction (so two workers never lease the same capture). Captures in backoff or leased by
   * someone else are skipped.
   */
  claimPending(options: ClaimOptions): Capture[] {
    const claim = this.db.transaction(() => {
      const ids = this.statements.pending.all({
        settledBefore: options.settledBefore,
        judgeVersion: options.judgeVersion,
        now: options.now,
        limit: Math.max(1, options.limit),
      }) as number[];
      for (const captureId of ids) {
        this.statements.lease.run({ captureId, judgeVersion: options.judgeVersion, owner: options.owner, expires: options.now + options.leaseMs });
      }
      return ids;
    });
    const ids = claim.immediate();
    return ids.map((id) => this.toCapture(this.db.prepare(`SELECT * FROM captures WHERE id = ?`).get(id) as CaptureRow));
  }

  /** How many failed attempts a capture has for this judge version. */
  attemptsOf(traceId: string, judgeVersion: string): number {
    const captureId = this.captureId(traceId);
    if (captureId === undefined) return 0;
    return (this.statements.jobAttempts.get(captureId, judgeVersion) as number | undefined) ?? 0;
  }

  /**
   * Store a judgment and drop the job, atomically. Returns false when one already exists for this
   * capture and judge version (it is kept; the new one is discarded).
   */
  saveJudgment(judgment: StoredJudgment): boolean {
    const captureId = this.captureId(judgment.traceId);
    if (captureId === undefined) throw new Error(`saveJudgment: no capture ${judgment.traceId}`);
    return this.db.transaction(() => {
      const result = this.statements.insertJudgment.run({
        captureId,
        judgeVersion: judgment.judgeVersion,
        judgeKind: judgment.judge.kind,
        judgeModel: judgment.judge.model,
        judgePromptVersion: judgment.judge.promptVersion,
        status: judgment.status,
        claims: JSON.stringify(judgment.claims),
        verified: judgment.counts.verified,
        contradicted: judgment.counts.contradicted,
        absent: judgment.counts.absent,
        flags: judgment.flags ? JSON.stringify(judgment.flags) : null,
        faithful: judgment.flags ? nullableFlag(judgment.flags.faithful) : null,
        hallucinated: judgment.flags ? (judgment.flags.hallucinated ? 1 : 0) : null,
        refused: judgment.flags ? (judgment.flags.refused ? 1 : 0) : null,
        error: judgment.error,
        rawReply: judgment.rawReply,
        attempts: judgment.attempts,
        inputTokens: judgment.usage.inputTokens,
        outputTokens: judgment.usage.outputTokens,
        totalTokens: judgment.usage.totalTokens,
        costUsd: judgment.costUsd,
        durationMs: judgment.durationMs,
        judgedAt: judgment.judgedAt,
      });
      this.statements.deleteJob.run(captureId, judgment.judgeVersion);
      return result.changes > 0;
    }).immediate();
  }

  /** Count a failed attempt, release the lease and schedule the next try. Returns the attempts so far. */
  recordFailure(traceId: string, judgeVersion: string, error: string, nextAttemptMs: number): number {
    const captureId = this.captureId(traceId);
    if (captureId === undefined) return 0;
    return this.statements.recordFailure.get({ captureId, judgeVersion, nextAttemptMs, error }) as number;
  }

  /** Give a leased capture back without counting an attempt (the worker paused or stopped). */
  releaseLease(traceId: string, judgeVersion: string, owner: string): void {
    const captureId = this.captureId(traceId);
    if (captureId !== undefined) this.statements.releaseLease.run(captureId, judgeVersion, owner);
  }

  /** Release every lease held by `owner` (a worker that stopped, or a process that died). */
  releaseLeasesOf(owner: string): number {
    return this.statements.releaseOwner.run(owner).changes;
  }

  /** Owners holding unexpired leases. */
  leaseOwners(now: number): string[] {
    return this.statements.leaseOwners.all(now) as string[];
  }

  /** Every (judgment, evidence chunk) pair: what drift checks compare with the index. */
  judgedEvidence(): EvidenceReference[] {
    return (this.statements.evidence.all() as (Omit<EvidenceReference, 'faithful' | 'hallucinated'> & { faithful: number | null; hallucinated: number | null })[]).map(
      (row) => ({ ...row, faithful: row.faithful === null ? null : row.faithful === 1, hallucinated: row.hallucinated === null ? null : row.hallucinated === 1 }),
    );
  }

  /** Every captured (trace, chunk id, hash), judged or not. */
  capturedChunkRefs(): { traceId: string; chunkId: string; hash: string }[] {
    return this.statements.capturedChunkRefs.all() as { traceId: string; chunkId: string; hash: string }[];
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  private captureId(traceId: string): number | undefined {
    return (this.db.prepare(`SELECT id FROM captures WHERE trace_id = ?`).pluck().get(traceId) as number | undefined) ?? undefined;
  }

  private toCapture(row: CaptureRow): Capture {
    const chunks = (this.statements.chunksOf.all(row.id) as ChunkRow[]).map(
      (chunk): CapturedChunk => ({
        chunkId: chunk.chunk_id,
        document: chunk.document,
        title: chunk.title,
        section: chunk.section,
        updated: chunk.updated,
        hash: chunk.hash,
        text: chunk.text,
        score: chunk.score,
        fusedScore: chunk.fused_score,
        rank: chunk.rank,
      }),
    );
    return {
      traceId: row.trace_id,
      requestId: row.request_id,
      capturedAt: row.captured_at,
      route: row.route,
      method: row.method,
      status: row.status,
      latencyMs: row.latency_ms,
      query: row.query,
      mode: row.mode === 'norag' ? 'norag' : 'rag',
      chunks,
      answer: row.answer,
      refused: row.refused === 1,
      refusalReason: row.refusal_reason === 'gate' || row.refusal_reason === 'model' ? row.refusal_reason : null,
      promptVersion: row.prompt_version,
      models: { chat: row.chat_model, embedding: row.embedding_model },
      usage: { inputTokens: row.input_tokens, outputTokens: row.output_tokens, totalTokens: row.total_tokens },
      costUsd: row.cost_usd,
      timings: { retrievalMs: row.retrieval_ms, generationMs: row.generation_ms, totalMs: row.total_ms },
      truncated: row.truncated === 1,
    };
  }
}
