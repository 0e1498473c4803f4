import { LruCache } from './lru-cache.js';
import { loadUseLiteModel, MODEL_MAX_TOKENS, USE_LITE_DIMENSIONS, useLitePackageVersions, type UseLiteModel } from './use-lite-model.js';

/**
 * A pretrained sentence encoder that runs offline with no key: the Universal Sentence Encoder
 * lite (512-d, a small Transformer trained for sentence similarity), shipped as npm packages and
 * run on tfjs's WebAssembly backend (see `use-lite-model.ts`).
 *
 * It knows meaning, not just words: "How much holiday do I get a year?" is nearest to "25 days
 * of annual leave each year". Its limits: it reads at most 128 SentencePiece tokens of a text
 * (about 90 English words; the graph drops the rest), it was trained on sentences and short
 * passages, and it is English only. Use it where meaning beats words on short texts: a relevance
 * gate, picking answer sentences, paraphrase and off-topic checks.
 */

/** How a text longer than the model's 128 tokens is embedded. */
export type LongTextMode =
  /** The first 128 tokens only, which is what the model itself does. */
  | 'truncate'
  /** The mean of the vectors of consecutive 128-token windows, weighted by their token counts (every token counts; one model pass per window). */
  | 'mean';

export interface SentenceEmbedOptions {
  /** How texts over 128 tokens are embedded. [longText='truncate'] */
  longText?: LongTextMode;
  /**
   * Read from and add to the process-wide cache of recent embeddings (keyed by text and
   * `longText`). Turn it off for one-off texts such as document chunks at ingest, so they do not
   * push out the sentences that judges and generators embed again and again. [cache=true]
   */
  cache?: boolean;
}

export interface RankedText {
  /** Position of the text in the candidates given. */
  index: number;
  text: string;
  /** Cosine similarity to the query, from −1 to 1. */
  similarity: number;
}

export interface SentenceEncoder {
  readonly modelId: typeof SENTENCE_ENCODER_MODEL_ID;
  /** Vector length: 512. */
  readonly dimensions: number;
  /** Changes whenever the vectors would (weights, vocabulary, tokenizer, token limit). */
  readonly fingerprint: string;
  /** Tokens the model reads per text (or per window with `longText: 'mean'`): 128. */
  readonly maxTokens: number;
  /** How long the one load in this process took, in milliseconds. */
  readonly loadMs: number;
  /** Unit-length 512-d vectors, one per text, in order. Each call returns fresh arrays the caller may keep or change. */
  embed(texts: readonly string[], options?: SentenceEmbedOptions): Promise<Float32Array[]>;
  /** Cosine similarity of two texts. */
  similarity(a: string, b: string, options?: SentenceEmbedOptions): Promise<number>;
  /** Cosine similarity of `query` to each candidate, in the candidates' order. */
  similarities(query: string, candidates: readonly string[], options?: SentenceEmbedOptions): Promise<number[]>;
  /** The candidates by similarity to `query`, most similar first (ties keep their given order). */
  rank(query: string, candidates: readonly string[], options?: SentenceEmbedOptions): Promise<RankedText[]>;
  /** SentencePiece tokens in `text` (all of them, not only the 128 the model reads). */
  countTokens(text: string): number;
  /** The shared cache: hits, misses, entries held, capacity. */
  cacheStats(): { hits: number; misses: number; entries: number; capacity: number };
}

export const SENTENCE_ENCODER_MODEL_ID = 'use-lite';

/** Most embeddings the process-wide cache keeps. */
export const SENTENCE_CACHE_ENTRIES = 4096;

/**
 * Longest text (in characters) the cache keeps: sentences and questions, not whole documents.
 * With {@link SENTENCE_CACHE_ENTRIES} this bounds the cache at about 4,096 × (2 KB vector + 4 KB
 * text) ≈ 24 MB.
 */
export const SENTENCE_CACHE_MAX_CHARACTERS = 2000;

let shared: Promise<SentenceEncoder> | undefined;

/**
 * The process's sentence encoder, loaded on first use and shared after that (one load per
 * process; a failed load is retried on the next call). The load reads ~26 MB of weights from
 * node_modules and starts the tfjs wasm backend, which becomes the process's tfjs backend.
 *
 * @throws GroundcheckError `encoder_load_failed` when the model packages are missing or broken.
 * @example
 * const encoder = await loadSentenceEncoder();
 * const [best] = await encoder.rank('How much holiday do I get a year?', sentences);
 * const same = (await encoder.similarity('Can I work from home?', 'Is remote working allowed?')) > 0.6;
 */
export function loadSentenceEncoder(): Promise<SentenceEncoder> {
  shared ??= loadUseLiteModel().then(
    (model) => new UseLiteSentenceEncoder(model),
    (error: unknown) => {
      shared = undefined;
      throw error;
    },
  );
  return shared;
}

/**
 * The encoder's fingerprint without loading it (read from the installed packages' versions).
 * @example
 * sentenceEncoderFingerprint(); // 'use-lite;weights=0.2.0;tokenizer=1.3.3;tokens=128'
 */
export function sentenceEncoderFingerprint(): string {
  const versions = useLitePackageVersions();
  return `${SENTENCE_ENCODER_MODEL_ID};weights=${versions.weights};tokenizer=${versions.tokenizer};tokens=${MODEL_MAX_TOKENS}`;
}

/** Cosine similarity of two vectors of the same length; 0 when either is all zeros. */
export function cosineSimilarity(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) throw new RangeError(`cosineSimilarity: vectors of ${a.length} and ${b.length} dimensions`);
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let index = 0; index < a.length; index++) {
    const x = a[index]!;
    const y = b[index]!;
    dot += x * y;
    normA += x * x;
    normB += y * y;
  }
  return normA === 0 || normB === 0 ? 0 : dot / Math.sqrt(normA * normB);
}

class UseLiteSentenceEncoder implements SentenceEncoder {
  readonly modelId = SENTENCE_ENCODER_MODEL_ID;
  readonly dimensions = USE_LITE_DIMENSIONS;
  readonly maxTokens = MODEL_MAX_TOKENS;
  readonly fingerprint = sentenceEncoderFingerprint();
  readonly loadMs: number;
  private readonly cache = new LruCache<string, Float32Array>(SENTENCE_CACHE_ENTRIES);

  constructor(private readonly model: UseLiteModel) {
    this.loadMs = model.loadMs;
  }

  async embed(texts: readonly string[], options: SentenceEmbedOptions = {}): Promise<Float32Array[]> {
    const mode = options.longText ?? 'truncate';
    if (mode !== 'truncate' && mode !== 'mean') throw new RangeError(`option longText ${JSON.stringify(mode)} is invalid: use 'truncate' or 'mean'`);
    const useCache = options.cache ?? true;
    const found = new Map<string, Float32Array>();
    const missing: string[] = [];
    for (const text of new Set(texts)) {
      const cached = useCache ? this.cache.get(cacheKey(mode, text)) : undefined;
      if (cached) found.set(text, cached);
      else missing.push(text);
    }
    if (missing.length > 0) {
      const computed = await this.compute(missing, mode);
      missing.forEach((text, index) => {
        const vector = computed[index]!;
        found.set(text, vector);
        if (useCache && text.length <= SENTENCE_CACHE_MAX_CHARACTERS) this.cache.set(cacheKey(mode, text), vector);
      });
    }
    return texts.map((text) => Float32Array.from(found.get(text)!));
  }

  async similarity(a: string, b: string, options?: SentenceEmbedOptions): Promise<number> {
    const [first, second] = await this.embed([a, b], options);
    return cosineSimilarity(first!, second!);
  }

  async similarities(query: string, candidates: readonly string[], options?: SentenceEmbedOptions): Promise<number[]> {
    const [queryVector, ...vectors] = await this.embed([query, ...candidates], options);
    return vectors.map((vector) => cosineSimilarity(queryVector!, vector));
  }

  async rank(query: string, candidates: readonly string[], options?: SentenceEmbedOptions): Promise<RankedText[]> {
    const scores = await this.similarities(query, candidates, options);
    return candidates
      .map((text, index) => ({ index, text, similarity: scores[index]! }))
      .sort((a, b) => b.similarity - a.similarity || a.index - b.index);
  }

  countTokens(text: string): number {
    return this.model.tokenize(text).length;
  }

  cacheStats() {
    return this.cache.stats();
  }

  private async compute(texts: readonly string[], mode: LongTextMode): Promise<Float32Array[]> {
    if (mode === 'truncate') return this.model.run(texts.map((text) => this.model.tokenize(text, MODEL_MAX_TOKENS)));
    const windowsPerText = texts.map((text) => windowsOf(this.model.tokenize(text)));
    const vectors = await this.model.run(windowsPerText.flat());
    let offset = 0;
    return windowsPerText.map((windows) => {
      const own = vectors.slice(offset, offset + windows.length);
      offset += windows.length;
      return own.length === 1 ? own[0]! : weightedMeanUnit(own, windows.map((window) => window.length));
    });
  }
}

function cacheKey(mode: LongTextMode, text: string): string {
  return `${mode}\u0000${text}`;
}

/** Consecutive windows of {@link MODEL_MAX_TOKENS} ids; an empty text is one empty window. */
function windowsOf(ids: readonly number[]): number[][] {
  if (ids.length === 0) return [[]];
  const windows: number[][] = [];
  for (let start = 0; start < ids.length; start += MODEL_MAX_TOKENS) windows.push(ids.slice(start, start + MODEL_MAX_TOKENS));
  return windows;
}

function weightedMeanUnit(vectors: readonly Float32Array[], weights: readonly number[]): Float32Array {
  const sum = new Float64Array(vectors[0]!.length);
  vectors.forEach((vector, position) => {
    for (let index = 0; index < vector.length; index++) sum[index]! += weights[position]! * vector[index]!;
  });
  let norm = 0;
  for (const value of sum) norm += value * value;
  norm = Math.sqrt(norm) || 1;
  return Float32Array.from(sum, (value) => value / norm);
}
