/**
 * The provider spec: the only thing the rest of groundcheck knows about models.
 * Implementations: `openai` (any OpenAI-compatible endpoint) and `local` (offline, deterministic).
 * Mock implementations for tests live in `groundcheck/testing`.
 */

import type { ChatMessage, Usage } from '../contract/messages.js';

export type { ChatRole, ChatMessage, Usage } from '../contract/messages.js';
export { EMPTY_USAGE } from '../contract/messages.js';

export type FinishReason = 'stop' | 'length' | 'content-filter' | 'tool-calls' | 'error' | 'other' | 'unknown';

/** Ask for a JSON object matching `schema` (JSON Schema). */
export interface JsonResponseFormat {
  type: 'json';
  /** A short name for the schema (OpenAI requires one). */
  name: string;
  schema: Record<string, unknown>;
  description?: string;
}

export interface ChatCallOptions {
  messages: ChatMessage[];
  /** Sampling temperature. Judges use 0. */
  temperature?: number;
  /** Upper bound on generated tokens. */
  maxOutputTokens?: number;
  /** Seed for providers that support deterministic sampling. */
  seed?: number;
  /** `{ type: 'json', ... }` asks for structured output; the parsed value comes back as `json`. */
  responseFormat?: { type: 'text' } | JsonResponseFormat;
  abortSignal?: AbortSignal;
}

export interface ChatResult {
  /** The reply text, exactly as the model produced it. */
  text: string;
  /**
   * When `responseFormat` was JSON: the parsed object, or `undefined` when the reply held no
   * parseable JSON object (the raw reply stays in `text`).
   */
  json?: unknown;
  usage: Usage;
  finishReason: FinishReason;
  /** Cost in US dollars from the price table; `null` when the model's price is unknown. */
  costUsd: number | null;
  /** Settings the provider could not honour (e.g. structured output unsupported by the server). */
  warnings: string[];
  /** The model id the endpoint says answered (may carry a dated suffix). */
  modelId: string;
}

/** Known model ids for autocompletion; any string is accepted. */
export type ChatModelId = 'gpt-4o-mini' | 'gpt-4o' | 'gpt-4.1' | 'gpt-4.1-mini' | 'gpt-4.1-nano' | (string & {});
export type EmbeddingModelId = 'text-embedding-3-small' | 'text-embedding-3-large' | (string & {});

/**
 * One piece of a streamed reply: the text as it arrives, then one `finish` part with the whole
 * result (what `generate` would have returned; its `text` is the deltas joined).
 */
export type ChatStreamPart = { type: 'text-delta'; text: string } | { type: 'finish'; result: ChatResult };

export interface ChatModel {
  /** e.g. `openai`, `local`, `mock`. */
  readonly provider: string;
  readonly modelId: ChatModelId;
  generate(options: ChatCallOptions): Promise<ChatResult>;
  /**
   * Optional: the reply as it is generated. Yields `text-delta` parts in order, then exactly one
   * `finish` part. Errors, and an abort through `abortSignal`, are thrown by the iteration (as
   * from `generate`); stopping the iteration early (`break`) cancels the request. Callers that
   * accept any model use `streamChat(model, options)`, which falls back to `generate` as a
   * single delta for models without it.
   */
  stream?(options: ChatCallOptions): AsyncIterable<ChatStreamPart>;
}

export interface EmbedOptions {
  values: string[];
  /**
   * What the texts are for. Asymmetric embedders (the local one weights query terms by IDF;
   * some hosted ones want an input type) use it; others ignore it. Default `document`.
   */
  purpose?: 'query' | 'document';
  abortSignal?: AbortSignal;
}

export interface EmbedResult {
  /** One vector per input value, in order, each of length `dimensions`. */
  embeddings: Float32Array[];
  usage: { tokens: number | null };
  costUsd: number | null;
}

/**
 * Corpus statistics an index hands to embedders that weight terms by them
 * (document frequencies come from the index's full-text vocabulary).
 */
export interface CorpusStatistics {
  documentCount(): number;
  /** Number of chunks containing each (stemmed, lowercased) term; absent terms are omitted. */
  documentFrequencies(terms: readonly string[]): Map<string, number>;
}

export interface EmbeddingModel {
  readonly provider: string;
  readonly modelId: EmbeddingModelId;
  /** Length of every vector this model returns. */
  readonly dimensions: number;
  /** Largest number of values one `embed` call accepts; callers batch above it. */
  readonly maxBatchSize?: number;
  /**
   * A string that changes whenever the vectors would change (model, dimensions, feature settings).
   * The index stores it and refuses to be queried with a different one.
   */
  readonly fingerprint: string;
  /**
   * Suggested minimum cosine similarity for a chunk to count as relevant to a question with this
   * model. The retrieval gate uses it when no explicit `minSimilarity` is given.
   */
  readonly suggestedMinSimilarity?: number;
  embed(options: EmbedOptions): Promise<EmbedResult>;
  /** Optional: receive corpus statistics from the index (see {@link CorpusStatistics}). */
  bindCorpusStatistics?(statistics: CorpusStatistics): void;
}
