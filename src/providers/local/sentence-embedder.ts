import type { EmbedOptions, EmbedResult, EmbeddingModel } from '../spec.js';
import { loadSentenceEncoder, SENTENCE_ENCODER_MODEL_ID, sentenceEncoderFingerprint, type LongTextMode, type SentenceEncoder } from './sentence-encoder.js';
import { USE_LITE_DIMENSIONS } from './use-lite-model.js';

export interface SentenceEncoderEmbedderOptions {
  /**
   * How chunks over the model's 128 tokens are embedded: `truncate` (first 128 tokens) or `mean`
   * (mean of 128-token windows). Part of the fingerprint. [longText='truncate']
   */
  longText?: LongTextMode;
  /**
   * Minimum cosine similarity for the retrieval gate (see `EmbeddingModel.suggestedMinSimilarity`).
   * [suggestedMinSimilarity=0.3, calibrated on the handbook dev suite: METHODOLOGY, "Sentence encoder"]
   */
  suggestedMinSimilarity?: number;
}

/** Default gate threshold for this embedder (METHODOLOGY, "Sentence encoder"). */
export const SENTENCE_ENCODER_MIN_SIMILARITY = 0.3;

/**
 * The sentence encoder as an index embedder (`GROUNDCHECK_EMBED_PROVIDER=use`): provider `local`,
 * model `use-lite`, 512 dimensions, offline, no key. The model loads on the first `embed` call
 * (shared with every other user in the process, see `loadSentenceEncoder`), so creating one is
 * free.
 *
 * Symmetric: queries and documents are embedded the same way. Query embeddings go through the
 * shared sentence cache; document chunks do not (they are embedded once at ingest and their
 * vectors are kept by the index).
 *
 * @throws RangeError for an invalid option.
 * @example
 * const index = openIndex({ path: '.groundcheck/use.db', embedder: createSentenceEncoderEmbedder() });
 */
export function createSentenceEncoderEmbedder(options: SentenceEncoderEmbedderOptions = {}): SentenceEncoderEmbedder {
  return new SentenceEncoderEmbedder(options);
}

export class SentenceEncoderEmbedder implements EmbeddingModel {
  readonly provider = 'local';
  readonly modelId = SENTENCE_ENCODER_MODEL_ID;
  readonly dimensions = USE_LITE_DIMENSIONS;
  readonly maxBatchSize = 256;
  readonly fingerprint: string;
  readonly suggestedMinSimilarity: number;
  readonly longText: LongTextMode;

  constructor(options: SentenceEncoderEmbedderOptions = {}) {
    const longText = options.longText ?? 'truncate';
    if (longText !== 'truncate' && longText !== 'mean') {
      throw new RangeError(`option longText ${JSON.stringify(options.longText)} is invalid: use 'truncate' or 'mean'`);
    }
    const threshold = options.suggestedMinSimilarity ?? SENTENCE_ENCODER_MIN_SIMILARITY;
    if (!(threshold >= -1 && threshold <= 1)) {
      throw new RangeError(`option suggestedMinSimilarity ${String(options.suggestedMinSimilarity)} is invalid: use a number from -1 to 1`);
    }
    this.longText = longText;
    this.suggestedMinSimilarity = threshold;
    this.fingerprint = `local-${sentenceEncoderFingerprint()};d=${USE_LITE_DIMENSIONS};long=${longText}`;
  }

  /** The shared encoder this embedder runs on (loads it on first use). */
  encoder(): Promise<SentenceEncoder> {
    return loadSentenceEncoder();
  }

  async embed(options: EmbedOptions): Promise<EmbedResult> {
    options.abortSignal?.throwIfAborted();
    const encoder = await loadSentenceEncoder();
    const purpose = options.purpose ?? 'document';
    const embeddings = await encoder.embed(options.values, { longText: this.longText, cache: purpose === 'query' });
    return { embeddings, usage: { tokens: null }, costUsd: 0 };
  }
}
