import { newTraceId } from './trace-id.js';
import { z } from 'zod';
import { textHash } from './hash.js';
import { isRefusal, REFUSAL_SENTENCE } from './refusal.js';
import type { RagMode, RagTrace, RetrievedChunk } from './trace.js';

/**
 * The plain shape an app that is not built with groundcheck can give for one answered question:
 * its own retrieval's chunks and its own model's answer. Both the capture adapter
 * (`req.rag.record({ query, chunks, answer })`) and eval targets (HTTP or module) turn it into a
 * `RagTrace` with {@link traceFromPlain}, so the judges see exactly the app's chunks.
 */
/** What the trace records as the model and the prompt version when the app names none. */
export const PLAIN_DEFAULT_MODEL = 'app';

export const PlainChunkSchema = z.object({
  /** The app's id for the chunk (retrieval metrics compare these with a suite's relevant ids); a number (a database id) is read as its decimal string. */
  id: z.union([z.string().min(1, 'chunk id must be a non-empty string or a number'), z.number().finite().transform(String)], { error: 'chunk id must be a non-empty string or a number' }),
  /** Exactly the text the app's model saw for this chunk; no `[Source: …]` line is needed. */
  text: z.string(),
  /** `null` is read as absent (JSON APIs send it for a missing field), here and below. */
  title: z.string().nullable().optional(),
  section: z.string().nullable().optional(),
  updated: z.string().nullable().optional(),
  /** The app's relevance score, if it has one. */
  score: z.number().finite().nullable().optional(),
});

export const PlainTraceSchema = z.object({
  query: z.string().min(1, 'query must be a non-empty string'),
  chunks: z.array(PlainChunkSchema),
  /**
   * When the app's own relevance gate refused without calling its model (no `chunks`, a refusal
   * answer): the chunks the gate withheld, best first. The judge reads them to tell a correct
   * refusal (none answers) from an over-refusal (one does); without them it can only call the
   * refusal correct.
   */
  withheldChunks: z.array(PlainChunkSchema).optional(),
  answer: z.string(),
  mode: z.enum(['rag', 'norag']).optional(),
  /** The model that answered, as the app names it. [model='app'] */
  model: z.string().min(1).optional(),
  usage: z
    .object({ inputTokens: z.number().int().nonnegative().nullable(), outputTokens: z.number().int().nonnegative().nullable(), totalTokens: z.number().int().nonnegative().nullable() })
    .partial()
    .optional(),
  /** The app's own prompt version, so judgments of different prompts are never mixed. [promptVersion='app'] */
  promptVersion: z.string().min(1).optional(),
});

export type PlainChunk = z.infer<typeof PlainChunkSchema>;
export type PlainTrace = z.infer<typeof PlainTraceSchema>;
/** A plain record as an app writes it (before validation: numeric ids, `null` fields). */
export type PlainTraceInput = z.input<typeof PlainTraceSchema>;

export interface TraceFromPlainOptions {
  /** [generateId=newTraceId: time-ordered UUID version 7] */
  generateId?: () => string;
  /** [now=() => new Date()] */
  now?: () => Date;
  /** The app's refusal sentence, recognised besides common paraphrases. [refusalSentence=REFUSAL_SENTENCE] */
  refusalSentence?: string;
}

/** A validation problem of a plain trace, naming the field: `chunks.1.text: expected string, received number`. */
export type PlainTraceResult = { ok: true; trace: RagTrace } | { ok: false; error: string };

/**
 * Validate a plain record and turn it into a `RagTrace`. What the app did not say is said as
 * such, never invented: `retrieval` is `null` (the app's retrieval is not groundcheck's),
 * `messages` is empty (the prompt is unknown), timings and cost are unknown (0 and `null`).
 * A chunk's `score` and `fusedScore` are the app's score, or 0 when it gave none; `rank` is its
 * position; `hash` is the content hash of its text, so drift checks work on the app's chunks too.
 *
 * @example
 * const result = traceFromPlain({ query: 'How long is probation?', chunks: [{ id: 'hr-7', text: 'Probation lasts 6 months.' }], answer: '6 months.' });
 * if (result.ok) judgeTrace(judge, result.trace);
 */
export function traceFromPlain(input: unknown, options: TraceFromPlainOptions = {}): PlainTraceResult {
  const parsed = PlainTraceSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { ok: false, error: `${issue.path.join('.') || 'record'}: ${issue.message}` };
  }
  const plain = parsed.data;
  const mode: RagMode = plain.mode ?? 'rag';
  const refused = isRefusal(plain.answer, options.refusalSentence ?? REFUSAL_SENTENCE);
  const gated = plain.withheldChunks !== undefined && plain.withheldChunks.length > 0;
  if (gated && (plain.chunks.length > 0 || !refused)) {
    return { ok: false, error: 'withheldChunks: only for a refusal with no chunks (what the app\'s gate withheld from its model); this record has chunks or an answer that is not a refusal' };
  }
  const chunks = retrievedChunks(plain.chunks);
  const usage = { inputTokens: plain.usage?.inputTokens ?? null, outputTokens: plain.usage?.outputTokens ?? null, totalTokens: plain.usage?.totalTokens ?? null };
  return {
    ok: true,
    trace: {
      id: (options.generateId ?? newTraceId)(),
      createdAt: (options.now ?? (() => new Date()))().toISOString(),
      query: plain.query,
      mode,
      chunks,
      ...(gated ? { withheldChunks: retrievedChunks(plain.withheldChunks!) } : {}),
      retrieval: null,
      messages: [],
      answer: plain.answer,
      refused,
      refusalReason: gated ? 'gate' : refused ? 'model' : null,
      promptVersion: plain.promptVersion ?? PLAIN_DEFAULT_MODEL,
      models: { chat: plain.model ?? PLAIN_DEFAULT_MODEL, embedding: null },
      usage,
      costUsd: null,
      finishReason: null,
      timings: { retrievalMs: 0, generationMs: 0, totalMs: 0 },
    },
  };
}

function retrievedChunks(plainChunks: readonly PlainChunk[]): RetrievedChunk[] {
  return plainChunks.map((chunk, index) => ({
    chunkId: chunk.id,
    document: chunk.id.split('#')[0] || chunk.id,
    title: chunk.title ?? '',
    section: chunk.section ?? '',
    updated: chunk.updated ?? null,
    text: chunk.text,
    hash: textHash(chunk.text),
    score: chunk.score ?? 0,
    fusedScore: chunk.score ?? 0,
    rank: index + 1,
    vectorRank: null,
    textRank: null,
  }));
}
