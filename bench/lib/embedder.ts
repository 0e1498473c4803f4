import type { EmbeddingModel } from '../../src/providers/spec.js';
import { createLocalEmbedder } from '../../src/providers/local/embedder.js';
import { createSentenceEncoderEmbedder } from '../../src/providers/local/sentence-embedder.js';

/** The offline embedders a benchmark can run the demo with: `local` (hashed, the default) and `use` (the sentence encoder, USE-lite). */
export const BENCH_EMBEDDERS = ['local', 'use'] as const;

export function benchEmbedder(name: string): EmbeddingModel {
  if (name === 'use') return createSentenceEncoderEmbedder();
  if (name === 'local') return createLocalEmbedder();
  throw new Error(`unknown embedder ${name}: use ${BENCH_EMBEDDERS.join(' or ')}`);
}
