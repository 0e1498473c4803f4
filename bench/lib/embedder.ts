import { modelsFromEnv } from '../../src/providers/config.js';
import type { EmbeddingModel } from '../../src/providers/spec.js';

/** The offline embedders a benchmark can run the demo with: `local` (hashed, the default) and `use` (the sentence encoder, USE-lite). */
export const BENCH_EMBEDDERS = ['local', 'use'] as const;

/** The embedder the app would pick with `GROUNDCHECK_EMBED_PROVIDER=<name>` offline (the same selection, not a copy of it). */
export function benchEmbedder(name: string): EmbeddingModel {
  if (!(BENCH_EMBEDDERS as readonly string[]).includes(name)) throw new Error(`unknown embedder ${name}: use ${BENCH_EMBEDDERS.join(' or ')}`);
  return modelsFromEnv({}, { provider: 'local', embedProvider: name as (typeof BENCH_EMBEDDERS)[number] }).embedder;
}
