import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { IndexError } from '../errors.js';
import { BackgroundCheckpointer } from './store-checkpointer.js';
import { MIGRATIONS } from './store-schema.js';
import { nullableFlag, toJudgment, type CaptureRow, type JudgmentRow } from './store-rows.js';
import type { Capture, CaptureSink, CapturedChunk, StoredJudgment } from './types.js';

/**
 * The capture store: one SQLite file (separate from the index) holding captured traces, their
 * chunks (each distinct chunk stored once, content-addressed), the live judge's judgments and its
 * queue. This module is the only place that writes SQL against it. A judgment is UNIQUE on
 * (capture, judge version), so no crash or restart can ever store two.
 */

/** Marks a SQLite file as a groundcheck capture store (`PRAGMA application_id`, "GCC1"). */
const APPLICATION_ID = 0x47434331;
export const CAPTURE_SCHEMA_VERSION = 3;

/**
 * Captures moved into a judge version's queue per claim, at most. A new judge version meeting a
 * file of a million captures queues them over many short write transactions (the worker yields
 * between them), never in one long one that would hold up the middleware's writes.
 */
export const JUDGE_QUEUE_BATCH = 2000;

/**
 * While a background thread takes the checkpoints, SQLite's own inline checkpoint only triggers
 * past this many log pages (~40 MB): a bound on the log should the thread fall behind.
 */
const INLINE_CHECKPOINT_BACKSTOP_PAGES = 10_000;
/** SQLite's default: an inline checkpoint once the log passes 1000 pages. */
const INLINE_CHECKPOINT_PAGES = 1000;

/** Distinct chunk texts whose evidence key a store remembers (by total length; emptied when full). */
const MAX_REMEMBERED_TEXT_CHARS = 4_000_000;

type EvidenceFields = Pick<CapturedChunk, 'chunkId' | 'document' | 'title' | 'section' | 'updated' | 'hash' | 'text'>;

/**
 * The key of an `evidence` row: SHA-256 of the JSON array of what is stored for the chunk (also
 * registered as `gc_evidence_digest` for migrations). The id, index hash and metadata are part of
 * the key because the index hash is of the text before redaction: two chunks can share a stored
 * text and still differ.
 */
function evidenceDigest(chunk: EvidenceFields): Buffer {
  return createHash('sha256').update(JSON.stringify([chunk.chunkId, chunk.document, chunk.title, chunk.section, chunk.updated, chunk.hash, chunk.text]), 'utf8').digest();
}

/** A chunk's evidence key, the fields it was computed from, and whether this file holds the row. */
interface EvidenceEntry extends EvidenceFields {
  digest: Buffer;
  stored: boolean;
}

/**
 * The statements the judge worker's claim runs, exported so a test can check their query plans
 * (an index search on the queue, never a scan of `captures`).
 */
export const JUDGE_QUEUE_SQL = {
  /** The highest capture id already considered for a judge version's queue. */
  mark: `SELECT last_capture_id FROM judge_marks WHERE judge_version = ?`,
  /** The next batch of captures past the mark: how many, and the last id. */
  nextBatch: `SELECT count(*) AS n, max(id) AS upTo FROM (SELECT id FROM captures WHERE id > @from ORDER BY id LIMIT @batch)`,
  /** Queue the batch's judgeable captures: not truncated, not aborted, not judged by this version. */
  enqueue: `
    INSERT INTO judge_jobs (judge_version, capture_id, captured_ms)
    SELECT @judgeVersion, c.id, c.captured_ms FROM captures c
    WHERE c.id > @from AND c.id <= @upTo AND c.truncated = 0 AND c.aborted = 0
      AND NOT EXISTS (SELECT 1 FROM judgments j WHERE j.capture_id = c.id AND j.judge_version = @judgeVersion)
    ON CONFLICT (judge_version, capture_id) DO NOTHING`,
  setMark: `
    INSERT INTO judge_marks (judge_version, last_capture_id) VALUES (?, ?)
    ON CONFLICT (judge_version) DO UPDATE SET last_capture_id = excluded.last_capture_id`,
  /**
   * Settled, not in backoff, not leased by anyone (or the lease expired), oldest first. Reads the
   * version's settled jobs in `judge_jobs_settled` order and stops at `limit`: captures still
   * settling are never visited.
   */
  claimable: `
    SELECT q.capture_id FROM judge_jobs q INDEXED BY judge_jobs_settled
    WHERE q.judge_version = @judgeVersion AND q.captured_ms <= @settledBefore AND q.next_attempt_ms <= @now
      AND (q.lease_owner IS NULL OR q.lease_expires_ms <= @now)
      AND NOT EXISTS (SELECT 1 FROM judgments j WHERE j.capture_id = q.capture_id AND j.judge_version = @judgeVersion)
    ORDER BY q.captured_ms, q.capture_id LIMIT @limit`,
} as const;

export const DEFAULT_CAPTURE_DB_PATH = '.groundcheck/captures.db';

export interface OpenCaptureStoreOptions {
  /** SQLite file; parent folders are created. [path='.groundcheck/captures.db'] */
  path?: string;
  /** Create the file when missing. [create=true] */
  create?: boolean;
  /** Milliseconds a writer waits for another process's lock. [busyTimeoutMs=5000] */
  busyTimeoutMs?: number;
  /**
   * Take write-ahead-log checkpoints on a worker thread (started at the first `writeCaptures`)
   * instead of inside a commit on the event loop. `false` leaves them to SQLite, inline.
   * [backgroundCheckpoints=true]
   */
  backgroundCheckpoints?: boolean;
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
  private readonly writeTransaction: (captures: readonly Capture[], written: EvidenceEntry[]) => void;
  /** Chunks seen by this store, by index hash: their evidence key, and whether the file holds the row. */
  private readonly evidenceByHash = new Map<string, EvidenceEntry>();
  private rememberedTextChars = 0;
  /** Whether a write starts the checkpoint thread: not when turned off, once the thread failed, or once the store is closed. */
  private backgroundCheckpoints: boolean;
  private checkpointer: BackgroundCheckpointer | null = null;

  constructor(options: OpenCaptureStoreOptions = {}) {
    const path = options.path ?? DEFAULT_CAPTURE_DB_PATH;
    this.path = path;
    const inMemory = path === ':memory:';
    this.backgroundCheckpoints = options.backgroundCheckpoints !== false && !inMemory;
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
      this.db.function('gc_evidence_digest', { deterministic: true }, (chunkId, document, title, section, updated, hash, text) =>
        evidenceDigest({
          chunkId: String(chunkId),
          document: String(document),
          title: String(title),
          section: String(section),
          updated: updated === null ? null : String(updated),
          hash: String(hash),
          text: String(text),
        }),
      );
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
    this.writeTransaction = this.db.transaction((captures: readonly Capture[], written: EvidenceEntry[]) => this.writeBatch(captures, written));
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
          total_tokens, cost_usd, retrieval_ms, generation_ms, total_ms, truncated, aborted, first_token_ms)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (trace_id) DO NOTHING`),
      insertEvidence: db.prepare(`
        INSERT INTO evidence (digest, chunk_id, document, title, section, updated, hash, text) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (digest) DO NOTHING`),
      insertChunk: db.prepare(`INSERT INTO capture_chunks (capture_id, position, evidence, score, fused_score, rank) VALUES (?, ?, ?, ?, ?, ?)`),
      captureByTraceId: db.prepare(`SELECT * FROM captures WHERE trace_id = ?`),
      captureById: db.prepare(`SELECT * FROM captures WHERE id = ?`),
      captureIdOf: db.prepare(`SELECT id FROM captures WHERE trace_id = ?`).pluck(),
      // Columns named as the fields of CapturedChunk: each row is the chunk, no mapping.
      chunksOf: db.prepare(`
        SELECT e.chunk_id AS chunkId, e.document, e.title, e.section, e.updated, e.hash, e.text, k.score, k.fused_score AS fusedScore, k.rank
        FROM capture_chunks k JOIN evidence e ON e.digest = k.evidence
        WHERE k.capture_id = ? ORDER BY k.position`),
      judgmentsOf: db.prepare(`SELECT * FROM judgments WHERE capture_id = ? ORDER BY id`),
      newestCaptures: db.prepare(`SELECT * FROM captures ORDER BY id DESC LIMIT ?`),
      capturesBefore: db.prepare(`SELECT * FROM captures WHERE id < ? ORDER BY id DESC LIMIT ?`),
      countCaptures: db.prepare(`SELECT count(*) FROM captures`).pluck(),
      countJudgments: db.prepare(`SELECT count(*) FROM judgments WHERE judge_version = ?`).pluck(),
      mark: db.prepare(JUDGE_QUEUE_SQL.mark).pluck(),
      nextBatch: db.prepare(JUDGE_QUEUE_SQL.nextBatch),
      enqueue: db.prepare(JUDGE_QUEUE_SQL.enqueue),
      setMark: db.prepare(JUDGE_QUEUE_SQL.setMark),
      claimable: db.prepare(JUDGE_QUEUE_SQL.claimable).pluck(),
      anyPastMark: db.prepare(`SELECT EXISTS (SELECT 1 FROM captures WHERE id > ?)`).pluck(),
      // Every judgeable capture up to the mark without a judgment has a job row (jobs are deleted
      // only together with storing the judgment); past the mark, count the captures themselves.
      countPending: db.prepare(`
        SELECT
          (SELECT count(*) FROM judge_jobs q
            WHERE q.judge_version = @judgeVersion AND q.capture_id <= @mark
              AND NOT EXISTS (SELECT 1 FROM judgments j WHERE j.capture_id = q.capture_id AND j.judge_version = @judgeVersion))
          + (SELECT count(*) FROM captures c
            WHERE c.id > @mark AND c.truncated = 0 AND c.aborted = 0
              AND NOT EXISTS (SELECT 1 FROM judgments j WHERE j.capture_id = c.id AND j.judge_version = @judgeVersion))`).pluck(),
      lease: db.prepare(`UPDATE judge_jobs SET lease_owner = @owner, lease_expires_ms = @expires WHERE judge_version = @judgeVersion AND capture_id = @captureId`),
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
      // The job row normally exists (it was claimed); never re-create one for a capture judged meanwhile.
      recordFailure: db.prepare(`
        INSERT INTO judge_jobs (judge_version, capture_id, captured_ms, attempts, next_attempt_ms, lease_owner, lease_expires_ms, last_error)
        SELECT @judgeVersion, c.id, c.captured_ms, 1, @nextAttemptMs, NULL, 0, @error FROM captures c
        WHERE c.id = @captureId AND NOT EXISTS (SELECT 1 FROM judgments j WHERE j.capture_id = c.id AND j.judge_version = @judgeVersion)
        ON CONFLICT (judge_version, capture_id) DO UPDATE SET attempts = attempts + 1, next_attempt_ms = excluded.next_attempt_ms,
          lease_owner = NULL, lease_expires_ms = 0, last_error = excluded.last_error
        RETURNING attempts`).pluck(),
      releaseLease: db.prepare(`UPDATE judge_jobs SET lease_owner = NULL, lease_expires_ms = 0 WHERE capture_id = ? AND judge_version = ? AND lease_owner = ?`),
      releaseOwner: db.prepare(`UPDATE judge_jobs SET lease_owner = NULL, lease_expires_ms = 0 WHERE lease_owner = ?`),
      leaseOwners: db.prepare(`SELECT DISTINCT lease_owner FROM judge_jobs WHERE lease_owner IS NOT NULL AND lease_expires_ms > ?`).pluck(),
      evidence: db.prepare(`
        SELECT c.trace_id AS traceId, c.captured_at AS capturedAt, e.chunk_id AS chunkId, e.hash, j.judge_version AS judgeVersion,
               j.status, j.faithful, j.hallucinated
        FROM judgments j JOIN captures c ON c.id = j.capture_id JOIN capture_chunks k ON k.capture_id = c.id JOIN evidence e ON e.digest = k.evidence
        ORDER BY c.id, j.id, k.position`),
      capturedChunkRefs: db.prepare(`
        SELECT DISTINCT c.trace_id AS traceId, e.chunk_id AS chunkId, e.hash
        FROM capture_chunks k JOIN captures c ON c.id = k.capture_id JOIN evidence e ON e.digest = k.evidence`),
    };
  }

  /**
   * Persist captures in one transaction; a trace id already stored is skipped. A chunk is written
   * to `evidence` only the first time this file sees it; later captures reference it by key.
   */
  writeCaptures(captures: readonly Capture[]): void {
    if (captures.length === 0) return;
    if (this.checkpointer === null && this.backgroundCheckpoints) this.startCheckpointer();
    const written: EvidenceEntry[] = [];
    try {
      this.writeTransaction(captures, written);
    } catch (error) {
      // Forget which chunks the file holds: should an evidence row ever be missing (a file edited
      // by hand), the next write inserts it again instead of failing on the reference for good.
      this.evidenceByHash.clear();
      this.rememberedTextChars = 0;
      throw error;
    }
    // Committed: later captures of these chunks skip the evidence insert.
    for (const entry of written) entry.stored = true;
  }

  private writeBatch(captures: readonly Capture[], written: EvidenceEntry[]): void {
    const { insertCapture, insertEvidence, insertChunk } = this.statements;
    for (const capture of captures) {
      // Positional parameters throughout: binding by name cost ~15% more per row (bench:middleware).
      const result = insertCapture.run(
        capture.traceId,
        capture.requestId,
        capture.capturedAt,
        Date.parse(capture.capturedAt) || Date.now(),
        capture.route,
        capture.method,
        capture.status,
        capture.latencyMs,
        capture.query,
        capture.mode,
        capture.answer,
        capture.refused ? 1 : 0,
        capture.refusalReason,
        capture.promptVersion,
        capture.models.chat,
        capture.models.embedding,
        capture.usage.inputTokens,
        capture.usage.outputTokens,
        capture.usage.totalTokens,
        capture.costUsd,
        capture.timings.retrievalMs,
        capture.timings.generationMs,
        capture.timings.totalMs,
        capture.truncated ? 1 : 0,
        capture.aborted ? 1 : 0,
        capture.firstTokenMs,
      );
      if (result.changes === 0) continue;
      const captureId = Number(result.lastInsertRowid);
      for (let position = 0; position < capture.chunks.length; position++) {
        const chunk = capture.chunks[position]!;
        const evidence = this.evidenceOf(chunk);
        if (!evidence.stored) {
          insertEvidence.run(evidence.digest, chunk.chunkId, chunk.document, chunk.title, chunk.section, chunk.updated, chunk.hash, chunk.text);
          written.push(evidence);
        }
        insertChunk.run(captureId, position, evidence.digest, chunk.score, chunk.fusedScore, chunk.rank);
      }
    }
  }

  /**
   * A chunk's evidence key, remembered by the chunk's index hash (short, unlike the text) and
   * checked field by field, so a repeat costs a map lookup and a few comparisons, not a SHA-256.
   * The default redaction hands back the same string for the same passage, which makes the text
   * comparison a pointer check.
   */
  private evidenceOf(chunk: CapturedChunk): EvidenceEntry {
    const known = this.evidenceByHash.get(chunk.hash);
    if (
      known !== undefined &&
      known.text === chunk.text &&
      known.chunkId === chunk.chunkId &&
      known.hash === chunk.hash &&
      known.document === chunk.document &&
      known.title === chunk.title &&
      known.section === chunk.section &&
      known.updated === chunk.updated
    ) {
      return known;
    }
    const entry: EvidenceEntry = {
      digest: evidenceDigest(chunk),
      stored: false,
      chunkId: chunk.chunkId,
      document: chunk.document,
      title: chunk.title,
      section: chunk.section,
      updated: chunk.updated,
      hash: chunk.hash,
      text: chunk.text,
    };
    if (known !== undefined) {
      this.evidenceByHash.delete(chunk.hash);
      this.rememberedTextChars -= known.text.length;
    }
    if (this.rememberedTextChars + chunk.text.length > MAX_REMEMBERED_TEXT_CHARS) {
      this.evidenceByHash.clear();
      this.rememberedTextChars = 0;
    }
    if (chunk.text.length <= MAX_REMEMBERED_TEXT_CHARS) {
      this.evidenceByHash.set(chunk.hash, entry);
      this.rememberedTextChars += chunk.text.length;
    }
    return entry;
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
    const rows = (
      options.beforeId !== undefined ? this.statements.capturesBefore.all(options.beforeId, limit) : this.statements.newestCaptures.all(limit)
    ) as CaptureRow[];
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

  /** Captures still waiting for a judgment of this judge version (settled or not, leased or not; truncated and aborted ones never wait). */
  pendingCount(judgeVersion: string): number {
    return this.statements.countPending.get({ judgeVersion, mark: this.markOf(judgeVersion) }) as number;
  }

  /**
   * Lease up to `limit` settled, unjudged captures to `owner` for `leaseMs`, in one write
   * transaction (so two workers never lease the same capture). Captures in backoff or leased by
   * someone else are skipped.
   *
   * The captures come from the judge version's queue (`judge_jobs`), read through its primary
   * key, so a poll costs the same with a thousand judged captures or a million. Before claiming,
   * captures written since the last claim (at most {@link JUDGE_QUEUE_BATCH}) join the queue; a
   * judge version never seen before starts from the first capture, so it judges old captures too.
   * {@link hasUnqueuedCaptures} says when more are waiting to join.
   */
  claimPending(options: ClaimOptions): Capture[] {
    const { judgeVersion } = options;
    const claim = this.db.transaction(() => {
      this.fillQueue(judgeVersion);
      const ids = this.statements.claimable.all({
        settledBefore: options.settledBefore,
        judgeVersion,
        now: options.now,
        limit: Math.max(1, options.limit),
      }) as number[];
      for (const captureId of ids) {
        this.statements.lease.run({ captureId, judgeVersion, owner: options.owner, expires: options.now + options.leaseMs });
      }
      return ids;
    });
    const ids = claim.immediate();
    return ids.map((id) => this.toCapture(this.statements.captureById.get(id) as CaptureRow));
  }

  /** Whether captures were written that have not yet joined this judge version's queue (the next claims add them). */
  hasUnqueuedCaptures(judgeVersion: string): boolean {
    return this.statements.anyPastMark.get(this.markOf(judgeVersion)) === 1;
  }

  private markOf(judgeVersion: string): number {
    return (this.statements.mark.get(judgeVersion) as number | undefined) ?? 0;
  }

  /**
   * Move the next captures past the judge version's mark into its queue and advance the mark.
   * Safe because capture ids only grow: a write transaction (this one is IMMEDIATE) sees every
   * committed capture, and a capture committed later gets a larger id. (Deleting the newest
   * captures would let SQLite reuse their ids; nothing deletes captures.)
   */
  private fillQueue(judgeVersion: string): void {
    const from = this.markOf(judgeVersion);
    const { n, upTo } = this.statements.nextBatch.get({ from, batch: JUDGE_QUEUE_BATCH }) as { n: number; upTo: number | null };
    if (n === 0 || upTo === null) return;
    this.statements.enqueue.run({ judgeVersion, from, upTo });
    this.statements.setMark.run(judgeVersion, upTo);
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
    this.backgroundCheckpoints = false;
    this.checkpointer?.close();
    this.checkpointer = null;
    if (this.db.open) this.db.close();
  }

  private startCheckpointer(): void {
    const fallBack = () => {
      this.checkpointer = null;
      this.backgroundCheckpoints = false;
      if (this.db.open) this.db.pragma(`wal_autocheckpoint = ${INLINE_CHECKPOINT_PAGES}`);
    };
    try {
      this.checkpointer = new BackgroundCheckpointer(this.path, fallBack);
      this.db.pragma(`wal_autocheckpoint = ${INLINE_CHECKPOINT_BACKSTOP_PAGES}`);
    } catch {
      fallBack();
    }
  }

  private captureId(traceId: string): number | undefined {
    return (this.statements.captureIdOf.get(traceId) as number | undefined) ?? undefined;
  }

  private toCapture(row: CaptureRow): Capture {
    const chunks = this.statements.chunksOf.all(row.id) as CapturedChunk[];
    return {
      traceId: row.trace_id,
      requestId: row.request_id,
      capturedAt: row.captured_at,
      route: row.route,
      method: row.method,
      status: row.status,
      latencyMs: row.latency_ms,
      aborted: row.aborted === 1,
      firstTokenMs: row.first_token_ms,
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
