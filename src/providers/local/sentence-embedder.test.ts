import { cpSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ingestDirectory } from '../../rag/ingest.js';
import { retrieve } from '../../rag/retrieve.js';
import { openIndex } from '../../rag/store.js';
import { CORPUS_DIR, onCleanup, tempDir } from '../../test-support/fixtures.js';
import { createSentenceEncoderEmbedder, SENTENCE_ENCODER_MIN_SIMILARITY } from './sentence-embedder.js';
import { cosineSimilarity, loadSentenceEncoder } from './sentence-encoder.js';

describe('createSentenceEncoderEmbedder', () => {
  it('describes itself per the provider spec, with the long-text mode in the fingerprint', () => {
    const embedder = createSentenceEncoderEmbedder();
    expect(embedder).toMatchObject({ provider: 'local', modelId: 'use-lite', dimensions: 512, suggestedMinSimilarity: SENTENCE_ENCODER_MIN_SIMILARITY });
    expect(embedder.fingerprint).toMatch(/^local-use-lite;weights=\d+\.\d+\.\d+;tokenizer=\d+\.\d+\.\d+;tokens=128;d=512;long=truncate$/);
    expect(createSentenceEncoderEmbedder({ longText: 'mean' }).fingerprint).toMatch(/;long=mean$/);
    expect(createSentenceEncoderEmbedder({ suggestedMinSimilarity: 0.4 }).suggestedMinSimilarity).toBe(0.4);
    expect(() => createSentenceEncoderEmbedder({ longText: 'all' as 'mean' })).toThrow(/option longText "all" is invalid/);
    expect(() => createSentenceEncoderEmbedder({ suggestedMinSimilarity: 2 })).toThrow(/option suggestedMinSimilarity 2 is invalid/);
  });

  it('embeds queries through the shared sentence cache and documents past it, with the same vectors', async () => {
    const embedder = createSentenceEncoderEmbedder();
    const encoder = await loadSentenceEncoder();
    const text = 'Can I carry unused annual leave into next year?';
    const before = encoder.cacheStats();
    const document = await embedder.embed({ values: [text], purpose: 'document' });
    expect(encoder.cacheStats().entries).toBe(before.entries);
    const query = await embedder.embed({ values: [text], purpose: 'query' });
    expect(encoder.cacheStats().entries).toBe(before.entries + 1);
    expect(cosineSimilarity(document.embeddings[0]!, query.embeddings[0]!)).toBeCloseTo(1, 6);
    expect(document).toMatchObject({ usage: { tokens: null }, costUsd: 0 });
  });

  it('builds an index that answers a question worded unlike its source', async () => {
    const corpus = join(tempDir(), 'corpus');
    mkdirSync(corpus);
    for (const file of ['leave-policy.md', 'pay-and-payroll.md']) cpSync(join(CORPUS_DIR, file), join(corpus, file));
    const index = openIndex({ path: join(tempDir(), 'index.db'), embedder: createSentenceEncoderEmbedder() });
    onCleanup(() => index.close());
    await ingestDirectory(index, corpus);
    const result = await retrieve(index, 'How much holiday do I get a year?', { textWeight: 0, topK: 3 });
    expect(result.chunks[0]?.chunkId).toBe('leave-policy#annual-leave-entitlement');
  });
});
