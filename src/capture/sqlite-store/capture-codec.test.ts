import { describe, expect, it } from 'vitest';
import { sampleCapture } from '../../test-support/capture-samples.js';
import type { Capture, CapturedChunk } from '../types.js';
import { CaptureDecoder, CaptureEncoder } from './capture-codec.js';

const chunk = (hash: string, overrides: Partial<CapturedChunk> = {}): CapturedChunk => ({
  chunkId: `doc#${hash}`,
  document: 'doc',
  title: 'Doc',
  section: `Section ${hash}`,
  updated: '2025-09-01',
  hash,
  text: `The text of ${hash}. `.repeat(20),
  score: 0.5,
  fusedScore: 0.02,
  rank: 1,
  ...overrides,
});

const withChunks = (traceId: string, chunks: CapturedChunk[]): Capture => sampleCapture(traceId, { chunks });

/** Every string longer than 100 characters among the values: the chunk texts sent whole. */
const textsSent = (values: readonly unknown[]) => values.filter((value) => typeof value === 'string' && value.length > 100);

describe('capture codec (the hand-over to the writer thread)', () => {
  it('gives back every capture field for field, nulls, chunks and an empty chunk list included', () => {
    const full = sampleCapture('t1', { firstTokenMs: 12.5, costUsd: 0.0004, refusalReason: null, truncated: true, aborted: true });
    const bare = sampleCapture('t2', { chunks: [], models: { chat: 'app', embedding: null }, usage: { inputTokens: null, outputTokens: null, totalTokens: null }, costUsd: null, firstTokenMs: null });
    const decoded = new CaptureDecoder().decode(new CaptureEncoder().encode([full, bare, full]));
    expect(decoded).toEqual([full, bare, full]);
  });

  it('gives back a gate refusal\'s withheld chunks after its chunks, numbered like them (a text the chunks sent is sent once)', () => {
    const encoder = new CaptureEncoder();
    const gated = sampleCapture('gated', { chunks: [], refused: true, refusalReason: 'gate', withheldChunks: [chunk('a'), chunk('c', { rank: 2, score: 0.1 })] });
    const answered = withChunks('answered', [chunk('a', { score: 0.7 })]);
    const encoded = encoder.encode([answered, gated]);
    expect(textsSent(encoded.values)).toEqual([chunk('a').text, chunk('c').text]);
    expect(new CaptureDecoder().decode(encoded)).toEqual([answered, gated]);
  });

  it('sends a chunk whole once, then by number with its own scores and rank, across batches', () => {
    const encoder = new CaptureEncoder();
    const decoder = new CaptureDecoder();
    const first = [withChunks('t1', [chunk('a'), chunk('b', { rank: 2 })]), withChunks('t2', [chunk('b', { score: 0.9, rank: 1 })])];
    const second = [withChunks('t3', [chunk('a', { score: 0.1, fusedScore: 0.01, rank: 2 }), chunk('b', { rank: 1 })])];
    const encodedFirst = encoder.encode(first);
    const encodedSecond = encoder.encode(second);
    expect(textsSent(encodedFirst.values)).toEqual([chunk('a').text, chunk('b').text]);
    expect(textsSent(encodedSecond.values)).toEqual([]);
    expect(decoder.decode(encodedFirst)).toEqual(first);
    expect(decoder.decode(encodedSecond)).toEqual(second);
  });

  it.each([
    ['text', { text: 'Edited text of a. '.repeat(20) }],
    ['chunk id', { chunkId: 'other#a' }],
    ['title', { title: 'Renamed' }],
    ['section', { section: 'Moved' }],
    ['date', { updated: null }],
  ])('sends a chunk whole again when its %s differs under the same hash', (_field, change) => {
    const encoder = new CaptureEncoder();
    const decoder = new CaptureDecoder();
    const before = [withChunks('t1', [chunk('a')])];
    const after = [withChunks('t2', [chunk('a', change)]), withChunks('t3', [chunk('a', change)])];
    decoder.decode(encoder.encode(before));
    const encoded = encoder.encode(after);
    expect(textsSent(encoded.values)).toHaveLength(1);
    expect(decoder.decode(encoded)).toEqual(after);
  });

  it('forgets every numbered chunk on both sides once over its bound, and says so in the next batch', () => {
    const encoder = new CaptureEncoder(chunk('a').text.length * 2);
    const decoder = new CaptureDecoder();
    const batches = [[withChunks('t1', [chunk('a'), chunk('b')])], [withChunks('t2', [chunk('c')])], [withChunks('t3', [chunk('a'), chunk('c')])], [withChunks('t4', [chunk('a')])]];
    const encoded = batches.map((batch) => encoder.encode(batch));
    expect(encoded.map((batch) => batch.reset)).toEqual([false, false, true, false]);
    expect(encoded.map((batch) => textsSent(batch.values).length)).toEqual([2, 1, 2, 0]);
    expect(encoded.map((batch) => decoder.decode(batch))).toEqual(batches);
  });

  it('starts afresh after invalidate(): a batch that never reached the decoder numbered nothing it needs', () => {
    const encoder = new CaptureEncoder();
    const decoder = new CaptureDecoder();
    encoder.encode([withChunks('lost', [chunk('a')])]);
    encoder.invalidate();
    const next = [withChunks('t2', [chunk('a')])];
    const encoded = encoder.encode(next);
    expect(encoded.reset).toBe(true);
    expect(decoder.decode(encoded)).toEqual(next);
  });

  it('refuses values cut short or a chunk number it never learnt, instead of making up a capture', () => {
    const encoder = new CaptureEncoder();
    const batch = encoder.encode([sampleCapture('t1')]);
    expect(() => new CaptureDecoder().decode({ values: batch.values.slice(0, 10), reset: false })).toThrow(/inside a capture/);
    // The last value is the number of withheld chunks (0); before it, the last chunk's rank.
    expect(() => new CaptureDecoder().decode({ values: batch.values.slice(0, -1), reset: false })).toThrow(/before the withheld chunks/);
    expect(() => new CaptureDecoder().decode({ values: batch.values.slice(0, -2), reset: false })).toThrow(/inside a chunk/);
    const byNumber = encoder.encode([sampleCapture('t2')]);
    expect(() => new CaptureDecoder().decode(byNumber)).toThrow(/chunk number 0 was never sent/);
  });
});
