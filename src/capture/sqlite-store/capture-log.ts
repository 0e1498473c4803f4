import type Database from 'better-sqlite3';
import type { Capture, CapturedChunk, StoredJudgment } from '../types.js';
import { captureFromRow, capturedChunk, evidenceDigest, sameEvidenceFields, type EvidenceFields } from '../capture-row.js';
import { idList, judgmentFromRecord, type CaptureRow, type JudgmentRow } from './rows.js';
import { CAPTURE_SCHEMA_VERSION } from './schema.js';

/**
 * The capture log of the SQLite store: writing captures with their content-addressed evidence,
 * and reading captures back (one, or many by id list in a fixed number of statements).
 */

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

/** A chunk's evidence digest, the fields it was computed from, and its row's id once this file holds the row. */
interface EvidenceEntry extends EvidenceFields {
  digest: Buffer;
  /** `evidence.id`, as `captures.chunk_refs` names the row; `undefined` until the row is found or inserted. */
  id: number | undefined;
}

/**
 * One entry of `captures.chunk_refs` (schema 9), by position: the evidence row's id, the score,
 * the fused score, the rank, and 1 for a chunk the gate withheld (0 for the prompt's). (A key the
 * schema-9 migration found no evidence row for stays the hex digest it was: {@link OldChunkRef}.)
 */
export type ChunkRef = [evidence: number, score: number, fusedScore: number, rank: number, withheld: 0 | 1];

/** A reference as schema 8 wrote it: the evidence key the digest in lowercase hex. */
type OldChunkRef = [evidence: string, score: number, fusedScore: number, rank: number, withheld: 0 | 1];

/** An evidence row as `withChunks` reads it: its id and its fields. */
type EvidenceRow = EvidenceFields & { id: number };

export class SqliteCaptureLog {
  private readonly statements;
  private readonly writeTransaction: (captures: readonly Capture[]) => void;
  /** Chunks seen by this store, by index hash: their evidence digest, and the row's id once the file holds it. */
  private readonly evidenceByHash = new Map<string, EvidenceEntry>();
  private rememberedTextChars = 0;

  constructor(
    private readonly db: Database.Database,
    private readonly now: () => number,
  ) {
    this.statements = {
      insertCapture: db.prepare(`
        INSERT INTO captures (trace_id, request_id, captured_at, captured_ms, route, method, status, latency_ms, query, mode,
          answer, refused, refusal_reason, prompt_version, chat_model, embedding_model, input_tokens, output_tokens,
          total_tokens, cost_usd, retrieval_ms, generation_ms, total_ms, truncated, aborted, first_token_ms, chunk_refs)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (trace_id) DO NOTHING`),
      insertEvidence: db.prepare(`
        INSERT INTO evidence (digest, chunk_id, document, title, section, updated, hash, text) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (digest) DO NOTHING RETURNING id`).pluck(),
      evidenceIdOf: db.prepare(`SELECT id FROM evidence WHERE digest = ?`).pluck(),
      captureByTraceId: db.prepare(`SELECT * FROM captures WHERE trace_id = ?`),
      captureIdOf: db.prepare(`SELECT id FROM captures WHERE trace_id = ?`).pluck(),
      capturesByIds: db.prepare(`SELECT * FROM captures WHERE id IN (SELECT value FROM json_each(?))`),
      // Columns named as the fields of a chunk's evidence: no mapping.
      evidenceByIds: db.prepare(`
        SELECT id, chunk_id AS chunkId, document, title, section, updated, hash, text
        FROM evidence WHERE id IN (SELECT value FROM json_each(?))`),
      evidenceByDigests: db.prepare(`
        SELECT lower(hex(digest)) AS digest, id, chunk_id AS chunkId, document, title, section, updated, hash, text
        FROM evidence WHERE digest IN (SELECT unhex(value) FROM json_each(?))`),
      judgmentsOf: db.prepare(`SELECT capture_id, record FROM judgments WHERE capture_id = ? ORDER BY id`),
      countCaptures: db.prepare(`SELECT count(*) FROM captures`).pluck(),
      schemaVersion: db.prepare(`PRAGMA user_version`).pluck(),
    };
    this.writeTransaction = db.transaction((captures: readonly Capture[]) => this.writeBatch(captures));
  }

  /**
   * Persist captures in one transaction; a trace id already stored is skipped. A chunk is written
   * to `evidence` only the first time this file sees it; later captures reference it by id.
   */
  write(captures: readonly Capture[]): void {
    if (captures.length === 0) return;
    try {
      this.writeTransaction(captures);
    } catch (error) {
      // Forget the ids learnt: those of rows inserted by this transaction are gone with it, and
      // should an evidence row ever be missing (a file edited by hand), the next write inserts it
      // again instead of failing on the reference for good.
      this.forgetEvidence();
      throw error;
    }
  }

  private writeBatch(captures: readonly Capture[]): void {
    const { insertCapture, schemaVersion } = this.statements;
    // A newer groundcheck may have migrated the file since this process opened it (a rolling
    // upgrade). Rows written in this code's form could then mean something else to it (as schema
    // 8's hex keys do to schema 9), so each capture is refused, counted and logged instead: one
    // statement a batch, inside its transaction.
    const version = schemaVersion.get() as number;
    if (version !== CAPTURE_SCHEMA_VERSION) throw new Error(`the capture store file has schema version ${version}, but this process writes version ${CAPTURE_SCHEMA_VERSION}: another process migrated it; restart this one on the same groundcheck version`);
    for (const capture of captures) {
      // The chunk references go in the capture's own row (schema 8; a row a chunk was half the
      // write's CPU), naming evidence by integer id (schema 9; the 64-digit hex keys were a third
      // of the row).
      let refs = this.chunkRefs('[', capture.chunks, false);
      // A gate refusal's withheld chunks, marked `withheld`, after the model's chunks.
      if (capture.withheldChunks !== undefined && capture.withheldChunks.length > 0) refs = this.chunkRefs(refs, capture.withheldChunks, true);
      // Positional parameters throughout: binding by name cost ~15% more per row (bench:middleware).
      insertCapture.run(
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
        `${refs}]`,
      );
    }
  }

  /**
   * `refs` (the JSON of `chunk_refs` so far, without its closing bracket) followed by a
   * {@link ChunkRef} for each of `chunks`, their evidence rows first where this file lacks them.
   * Built as text, the numbers as JavaScript writes them, which JSON.parse reads back exactly.
   */
  private chunkRefs(refs: string, chunks: readonly CapturedChunk[], withheld: boolean): string {
    const mark = withheld ? '1]' : '0]';
    for (const chunk of chunks) {
      const evidence = this.evidenceOf(chunk);
      evidence.id ??= this.evidenceId(evidence);
      refs += `${refs.length === 1 ? '' : ','}${chunkRefOpening(evidence.id, chunk.score, chunk.fusedScore, chunk.rank)}${mark}`;
    }
    return refs;
  }

  /** The id of a chunk's evidence row, inserted now if the file lacks it (first seen by this process, or by the file). */
  private evidenceId(evidence: EvidenceEntry): number {
    const { insertEvidence, evidenceIdOf } = this.statements;
    const inserted = insertEvidence.get(evidence.digest, evidence.chunkId, evidence.document, evidence.title, evidence.section, evidence.updated, evidence.hash, evidence.text) as number | undefined;
    return inserted ?? (evidenceIdOf.get(evidence.digest) as number);
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
    const digest = evidenceDigest(chunk);
    const entry: EvidenceEntry = {
      digest,
      id: undefined,
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
    if (this.rememberedTextChars + chunk.text.length > MAX_REMEMBERED_TEXT_CHARS) this.forgetEvidence();
    if (chunk.text.length <= MAX_REMEMBERED_TEXT_CHARS) {
      this.evidenceByHash.set(chunk.hash, entry);
      this.rememberedTextChars += chunk.text.length;
    }
    return entry;
  }

  /** Forget every remembered chunk (its digest and row id). */
  private forgetEvidence(): void {
    this.evidenceByHash.clear();
    this.rememberedTextChars = 0;
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

  /**
   * The captures of these rows, their chunks from each row's `chunk_refs` and the evidence rows
   * they name, read in one statement.
   *
   * A reference naming an evidence row the file lacks (a file edited by hand) does not fail the
   * read of every capture beside it (a claim round of the judge queue, a dashboard page): that
   * capture comes back with the chunks that could be read and `unreadable` saying which evidence
   * is missing, and the live judge stores a judge error for it instead of judging it against less
   * than the model saw.
   */
  withChunks(rows: readonly CaptureRow[]): Capture[] {
    if (rows.length === 0) return [];
    const refsOf = rows.map((row) => JSON.parse(row.chunk_refs) as ChunkRef[]);
    const ids = new Set<number>();
    // Hex digests: schema 8's keys, which a process still running schema-8 code writes into a
    // file another process has migrated (a rolling upgrade); read by digest, not refused.
    const digests = new Set<string>();
    for (const refs of refsOf) {
      for (const [key] of refs as (ChunkRef | OldChunkRef)[]) {
        if (typeof key === 'string') digests.add(key);
        else ids.add(key);
      }
    }
    const evidence = new Map<number | string, EvidenceRow>();
    if (ids.size > 0) for (const row of this.statements.evidenceByIds.all(JSON.stringify([...ids])) as EvidenceRow[]) evidence.set(row.id, row);
    if (digests.size > 0) for (const row of this.statements.evidenceByDigests.all(JSON.stringify([...digests])) as (EvidenceRow & { digest: string })[]) evidence.set(row.digest, row);
    return rows.map((row, at) => {
      const chunks: CapturedChunk[] = [];
      const withheld: CapturedChunk[] = [];
      const missing: (number | string)[] = [];
      for (const [key, score, fusedScore, rank, mark] of refsOf[at]! as (ChunkRef | OldChunkRef)[]) {
        const fields = evidence.get(key);
        if (fields === undefined) missing.push(key);
        else (mark === 1 ? withheld : chunks).push(capturedChunk(fields, score, fusedScore, rank));
      }
      const capture = captureFromRow(row, chunks, withheld);
      if (missing.length > 0) capture.unreadable = unreadableNote(row.trace_id, missing);
      return capture;
    });
  }

  /** The store's id of a trace, or `undefined`. */
  idOf(traceId: string): number | undefined {
    return (this.statements.captureIdOf.get(traceId) as number | undefined) ?? undefined;
  }

  count(): number {
    return this.statements.countCaptures.get() as number;
  }
}

/** Why a capture could not be read whole: the evidence keys its references name that the file lacks. */
function unreadableNote(traceId: string, missing: readonly (number | string)[]): string {
  return `capture ${traceId} names evidence ${missing.join(', ')}, which this store file lacks (was the file edited by hand?)`;
}

/** The JSON of a {@link ChunkRef} up to its withheld mark (`1]` or `0]` completes it); `key` is the evidence key as JSON. */
function chunkRefOpening(key: number | string, score: number, fusedScore: number, rank: number): string {
  return `[${key},${jsonNumber(score, 'score')},${jsonNumber(fusedScore, 'fusedScore')},${jsonNumber(rank, 'rank')},`;
}

/**
 * Registers `gc_chunk_ref(evidence, score, fused_score, rank, withheld)`, for the schema-8
 * migration that moved chunk rows into `chunk_refs`: the JSON of a reference as schema 8 wrote it,
 * the evidence key a quoted hex digest (schema 9 then replaces it with the row's id).
 */
export function registerChunkRef(db: Database.Database): void {
  db.function('gc_chunk_ref', { deterministic: true }, (evidence, score, fusedScore, rank, withheld) =>
    `${chunkRefOpening(`"${(evidence as Buffer).toString('hex')}"`, Number(score), Number(fusedScore), Number(rank))}${Number(withheld) === 1 ? '1]' : '0]'}`,
  );
}

/** A finite number as JSON text; anything else is refused (JSON has no NaN, and SQLite stored it as NULL, which the schema refused too). */
function jsonNumber(value: number, field: string): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new TypeError(`a captured chunk's ${field} must be a finite number, got ${String(value)}`);
  return String(value);
}
