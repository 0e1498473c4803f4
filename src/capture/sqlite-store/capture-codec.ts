import { capturedChunk, sameEvidenceFields, type EvidenceFields } from '../capture-row.js';
import type { Capture, CapturedChunk } from '../types.js';

/**
 * Captures as one flat array of their values, for the hand-over to the writer thread. Cloning a
 * batch this way costs the sending thread about a third of what cloning the capture objects does
 * (a structured clone writes every property name of every object again: 26 per capture and 10
 * per chunk; bench:capture-path). Only the fields of {@link Capture} travel; the order below is
 * the format.
 *
 * A chunk is sent whole only the first time: the encoder gives it a number, and later captures of
 * the same chunk (the same id, hash, text and source fields) send that number and its scores. The
 * texts of a RAG app's chunks repeat from request to request and were most of what the hand-over
 * copied (bench:capture-path). Both sides keep the numbered chunks; the encoder bounds them by
 * text length and, once over the bound, forgets them all before its next batch and says so in it
 * (`reset`), so the decoder forgets them at the same point. Batches must be decoded in the order they
 * were encoded, by one decoder per encoder (one writer thread: its messages arrive in order).
 */

/** Values per capture before its chunks (the last one is the number of chunks; the number of withheld chunks follows the chunks). */
const CAPTURE_VALUES = 26;
/** Values per chunk sent whole: its number (negative: -1 - number), seven fields, three scores. */
const NEW_CHUNK_VALUES = 11;
/** Values per chunk sent by number: the number (0 or more) and three scores. */
const KNOWN_CHUNK_VALUES = 4;

/** Chunk text characters both sides remember before they start afresh. */
export const MAX_REMEMBERED_CHUNK_CHARS = 4_000_000;

/** A chunk the encoder has sent whole, with its number. */
interface SentChunk extends EvidenceFields {
  number: number;
}

/** One batch for the decoder: the values, and whether the decoder must first forget the numbered chunks. */
export interface EncodedBatch {
  values: unknown[];
  reset: boolean;
}

export class CaptureEncoder {
  /** Chunks sent whole, by their index hash (a map lookup, then field by field: the text compare is the rest). */
  private readonly sent = new Map<string, SentChunk>();
  private nextNumber = 0;
  private rememberedChars = 0;

  /** @param maxChars chunk text characters remembered before starting afresh. [maxChars=MAX_REMEMBERED_CHUNK_CHARS] */
  constructor(private readonly maxChars = MAX_REMEMBERED_CHUNK_CHARS) {}

  encode(captures: readonly Capture[]): EncodedBatch {
    // Full: both sides forget every numbered chunk before this batch (bounded to the limit plus one batch's new texts).
    const reset = this.rememberedChars > this.maxChars;
    if (reset) {
      this.sent.clear();
      this.rememberedChars = 0;
    }
    const out: unknown[] = [];
    for (const c of captures) {
      out.push(
        c.traceId, c.requestId, c.capturedAt, c.route, c.method, c.status, c.latencyMs, c.aborted, c.firstTokenMs,
        c.query, c.mode, c.answer, c.refused, c.refusalReason, c.promptVersion, c.models.chat, c.models.embedding,
        c.usage.inputTokens, c.usage.outputTokens, c.usage.totalTokens, c.costUsd,
        c.timings.retrievalMs, c.timings.generationMs, c.timings.totalMs, c.truncated, c.chunks.length,
      );
      this.pushChunks(out, c.chunks);
      // Then the gate's withheld chunks, the same way after their number.
      const withheld = c.withheldChunks ?? [];
      out.push(withheld.length);
      this.pushChunks(out, withheld);
    }
    return { values: out, reset };
  }

  private pushChunks(out: unknown[], chunks: readonly CapturedChunk[]): void {
    for (const k of chunks) {
      const known = this.sent.get(k.hash);
      if (known !== undefined && sameEvidenceFields(known, k)) {
        out.push(known.number, k.score, k.fusedScore, k.rank);
        continue;
      }
      const number = this.remember(k);
      out.push(-1 - number, k.chunkId, k.document, k.title, k.section, k.updated, k.hash, k.text, k.score, k.fusedScore, k.rank);
    }
  }

  /**
   * Start afresh with the next batch (both sides forget every numbered chunk): after a batch that
   * may not have reached the decoder whole (its post threw, or the decoder failed on it).
   */
  invalidate(): void {
    this.rememberedChars = Number.POSITIVE_INFINITY;
  }

  private remember(chunk: CapturedChunk): number {
    const number = this.nextNumber++;
    this.sent.set(chunk.hash, { number, chunkId: chunk.chunkId, document: chunk.document, title: chunk.title, section: chunk.section, updated: chunk.updated, hash: chunk.hash, text: chunk.text });
    this.rememberedChars += chunk.text.length;
    return number;
  }
}

type ChunkFields = Omit<CapturedChunk, 'score' | 'fusedScore' | 'rank'>;

export class CaptureDecoder {
  private readonly chunks = new Map<number, ChunkFields>();

  decode(batch: EncodedBatch): Capture[] {
    const values = batch.values;
    if (batch.reset) this.chunks.clear();
    const captures: Capture[] = [];
    let at = 0;
    const next = () => values[at++] as never;
    while (at < values.length) {
      if (values.length - at < CAPTURE_VALUES) throw new Error('decodeCaptures: the values end inside a capture');
      const capture: Capture = {
        traceId: next(), requestId: next(), capturedAt: next(), route: next(), method: next(), status: next(), latencyMs: next(), aborted: next(), firstTokenMs: next(),
        query: next(), mode: next(), answer: next(), refused: next(), refusalReason: next(), promptVersion: next(),
        models: { chat: next(), embedding: next() },
        usage: { inputTokens: next(), outputTokens: next(), totalTokens: next() },
        costUsd: next(),
        timings: { retrievalMs: next(), generationMs: next(), totalMs: next() },
        // Filled in below (after the number of chunks, which follows truncated).
        chunks: [],
        truncated: false,
      };
      capture.truncated = next();
      capture.chunks = this.readChunks(values, next, () => at);
      if (values.length - at < 1) throw new Error('decodeCaptures: the values end before the withheld chunks');
      const withheld = this.readChunks(values, next, () => at);
      if (withheld.length > 0) capture.withheldChunks = withheld;
      captures.push(capture);
    }
    return captures;
  }

  /** A count, then that many chunks (sent whole or by number). */
  private readChunks(values: readonly unknown[], next: () => never, at: () => number): CapturedChunk[] {
    const count = next() as number;
    const chunks: CapturedChunk[] = [];
    for (let index = 0; index < count; index++) {
      if (values.length - at() < KNOWN_CHUNK_VALUES) throw new Error('decodeCaptures: the values end inside a chunk');
      const number = next() as number;
      let fields: ChunkFields | undefined;
      if (number >= 0) {
        fields = this.chunks.get(number);
        if (fields === undefined) throw new Error(`decodeCaptures: chunk number ${number} was never sent (or was forgotten)`);
      } else {
        if (values.length - at() < NEW_CHUNK_VALUES - 1) throw new Error('decodeCaptures: the values end inside a chunk');
        fields = { chunkId: next(), document: next(), title: next(), section: next(), updated: next(), hash: next(), text: next() };
        this.chunks.set(-1 - number, fields);
      }
      // Arguments are read left to right: score, fused score, rank, as encoded.
      chunks.push(capturedChunk(fields, next(), next(), next()));
    }
    return chunks;
  }
}
