import { describe, expect, it } from 'vitest';
import { applyLimits, exceedsLimits, type CaptureLimits } from './to-capture.js';
import type { Capture, CapturedChunk } from './types.js';

const LIMITS: CaptureLimits = { maxQueryChars: 20, maxAnswerChars: 30, maxChunkChars: 40, maxChunks: 2 };

function chunk(text: string): CapturedChunk {
  return { chunkId: 'c', document: 'd.md', title: 'T', section: 'S', updated: null, hash: 'h', text, score: 0.5, fusedScore: 0.5, rank: 1 };
}

function capture(overrides: Partial<Capture>): Capture {
  return {
    traceId: 't',
    requestId: 'r',
    capturedAt: '2026-12-02T00:00:00.000Z',
    route: '/chat',
    method: 'POST',
    status: 200,
    latencyMs: 1,
    aborted: false,
    firstTokenMs: null,
    query: 'q',
    mode: 'rag',
    answer: 'a',
    refused: false,
    refusalReason: null,
    promptVersion: 'p',
    models: { chat: 'm', embedding: 'e' },
    usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
    costUsd: null,
    timings: { retrievalMs: 1, generationMs: 1, totalMs: 2 },
    chunks: [chunk('x')],
    truncated: false,
    ...overrides,
  } as Capture;
}

describe('exceedsLimits', () => {
  it.each([
    ['everything within the caps', {}, false],
    ['a query at its cap', { query: 'q'.repeat(20) }, false],
    ['a query over its cap', { query: 'q'.repeat(21) }, true],
    ['an answer over its cap', { answer: 'a'.repeat(31) }, true],
    ['a chunk text over its cap', { chunks: [chunk('x'), chunk('y'.repeat(41))] }, true],
    ['more chunks than the cap', { chunks: [chunk('x'), chunk('y'), chunk('z')] }, true],
  ] as const)('%s: %s, as applyLimits marks it', (_name, overrides, expected) => {
    const value = capture(overrides as Partial<Capture>);
    expect(exceedsLimits(value, LIMITS)).toBe(expected);
    expect(applyLimits(value, LIMITS).truncated).toBe(expected);
  });
});
