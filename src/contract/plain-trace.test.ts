import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../errors.js';
import { evidenceFromChunks } from './evidence.js';
import { contentHash, parsePlainAnswer, traceFromPlain, UNKNOWN_MODEL } from './plain-trace.js';
import { REFUSAL_SENTENCE } from './refusal.js';

const record = {
  query: 'How long is probation?',
  chunks: [
    { id: 'hr-7', text: 'Probation lasts six months [1].', title: 'Onboarding', updated: '2025-03-01', score: 0.82, extra: 'ignored' },
    { id: 12, text: 'Reviews happen monthly.' },
  ],
  answer: 'Six months [1].',
  model: 'acme-llm-2',
  usage: { inputTokens: 120, outputTokens: 8 },
};

describe('traceFromPlain', () => {
  it('keeps every chunk text byte for byte with its fields, hashes it, and records what it cannot know as unknown', () => {
    const trace = traceFromPlain(record, { id: 't-1', createdAt: '2026-01-01T00:00:00.000Z', totalMs: 42 });
    expect(trace).toEqual({
      id: 't-1',
      createdAt: '2026-01-01T00:00:00.000Z',
      query: 'How long is probation?',
      mode: 'rag',
      chunks: [
        { chunkId: 'hr-7', document: 'hr-7', title: 'Onboarding', section: '', updated: '2025-03-01', text: 'Probation lasts six months [1].', hash: contentHash('Probation lasts six months [1].'), score: 0.82, fusedScore: 0.82, rank: 1, vectorRank: null, textRank: null },
        { chunkId: '12', document: '12', title: '', section: '', updated: null, text: 'Reviews happen monthly.', hash: contentHash('Reviews happen monthly.'), score: 0, fusedScore: 0, rank: 2, vectorRank: null, textRank: null },
      ],
      retrieval: { gated: false, minSimilarity: Number.NaN, topSimilarity: 0.82, candidates: { vector: 0, text: 0, fused: 2 }, embedder: 'external' },
      messages: [],
      answer: 'Six months [1].',
      refused: false,
      refusalReason: null,
      promptVersion: 'external',
      models: { chat: 'acme-llm-2', embedding: null },
      usage: { inputTokens: 120, outputTokens: 8, totalTokens: null },
      costUsd: null,
      finishReason: null,
      timings: { retrievalMs: 0, generationMs: 0, totalMs: 42 },
    });
    // The evidence a judge gets is the app's chunk text, with no [Source: …] line needed.
    expect(evidenceFromChunks(trace.chunks)).toEqual([
      { id: 'hr-7', text: 'Probation lasts six months [1].', kind: 'chunk', title: 'Onboarding', section: null, updated: '2025-03-01', body: 'Probation lasts six months [1].' },
      { id: '12', text: 'Reviews happen monthly.', kind: 'chunk', title: null, section: null, updated: null, body: 'Reviews happen monthly.' },
    ]);
  });

  it.each([
    { answer: REFUSAL_SENTENCE, chunks: [], refused: undefined, expected: { refused: true, refusalReason: 'gate', gated: true } },
    { answer: "Sorry, I don't know that.", chunks: [{ id: 'a', text: 'x' }], refused: undefined, expected: { refused: true, refusalReason: 'model', gated: false } },
    { answer: 'No comment.', chunks: [], refused: true, expected: { refused: true, refusalReason: 'gate', gated: true } },
    { answer: 'Six months.', chunks: [], refused: undefined, expected: { refused: false, refusalReason: null, gated: false } },
  ])('refusal from the answer or the record: $answer', ({ answer, chunks, refused, expected }) => {
    const trace = traceFromPlain({ query: 'q?', answer, chunks, ...(refused !== undefined ? { refused } : {}) });
    expect({ refused: trace.refused, refusalReason: trace.refusalReason, gated: trace.retrieval?.gated }).toEqual(expected);
    expect(trace.models.chat).toBe(UNKNOWN_MODEL);
  });

  it('norag mode has no retrieval summary', () => {
    expect(traceFromPlain({ query: 'q?', answer: 'a', chunks: [], mode: 'norag' }).retrieval).toBeNull();
  });

  it('rejects a malformed record with every problem, naming the source', () => {
    const attempt = () => traceFromPlain({ query: '', answer: 3, chunks: [{ text: 'x' }, { id: 'b', text: 'y', score: 'high' }] } as never, { source: 'target answer for q1' });
    expect(attempt).toThrow(InvalidInputError);
    expect(attempt).toThrow(
      [
        'target answer for q1: answer: expected string, received number',
        'target answer for q1: chunks.0.id: must be a non-empty string or a number',
        'target answer for q1: chunks.1.score: expected number, received string',
        'target answer for q1: query: must be a non-empty string',
      ].join('\n'),
    );
  });

  it('parsePlainAnswer takes the answer without a query', () => {
    expect(parsePlainAnswer({ answer: 'ok', chunks: [] })).toEqual({ answer: 'ok', chunks: [] });
  });
});
