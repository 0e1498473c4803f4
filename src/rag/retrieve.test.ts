import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../errors.js';
import { handbookIndex } from '../test-support/fixtures.js';
import { MockEmbeddingModel } from '../testing/index.js';
import { buildMatchQuery, orderByEdges, retrieve } from './retrieve.js';

const EXPECTED: [string, string][] = [
  ['How many weeks of parental leave does a birth parent get?', 'leave-policy#parental-leave'],
  ['What is the mileage rate for driving my own car?', 'travel-and-expenses#mileage-rates'],
  ['What is the maximum hotel cost per night in London?', 'travel-and-expenses#hotel-nightly-caps'],
  ['Do I need my manager to approve a course that costs £600?', 'training-and-development#training-under-1-000'],
  ['When do I need a fit note from my doctor for sickness?', 'sickness-absence#self-certification-and-fit-notes'],
  ['Do I have to register a gift from a supplier?', 'gifts-and-hospitality#the-gifts-and-hospitality-register'],
];

describe('retrieve (hybrid: vector KNN + FTS5 BM25, fused)', () => {
  it.each(EXPECTED)('local embedder: "%s" finds %s in the top 5', async (question, chunkId) => {
    const index = await handbookIndex();
    const result = await retrieve(index, question, { topK: 5 });
    expect(result.gated).toBe(false);
    expect(result.chunks.map((chunk) => chunk.chunkId)).toContain(chunkId);
  });

  it.each(EXPECTED)('mock embedder: "%s" finds %s in the top 5', async (question, chunkId) => {
    const index = await handbookIndex(new MockEmbeddingModel({ dimensions: 256 }));
    const result = await retrieve(index, question, { topK: 5, minSimilarity: 0 });
    expect(result.chunks.map((chunk) => chunk.chunkId)).toContain(chunkId);
  });

  it('returns chunks carrying id, document, title, section, date, text, hash, score and rank', async () => {
    const index = await handbookIndex();
    const result = await retrieve(index, 'What is the mileage rate for driving my own car?', { topK: 3 });
    const mileage = result.chunks.find((chunk) => chunk.chunkId === 'travel-and-expenses#mileage-rates')!;
    expect(mileage).toMatchObject({
      document: 'travel-and-expenses',
      title: 'Travel and Expenses',
      section: 'Mileage Rates',
      updated: '2025-09-01',
      hash: expect.stringMatching(/^[0-9a-f]{20}$/),
    });
    expect(mileage.text.startsWith(`[Source: Travel and Expenses | Section: ${mileage.section} | Last updated: 2025-09-01]\n`)).toBe(true);
    expect(result.chunks.map((chunk) => chunk.rank)).toEqual([1, 2, 3]);
    for (const chunk of result.chunks) expect(chunk.score).toBeGreaterThanOrEqual(result.minSimilarity);
  });

  it('gates: nothing relevant means no chunks and gated=true', async () => {
    const index = await handbookIndex();
    const result = await retrieve(index, 'xylophone quasar zebra', {});
    expect(result).toMatchObject({ gated: true, chunks: [] });
    const strict = await retrieve(index, 'How many weeks of parental leave?', { minSimilarity: 0.99 });
    expect(strict.gated).toBe(true);
    expect(strict.topSimilarity).toBeGreaterThan(0);
  });

  it('a gate refusal keeps the chunks it withheld (the fused top k, best first) for the judge; a passing retrieval withholds none', async () => {
    const index = await handbookIndex();
    // The similarity half: the answer is ranked, but under an impossible threshold.
    const strict = await retrieve(index, 'How many weeks of parental leave does a birth parent get?', { minSimilarity: 0.99, topK: 5 });
    expect(strict).toMatchObject({ gated: true, gateReason: 'similarity', chunks: [] });
    expect(strict.withheld.map((chunk) => chunk.rank)).toEqual([1, 2, 3, 4, 5]);
    expect(strict.withheld.map((chunk) => chunk.chunkId)).toContain('leave-policy#parental-leave');
    const passing = await retrieve(index, 'How many weeks of parental leave does a birth parent get?', { topK: 5 });
    // The same chunks, in the same order, with the same texts as the model would have seen them.
    expect(strict.withheld).toEqual(passing.chunks);
    expect(passing.withheld).toEqual([]);
    // The coverage half: a topic word found nowhere in the corpus; the ranked chunks are still kept.
    const uncovered = await retrieve(index, 'Can I get paid in bitcoin?');
    expect(uncovered).toMatchObject({ gated: true, gateReason: 'coverage', chunks: [] });
    expect(uncovered.withheld.length).toBeGreaterThan(0);
  });

  it.each([
    'C++?', '"', '""', 'NEAR(', 'NEAR(leave travel, 2)', '*', 'leave*', 'AND OR NOT', '(', ')', '^leave', 'title:leave', '-', "'; DROP TABLE chunks; --",
    '{leave}', 'leave + travel', '\u0000', '🙂 emoji only', '中文 問題',
  ])('hostile FTS5 input %j works without a syntax error', async (input) => {
    const index = await handbookIndex();
    await expect(retrieve(index, input)).resolves.toMatchObject({ query: input.trim() });
  });

  it.each(EXPECTED)('rrf fusion still works: "%s" finds %s in the top 5', async (question, chunkId) => {
    const index = await handbookIndex();
    const result = await retrieve(index, question, { topK: 5, fusion: 'rrf' });
    expect(result.chunks.map((chunk) => chunk.chunkId)).toContain(chunkId);
  });

  it('fusion scores: rrf sums weight / (rrfK + rank); convex sums scores relative to each list’s best, the floor for a missing list', async () => {
    const index = await handbookIndex();
    const question = 'How do I claim travel expenses for a hotel?';
    const rrf = await retrieve(index, question, { topK: 20, minSimilarity: -1, fusion: 'rrf', rrfK: 10, vectorWeight: 2 });
    for (const chunk of rrf.chunks) {
      const expected = (chunk.vectorRank ? 2 / (10 + chunk.vectorRank) : 0) + (chunk.textRank ? 1 / (10 + chunk.textRank) : 0);
      expect(chunk.fusedScore).toBeCloseTo(expected, 10);
    }
    const convex = await retrieve(index, question, { topK: 20, minSimilarity: -1 });
    const vectorOnly = await retrieve(index, question, { topK: 50, minSimilarity: -1, textWeight: 0 });
    const best = vectorOnly.chunks[0]!.score;
    // Found by both searches: at most 1 + 1, and the single best chunk of each list scores 1 there.
    for (const chunk of convex.chunks) expect(chunk.fusedScore).toBeLessThanOrEqual(2 + 1e-9);
    // The vector search's best chunk is also a BM25 hit for this question, so it scores above 1.
    const both = convex.chunks.find((chunk) => chunk.vectorRank === 1);
    expect(both).toBeDefined();
    expect(both!.textRank).not.toBeNull();
    expect(both!.fusedScore).toBeGreaterThan(1);
    expect(convex.chunks[0]!.fusedScore).toBeGreaterThanOrEqual(convex.chunks.at(-1)!.fusedScore);
    // With the text side off, the fused score is the similarity relative to the best one.
    for (const chunk of vectorOnly.chunks) expect(chunk.fusedScore).toBeCloseTo(chunk.score / best, 10);
  });

  it('rejects an unknown fusion with an error naming the option', async () => {
    const index = await handbookIndex();
    await expect(retrieve(index, 'parental leave', { fusion: 'borda' as never })).rejects.toMatchObject({ code: 'invalid_option', message: expect.stringMatching(/option fusion "borda" is invalid/) });
  });

  it('rejects empty, whitespace-only, non-string and over-long questions with a clear error', async () => {
    const index = await handbookIndex();
    await expect(retrieve(index, '')).rejects.toThrow(InvalidInputError);
    await expect(retrieve(index, '   \n ')).rejects.toMatchObject({ code: 'question_empty' });
    await expect(retrieve(index, 42 as unknown as string)).rejects.toMatchObject({ code: 'question_not_string' });
    await expect(retrieve(index, 'a'.repeat(2001))).rejects.toMatchObject({ code: 'question_too_long' });
  });

  it('orders the context strongest-first-and-last on request', async () => {
    expect(orderByEdges([1, 2, 3, 4, 5, 6])).toEqual([1, 3, 5, 6, 4, 2]);
    const index = await handbookIndex();
    const byRank = await retrieve(index, 'How do I claim travel expenses?', { topK: 6, minSimilarity: 0 });
    const byEdges = await retrieve(index, 'How do I claim travel expenses?', { topK: 6, minSimilarity: 0, order: 'edges' });
    expect(byEdges.chunks.map((chunk) => chunk.rank)).toEqual([1, 3, 5, 6, 4, 2]);
    expect(new Set(byEdges.chunks.map((chunk) => chunk.chunkId))).toEqual(new Set(byRank.chunks.map((chunk) => chunk.chunkId)));
  });
});

describe('buildMatchQuery', () => {
  it.each([
    ['C++?', '"c"'],
    ['How long is "parental" leave?', '"long" OR "parental" OR "leave"'],
    ['NEAR( * AND', '"near"'],
    ['the of and', ''],
  ])('%j → %j', (input, expected) => {
    expect(buildMatchQuery(input)).toBe(expected);
  });
});
