import { createHash, randomUUID } from 'node:crypto';
import { z } from 'zod';
import { InvalidInputError } from '../errors.js';
import type { Usage } from './messages.js';
import { isRefusal, REFUSAL_SENTENCE } from './refusal.js';
import type { RagMode, RagTrace, RetrievedChunk } from './trace.js';

/**
 * The plain shape of one answered question, as an app that is not built on groundcheck can give
 * it: the question, the chunks its retrieval put in the prompt, and the answer. One schema and
 * one conversion to a {@link RagTrace}, shared by everything that takes the plain shape: eval
 * targets (HTTP and module) and the capture adapter (`req.rag.record({ query, chunks, answer })`).
 */

/** The model id recorded when the plain record names none; never used as a word to scrub. */
export const UNKNOWN_MODEL = 'unknown';

/** The prompt version recorded for traces built from a plain record: the app's prompt is its own. */
export const PLAIN_PROMPT_VERSION = 'external';

/** Content hash of a chunk text: SHA-256, hex, first 20 characters (the index and drift use the same). */
export function contentHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 20);
}

const nonEmpty = z.string().trim().min(1, 'must be a non-empty string');
const tokenCount = z.number().int().min(0).nullable().optional();

/** One chunk as the app put it in its prompt. Unknown keys are kept out (stripped), not errors: apps send more. */
export const plainChunkSchema = z.object({
  /** The app's own chunk id; retrieval metrics compare it with a question's `relevantChunkIds`. */
  id: z.union([nonEmpty, z.number().transform(String)], { error: 'must be a non-empty string or a number' }),
  /** Exactly the text the model saw for this chunk (any citation format, or none). */
  text: z.string(),
  title: z.string().nullable().optional(),
  /** Heading path, when the app has one. */
  section: z.string().nullable().optional(),
  /** Last-updated date as the source states it. */
  updated: z.string().nullable().optional(),
  /** The app's relevance score for this chunk (any scale). */
  score: z.number().finite().nullable().optional(),
  /** Document id, when the app has one. [document=the chunk id] */
  document: z.string().nullable().optional(),
});

export const plainUsageSchema = z.object({ inputTokens: tokenCount, outputTokens: tokenCount, totalTokens: tokenCount });

/** What an app answered for one question. */
export const plainAnswerSchema = z.object({
  answer: z.string(),
  /** The chunks in prompt order; empty when nothing was retrieved (or in RAG-off mode). */
  chunks: z.array(plainChunkSchema),
  /** The model that wrote the answer, as the app names it. */
  model: z.string().min(1).nullable().optional(),
  usage: plainUsageSchema.nullable().optional(),
  /** Whether the answer is a refusal. [refused=detected from the answer (`isRefusal`)] */
  refused: z.boolean().nullable().optional(),
});

/** The plain record: a question with its answer (the shape `req.rag.record()` takes). */
export const plainTraceSchema = plainAnswerSchema.extend({
  query: nonEmpty,
  mode: z.enum(['rag', 'norag']).optional(),
});

export type PlainChunk = z.input<typeof plainChunkSchema>;
export type PlainAnswer = z.input<typeof plainAnswerSchema>;
export type PlainTrace = z.input<typeof plainTraceSchema>;

export interface TraceFromPlainOptions {
  /** Trace id. [id=a random UUID] */
  id?: string;
  /** Creation time. [createdAt=now] */
  createdAt?: string;
  /** The app's refusal sentence, for refusal detection when `refused` is not given. [refusalSentence=REFUSAL_SENTENCE] */
  refusalSentence?: string;
  /** Wall time of the answer in ms, when the caller measured it. [totalMs=0] */
  totalMs?: number;
  /** Recorded as `retrieval.embedder`: what retrieved the chunks. [retriever='external'] */
  retriever?: string;
  /** Where the record came from, named in validation errors. [source='record'] */
  source?: string;
}

/**
 * Validate a plain record against {@link plainTraceSchema}: the parsed record, or one
 * InvalidInputError (`invalid_trace`) listing every problem as `source: path: problem`.
 *
 * @example
 * const record = parsePlainTrace({ query: 'How long is probation?', chunks: [{ id: 'hr-7', text: 'Probation lasts six months.' }], answer: 'Six months.' });
 */
export function parsePlainTrace(value: unknown, source = 'record'): z.output<typeof plainTraceSchema> {
  return parseWith(plainTraceSchema, value, source);
}

/** Validate what an app answered (no query): see {@link parsePlainTrace}. */
export function parsePlainAnswer(value: unknown, source = 'answer'): z.output<typeof plainAnswerSchema> {
  return parseWith(plainAnswerSchema, value, source);
}

function parseWith<Schema extends z.ZodType>(schema: Schema, value: unknown, source: string): z.output<Schema> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `${source}: ${issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ` : ''}${issue.message.replace(/^Invalid input: /, '')}`);
  throw new InvalidInputError(problems.join('\n'), { code: 'invalid_trace' });
}

/**
 * The {@link RagTrace} of a plain record, so the judges, the eval runner and the capture see an
 * app's own answer exactly as they see groundcheck's: each chunk's `text` is kept byte for byte
 * (it is what the model saw, whatever its citation format), its title, section and date travel as
 * fields, and its content hash is computed here. What a plain record cannot know is recorded as
 * unknown, never invented: `messages` is empty, `promptVersion` is `external`, the cost is `null`,
 * a missing score is 0 with `rank` giving the app's order, and `retrieval.minSimilarity` is NaN.
 *
 * Validates first (see {@link parsePlainTrace}); a record that is already a parse result passes
 * unchanged.
 *
 * @throws InvalidInputError `invalid_trace` listing every problem of a malformed record.
 * @example
 * const trace = traceFromPlain({ query: 'How long is probation?', chunks: [{ id: 'hr-7', text: 'Probation lasts six months.', title: 'Onboarding' }], answer: 'Six months.' });
 * trace.chunks[0].chunkId; // 'hr-7'
 */
export function traceFromPlain(record: PlainTrace, options: TraceFromPlainOptions = {}): RagTrace {
  const parsed = parsePlainTrace(record, options.source ?? 'record');
  const mode: RagMode = parsed.mode ?? 'rag';
  const chunks: RetrievedChunk[] = parsed.chunks.map((chunk, position) => ({
    chunkId: chunk.id,
    document: chunk.document ?? chunk.id,
    title: chunk.title ?? '',
    section: chunk.section ?? '',
    updated: chunk.updated ?? null,
    text: chunk.text,
    hash: contentHash(chunk.text),
    score: chunk.score ?? 0,
    fusedScore: chunk.score ?? 0,
    rank: position + 1,
    vectorRank: null,
    textRank: null,
  }));
  const scores = parsed.chunks.map((chunk) => chunk.score).filter((score): score is number => typeof score === 'number');
  const refused = parsed.refused ?? isRefusal(parsed.answer, options.refusalSentence ?? REFUSAL_SENTENCE);
  const usage: Usage = parsed.usage
    ? { inputTokens: parsed.usage.inputTokens ?? null, outputTokens: parsed.usage.outputTokens ?? null, totalTokens: parsed.usage.totalTokens ?? null }
    : { inputTokens: null, outputTokens: null, totalTokens: null };
  const totalMs = options.totalMs ?? 0;
  return {
    id: options.id ?? randomUUID(),
    createdAt: options.createdAt ?? new Date().toISOString(),
    query: parsed.query,
    mode,
    chunks,
    retrieval:
      mode === 'rag'
        ? {
            // The app refused with nothing retrieved: as close to groundcheck's gate as a plain record can say.
            gated: chunks.length === 0 && refused,
            minSimilarity: Number.NaN,
            topSimilarity: scores.length > 0 ? Math.max(...scores) : null,
            candidates: { vector: 0, text: 0, fused: chunks.length },
            embedder: options.retriever ?? 'external',
          }
        : null,
    messages: [],
    answer: parsed.answer,
    refused,
    refusalReason: refused ? (chunks.length === 0 && mode === 'rag' ? 'gate' : 'model') : null,
    promptVersion: PLAIN_PROMPT_VERSION,
    models: { chat: parsed.model ?? UNKNOWN_MODEL, embedding: null },
    usage,
    costUsd: null,
    finishReason: null,
    timings: { retrievalMs: 0, generationMs: 0, totalMs },
  };
}
