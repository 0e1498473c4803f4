import type Database from 'better-sqlite3';
import type { Capture, CapturedChunk, StoredJudgment } from '../types.js';
import { capturesFromRows, evidenceDigest, sameEvidenceFields, type EvidenceFields } from '../capture-row.js';
import { idList, judgmentFromRecord, type CaptureRow, type JudgmentRow } from './rows.js';

/**
 * The capture log of the SQLite store: writing captures with their content-addressed evidence,
 * and reading captures back (one, or many by id list in a fixed number of statements).
 */

/** Chunk rows per INSERT statement (7 parameters each, far below SQLite's 32,766). */
const MAX_CHUNK_ROWS_PER_STATEMENT = 128;

/** Distinct chunk texts whose evidence key a store remembers (by total length; emptied when full). */
const MAX_REMEMBERED_TEXT_CHARS = 4_000_000;

/** Registers `gc_evidence_digest` on a connection, for migrations that key evidence rows in SQL. */
export function registerEvidenceDigest(db: Database.Database): void {
  db.function('gc_evidence_digest', { deterministic: true }, (chunkId, document, title, section, updated, hash, text) =>
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
}

/** A chunk's evidence key, the fields it was computed from, and whether this file holds the row. */
interface EvidenceEntry extends EvidenceFields {
  digest: Buffer;
  stored: boolean;
}

export class SqliteCaptureLog {
  private readonly statements;
  private readonly writeTransaction: (captures: readonly Capture[], written: EvidenceEntry[]) => void;
  /** Chunks seen by this store, by index hash: their evidence key, and whether the file holds the row. */
  private readonly evidenceByHash = new Map<string, EvidenceEntry>();
  private rememberedTextChars = 0;
  private readonly insertChunksByCount = new Map<number, Database.Statement>();

  constructor(
    private readonly db: Database.Database,
    private readonly now: () => number,
  ) {
    this.statements = {
      insertCapture: db.prepare(`
        INSERT INTO captures (trace_id, request_id, captured_at, captured_ms, route, method, status, latency_ms, query, mode,
          answer, refused, refusal_reason, prompt_version, chat_model, embedding_model, input_tokens, output_tokens,
          total_tokens, cost_usd, retrieval_ms, generation_ms, total_ms, truncated, aborted, first_token_ms)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (trace_id) DO NOTHING`),
      insertEvidence: db.prepare(`
        INSERT INTO evidence (digest, chunk_id, document, title, section, updated, hash, text) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (digest) DO NOTHING`),
      captureByTraceId: db.prepare(`SELECT * FROM captures WHERE trace_id = ?`),
      captureIdOf: db.prepare(`SELECT id FROM captures WHERE trace_id = ?`).pluck(),
      capturesByIds: db.prepare(`SELECT * FROM captures WHERE id IN (SELECT value FROM json_each(?))`),
      // Columns named as the fields of CapturedChunk: each row is the chunk (plus its capture id), no mapping.
      chunksByCaptureIds: db.prepare(`
        SELECT k.capture_id AS captureId, k.withheld, e.chunk_id AS chunkId, e.document, e.title, e.section, e.updated, e.hash, e.text,
               k.score, k.fused_score AS fusedScore, k.rank
        FROM capture_chunks k JOIN evidence e ON e.digest = k.evidence
        WHERE k.capture_id IN (SELECT value FROM json_each(?)) ORDER BY k.capture_id, k.position`),
      judgmentsOf: db.prepare(`SELECT capture_id, record FROM judgments WHERE capture_id = ? ORDER BY id`),
      countCaptures: db.prepare(`SELECT count(*) FROM captures`).pluck(),
    };
    this.writeTransaction = db.transaction((captures: readonly Capture[], written: EvidenceEntry[]) => this.writeBatch(captures, written));
  }

  /**
   * Persist captures in one transaction; a trace id already stored is skipped. A chunk is written
   * to `evidence` only the first time this file sees it; later captures reference it by key.
   */
  write(captures: readonly Capture[]): void {
    if (captures.length === 0) return;
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
    const { insertCapture, insertEvidence } = this.statements;
    for (const capture of captures) {
      // Positional parameters throughout: binding by name cost ~15% more per row (bench:middleware).
      const result = insertCapture.run(
        capture.traceId,
        capture.requestId,
        capture.capturedAt,
        Date.parse(capture.capturedAt) || this.now(),
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
      this.writeChunkRows(captureId, capture.chunks, 0, false, written);
      // A gate refusal's withheld chunks: rows marked `withheld`, at the positions after the model's chunks.
      if (capture.withheldChunks !== undefined) this.writeChunkRows(captureId, capture.withheldChunks, capture.chunks.length, true, written);
    }
  }

  /** A capture's chunk rows from position `offset` on (marked `withheld`, or not), at most MAX_CHUNK_ROWS_PER_STATEMENT per statement. */
  private writeChunkRows(captureId: number, chunks: readonly CapturedChunk[], offset: number, withheld: boolean, written: EvidenceEntry[]): void {
    for (let start = 0; start < chunks.length; start += MAX_CHUNK_ROWS_PER_STATEMENT) {
      this.writeChunks(captureId, chunks, start, Math.min(chunks.length, start + MAX_CHUNK_ROWS_PER_STATEMENT), offset, withheld, written);
    }
  }

  /** Rows `start`…`end - 1` of a capture's chunks, at positions from `offset + start`, in one statement, their evidence first where this file lacks it. */
  private writeChunks(captureId: number, chunks: readonly CapturedChunk[], start: number, end: number, offset: number, withheld: boolean, written: EvidenceEntry[]): void {
    const { insertEvidence } = this.statements;
    const values: unknown[] = new Array((end - start) * 7);
    for (let position = start; position < end; position++) {
      const chunk = chunks[position]!;
      const evidence = this.evidenceOf(chunk);
      if (!evidence.stored) {
        insertEvidence.run(evidence.digest, chunk.chunkId, chunk.document, chunk.title, chunk.section, chunk.updated, chunk.hash, chunk.text);
        written.push(evidence);
      }
      const at = (position - start) * 7;
      values[at] = captureId;
      values[at + 1] = offset + position;
      values[at + 2] = evidence.digest;
      values[at + 3] = chunk.score;
      values[at + 4] = chunk.fusedScore;
      values[at + 5] = chunk.rank;
      values[at + 6] = withheld ? 1 : 0;
    }
    // One statement for the rows: a statement run costs more than a row (bench:middleware).
    this.insertChunks(end - start).run(...values);
  }

  /** `INSERT INTO capture_chunks` of `count` rows, prepared once per count. */
  private insertChunks(count: number): Database.Statement {
    let statement = this.insertChunksByCount.get(count);
    if (statement === undefined) {
      statement = this.db.prepare(`INSERT INTO capture_chunks (capture_id, position, evidence, score, fused_score, rank, withheld) VALUES ${Array.from({ length: count }, () => '(?, ?, ?, ?, ?, ?, ?)').join(', ')}`);
      this.insertChunksByCount.set(count, statement);
    }
    return statement;
  }

  /**
   * A chunk's evidence key, remembered by the chunk's index hash (short, unlike the text) and
   * checked field by field, so a repeat costs a map lookup and a few comparisons, not a SHA-256.
   * The default redaction hands back the same string for the same passage, which makes the text
   * comparison a pointer check.
   */
  private evidenceOf(chunk: CapturedChunk): EvidenceEntry {
    const known = this.evidenceByHash.get(chunk.hash);
    if (known !== undefined && sameEvidenceFields(known, chunk)) return known;
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

  /** One capture by trace id, with every judgment stored for it (oldest first): three statements. */
  get(traceId: string): { capture: Capture; judgments: StoredJudgment[] } | undefined {
    const row = this.statements.captureByTraceId.get(traceId) as CaptureRow | undefined;
    if (!row) return undefined;
    const [capture] = this.withChunks([row]);
    const judgments = (this.statements.judgmentsOf.all(row.id) as JudgmentRow[]).map((judgment) => judgmentFromRecord(judgment.record, row.trace_id));
    return { capture: capture!, judgments };
  }

  /** Captures by id, in the order given (unknown ids skipped): two statements for any number. */
  byIds(ids: readonly number[]): Capture[] {
    if (ids.length === 0) return [];
    const rows = new Map((this.statements.capturesByIds.all(idList(ids)) as CaptureRow[]).map((row) => [row.id, row]));
    return this.withChunks(ids.map((id) => rows.get(id)).filter((row): row is CaptureRow => row !== undefined));
  }

  /** The captures of these rows, their chunks read in one statement. */
  withChunks(rows: readonly CaptureRow[]): Capture[] {
    if (rows.length === 0) return [];
    return capturesFromRows(rows, this.statements.chunksByCaptureIds.all(idList(rows.map((row) => row.id))) as (CapturedChunk & { captureId: number; withheld: number })[]);
  }

  /** The store's id of a trace, or `undefined`. */
  idOf(traceId: string): number | undefined {
    return (this.statements.captureIdOf.get(traceId) as number | undefined) ?? undefined;
  }

  count(): number {
    return this.statements.countCaptures.get() as number;
  }
}
