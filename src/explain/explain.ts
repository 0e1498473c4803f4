import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseCodeExcerpt, reportFrames, type CodeExcerpt, type ErrorReport, type ReportFrame } from '../contract/code.js';
import type { RagMode, RagTrace, RetrievedChunk } from '../contract/trace.js';
import { errorMessage } from '../errors.js';
import { EMPTY_USAGE, type ChatModel } from '../providers/spec.js';
import type { RetrievalResult } from '../rag/retrieve.js';
import type { GroundcheckIndex } from '../rag/store.js';
import { classifyFrame, isInside, parseStack, relativizeHeader, type StackFrame } from './frames.js';
import { buildExplainMessages, EXPLAIN_PROMPT_VERSION, type FailedRequest } from './prompt.js';
import { redactSecrets } from './redact-secrets.js';
import { calledAs, valueSources } from './called-names.js';
import { explainQuery, retrieveSource, type SourceRetrievalOptions } from './retrieve-source.js';
import type { SourceMapResolver } from './source-maps.js';
import { truncateFrames, type TruncationStrategy } from './truncate.js';

/**
 * From an error to an explanation and its trace: read the stack, resolve source maps, classify and
 * trim the frames, retrieve the app's code around the innermost app frame (RAG on), ask the model,
 * and record it all as a `RagTrace`: the query is the error plus its frame, the chunks are the
 * code excerpts, the answer is the explanation. The middleware and the eval call this one function.
 */

export interface ExplainerSettings {
  /** The app's root: frames inside it are the app's own, and no file outside it is ever read. */
  appRoot: string;
  chat: ChatModel;
  /** `rag`: with the app's source; `norag`: from the stack alone. */
  mode: RagMode;
  /** The source index, opened (and refreshed) when first needed; `null` for stack-only. */
  sourceIndex: (() => Promise<GroundcheckIndex>) | null;
  retrieval: SourceRetrievalOptions;
  truncation: TruncationStrategy;
  maxFrames: number;
  wordCap: number;
  /** Longest the model may take. */
  timeoutMs: number;
  resolver: SourceMapResolver;
  /** Lines shown on each side of the innermost app frame in the retrieval query. */
  contextLines: number;
  now: () => Date;
  generateId: () => string;
  readText?: (path: string) => string | null;
}

/** Everything one explanation produced: what the page, the JSON, the console and the eval show. */
export interface Explanation {
  /** The trace of the explanation; `null` when no explanation was produced (model failure, rate limit). */
  trace: RagTrace | null;
  /** The explanation text as the model wrote it; `null` when there is none. */
  text: string | null;
  report: ErrorReport;
  /** Every frame of the stack, resolved and classified, before trimming. */
  frames: StackFrame[];
  /** The HTTP status the error asks for (its `status` or `statusCode` when 4xx/5xx, else 500). */
  status: number;
  /** `rag` when source excerpts were given to the model, `norag` otherwise (stack only). */
  mode: RagMode;
  /** The excerpts given to the model, with their chunks. */
  sources: { chunk: RetrievedChunk; excerpt: CodeExcerpt }[];
  /** What did not go as configured (retrieval fell back to stack-only, the model failed, the rate limit). */
  notes: string[];
  model: string;
}

export interface ExplainCallOptions {
  request?: FailedRequest | null;
  /** Produce everything but the model call (over the rate limit). */
  skipModel?: boolean;
}

/**
 * Explain one error. Never throws: a retrieval failure falls back to stack-only, a model failure
 * leaves `text` and `trace` null with a note.
 *
 * @example
 * const explanation = await explainError(error, settings, { request: { method: 'GET', path: '/posts/9' } });
 * explanation.trace?.answer
 */
export async function explainError(error: unknown, settings: ExplainerSettings, options: ExplainCallOptions = {}): Promise<Explanation> {
  const started = performance.now();
  const readText = settings.readText ?? defaultReadText;
  const parsed = parseStack(error);
  const frames = parsed.frames.map((frame) => classifyFrame(settings.resolver.resolve(frame), settings.appRoot));
  const header = redactSecrets(relativizeHeader(parsed.header, settings.appRoot));
  const report: ErrorReport = { header, entries: truncateFrames(frames, { maxFrames: settings.maxFrames, strategy: settings.truncation }) };
  const request = options.request ? { method: options.request.method, path: redactSecrets(options.request.path) } : null;
  const notes: string[] = [];

  // The innermost app frame the report still shows (a trimmed-away frame is not used).
  const innermost = reportFrames(report).find((frame) => frame.kind === 'app') ?? null;
  const around = innermost === null ? null : linesAround(innermost, settings, readText);
  const query = explainQuery(header, innermost, around?.lines ?? []);
  const own = innermost?.functionName ? calledAs(innermost.functionName) : null;
  const definitions = around === null ? [] : valueSources(around.lines, around.failing).filter((name) => name !== own);

  let mode: RagMode = settings.mode;
  let retrieval: RetrievalResult | null = null;
  let retrievalMs = 0;
  if (mode === 'rag') {
    const retrievalStarted = performance.now();
    try {
      if (settings.sourceIndex === null) throw new Error('no source index is configured');
      retrieval = await retrieveSource(await settings.sourceIndex(), query, { ...settings.retrieval, definitions });
    } catch (retrievalError) {
      notes.push(`source retrieval failed (${errorMessage(retrievalError)}); explained from the stack trace only`);
      mode = 'norag';
    }
    retrievalMs = performance.now() - retrievalStarted;
  }
  const chunks = mode === 'rag' ? (retrieval?.chunks ?? []) : [];
  const sources = chunks.flatMap((chunk) => {
    const excerpt = parseCodeExcerpt(chunk.text);
    return excerpt === null ? [] : [{ chunk, excerpt }];
  });
  const messages = buildExplainMessages({ report, request, chunks, mode, wordCap: settings.wordCap });
  const model = `${settings.chat.provider}:${settings.chat.modelId}`;
  const base = { report, frames, status: statusOf(error), mode, sources, notes, model };
  if (options.skipModel) return { ...base, trace: null, text: null };

  const generationStarted = performance.now();
  let result;
  try {
    result = await settings.chat.generate({ messages, temperature: 0, maxOutputTokens: Math.ceil(settings.wordCap * 2.5), abortSignal: AbortSignal.timeout(settings.timeoutMs) });
  } catch (modelError) {
    notes.push(`the model could not explain this error: ${errorMessage(modelError)}`);
    return { ...base, trace: null, text: null };
  }
  const generationMs = performance.now() - generationStarted;
  const text = result.text.trim();
  const trace: RagTrace = {
    id: settings.generateId(),
    createdAt: settings.now().toISOString(),
    query,
    mode,
    chunks,
    retrieval:
      mode === 'rag' && retrieval !== null
        ? { gated: retrieval.gated, minSimilarity: retrieval.minSimilarity, topSimilarity: retrieval.topSimilarity, candidates: retrieval.candidates, embedder: retrieval.embedder }
        : null,
    messages,
    answer: text,
    refused: false,
    refusalReason: null,
    promptVersion: EXPLAIN_PROMPT_VERSION,
    models: { chat: `${settings.chat.provider}:${result.modelId || settings.chat.modelId}`, embedding: mode === 'rag' ? (retrieval?.embedder ?? null) : null },
    usage: result.usage ?? { ...EMPTY_USAGE },
    costUsd: result.costUsd,
    finishReason: result.finishReason,
    timings: { retrievalMs, generationMs, totalMs: performance.now() - started },
  };
  return { ...base, model: trace.models.chat, trace, text };
}

/** The status an error asks for: its `status` or `statusCode` when it is 4xx or 5xx, else 500. */
export function statusOf(error: unknown): number {
  const candidate = (error as { status?: unknown; statusCode?: unknown } | null)?.status ?? (error as { statusCode?: unknown } | null)?.statusCode;
  return typeof candidate === 'number' && Number.isInteger(candidate) && candidate >= 400 && candidate <= 599 ? candidate : 500;
}

/** The source lines around the frame's line, and the index of the frame's own line among them. */
function linesAround(frame: ReportFrame, settings: ExplainerSettings, readText: (path: string) => string | null): { lines: string[]; failing: number } | null {
  if (frame.line === null) return null;
  const file = resolve(settings.appRoot, frame.location);
  if (!isInside(file, settings.appRoot)) return null;
  const text = readText(file);
  if (text === null) return null;
  const lines = redactSecrets(text).split('\n');
  const from = Math.max(0, frame.line - 1 - settings.contextLines);
  return { lines: lines.slice(from, frame.line + settings.contextLines), failing: frame.line - 1 - from };
}

function defaultReadText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

export const defaultIds = { generateId: randomUUID, now: () => new Date() };
