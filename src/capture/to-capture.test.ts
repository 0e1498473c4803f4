import { describe, expect, it } from 'vitest';
import { createRedactor } from './redact.js';
import { applyLimits, captureFromTrace, exceedsLimits, type CaptureLimits } from './to-capture.js';
import type { RagTrace } from '../contract/trace.js';
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
    ['withheld chunks within the caps', { chunks: [], withheldChunks: [chunk('x'), chunk('y')] }, false],
    ['a withheld chunk text over its cap', { chunks: [], withheldChunks: [chunk('y'.repeat(41))] }, true],
    ['more withheld chunks than the cap', { chunks: [], withheldChunks: [chunk('x'), chunk('y'), chunk('z')] }, true],
  ] as const)('%s: %s, as applyLimits marks it', (_name, overrides, expected) => {
    const value = capture(overrides as Partial<Capture>);
    expect(exceedsLimits(value, LIMITS)).toBe(expected);
    expect(applyLimits(value, LIMITS).truncated).toBe(expected);
  });
});

/** A trace with the fields a capture keeps (its chunk has no vector or text rank). */
function sampleTrace(): RagTrace {
  const { traceId, requestId: _r, capturedAt: _c, route: _ro, method: _m, status: _s, latencyMs: _l, aborted: _a, firstTokenMs: _f, truncated: _t, chunks, withheldChunks: _w, ...fields } = capture({});
  return { ...fields, id: traceId, createdAt: '2026-12-02T00:00:00.000Z', chunks: chunks.map((value) => ({ ...value, vectorRank: 1, textRank: null })), retrieval: null, messages: [], finishReason: null };
}

describe('a gate refusal\'s withheld chunks', () => {
  it('are captured from the trace, capped like the chunks, and redacted like them', () => {
    const withheld = [chunk('Call 07700 900123 to book.'), chunk('w'.repeat(50)), chunk('z')];
    const trace = { ...sampleTrace(), chunks: [], withheldChunks: withheld.map((value) => ({ ...value, vectorRank: 1, textRank: null })), refused: true, refusalReason: 'gate' as const };
    const captured = captureFromTrace(trace, { requestId: 'r', capturedAt: '2026-12-02T00:00:00.000Z', route: '/chat', method: 'POST', status: 200, latencyMs: 1 });
    expect(captured.withheldChunks).toEqual(withheld);
    const limited = applyLimits(captured, LIMITS);
    expect(limited.truncated).toBe(true);
    expect(limited.withheldChunks!.map((value) => value.text)).toEqual(['Call 07700 900123 to book.', `${'w'.repeat(28)}…[truncated]`]);
    const redacted = createRedactor({ key: 'a key of sixteen characters' }).redactCapture(captured);
    expect(redacted.withheldChunks![0]!.text).toMatch(/^Call \[phone:[0-9a-f]+\] to book\.$/);
    // A capture of a trace that withheld nothing has no such field.
    expect(captureFromTrace(sampleTrace(), { requestId: 'r', capturedAt: '2026-12-02T00:00:00.000Z', route: '/chat', method: 'POST', status: 200, latencyMs: 1 })).not.toHaveProperty('withheldChunks');
  });
});
