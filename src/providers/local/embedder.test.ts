import { describe, expect, it } from 'vitest';
import { createLocalEmbedder } from './embedder.js';

const dot = (a: Float32Array, b: Float32Array) => a.reduce((sum, value, index) => sum + value * b[index]!, 0);

describe('local hashed embedder', () => {
  it('returns deterministic, L2-normalized vectors of the configured length', async () => {
    const embedder = createLocalEmbedder({ dimensions: 128 });
    const { embeddings } = await embedder.embed({ values: ['Parental leave is 20 weeks.', 'Parental leave is 20 weeks.'] });
    expect(embeddings[0]).toHaveLength(128);
    expect(Math.hypot(...embeddings[0]!)).toBeCloseTo(1, 5);
    expect(embeddings[0]).toEqual(embeddings[1]);
  });

  it('puts texts sharing stemmed words closer than unrelated texts', async () => {
    const embedder = createLocalEmbedder();
    const [query, related, unrelated] = embedder.embedSync(['parental leave weeks', 'Weeks of parental leave are paid.', 'The canteen opens at 8am.']);
    expect(dot(query!, related!)).toBeGreaterThan(0.3);
    expect(Math.abs(dot(query!, unrelated!))).toBeLessThan(0.1);
  });

  it('weights query words by IDF from bound corpus statistics and ignores words the corpus lacks', async () => {
    const embedder = createLocalEmbedder();
    embedder.bindCorpusStatistics({
      documentCount: () => 100,
      documentFrequencies: (terms) => new Map(terms.filter((term) => term !== 'xylophon').map((term) => [term, term === 'leav' ? 90 : 2])),
    });
    const [withUnknown] = embedder.embedSync(['xylophone'], 'query');
    expect(withUnknown!.every((component) => component === 0)).toBe(true);
    const [query] = embedder.embedSync(['leave parental'], 'query');
    const [rare, common] = embedder.embedSync(['parental', 'leave'], 'document');
    expect(dot(query!, rare!)).toBeGreaterThan(dot(query!, common!));
  });

  it('names its settings in the fingerprint and validates them', () => {
    expect(createLocalEmbedder({ dimensions: 64 }).fingerprint).toBe('local-hash-v1;d=64;bigram=0;ngram=0.5;n=3-5');
    expect(createLocalEmbedder({ dimensions: 64, charNgramWeight: 1, charNgramRange: [2, 4] }).fingerprint).toBe('local-hash-v1;d=64;bigram=0;ngram=1;n=2-4');
    // Without n-grams the vectors are those of the first release, and so is the fingerprint.
    expect(createLocalEmbedder({ dimensions: 64, bigramWeight: 0.5, charNgramWeight: 0 }).fingerprint).toBe('local-hash-v1;d=64;bigram=0.5');
    expect(() => createLocalEmbedder({ dimensions: 3 })).toThrow(/option dimensions 3 is invalid/);
    expect(() => createLocalEmbedder({ charNgramWeight: -1 })).toThrow(/option charNgramWeight -1 is invalid/);
    expect(() => createLocalEmbedder({ charNgramRange: [5, 3] })).toThrow(/option charNgramRange \[5,3\] is invalid/);
  });
});
