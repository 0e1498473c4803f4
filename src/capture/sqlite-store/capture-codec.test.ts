import { describe, expect, it } from 'vitest';
import { sampleCapture } from '../../test-support/capture-samples.js';
import { decodeCaptures, encodeCaptures } from './capture-codec.js';

describe('capture codec (the hand-over to the writer thread)', () => {
  it('gives back every capture field for field, nulls, chunks and an empty chunk list included', () => {
    const full = sampleCapture('t1', { firstTokenMs: 12.5, costUsd: 0.0004, refusalReason: null, truncated: true, aborted: true });
    const bare = sampleCapture('t2', { chunks: [], models: { chat: 'app', embedding: null }, usage: { inputTokens: null, outputTokens: null, totalTokens: null }, costUsd: null, firstTokenMs: null });
    const decoded = decodeCaptures(encodeCaptures([full, bare, full]));
    expect(decoded).toEqual([full, bare, full]);
  });

  it('refuses values cut short instead of making up a capture', () => {
    const values = encodeCaptures([sampleCapture('t1')]);
    expect(() => decodeCaptures(values.slice(0, 10))).toThrow(/inside a capture/);
    expect(() => decodeCaptures(values.slice(0, -1))).toThrow(/inside a chunk/);
  });
});
