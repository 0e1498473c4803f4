import { describe, expect, it } from 'vitest';
import { evidenceFromChunks } from './evidence.js';
import { textHash } from './hash.js';
import { traceFromPlain } from './plain-trace.js';
import { REFUSAL_SENTENCE } from './refusal.js';

const fixed = { generateId: () => 'trace-1', now: () => new Date('2026-03-04T05:06:07.000Z') };

describe('traceFromPlain', () => {
  it('turns an app’s own chunks and answer into a trace, inventing nothing', () => {
    const result = traceFromPlain(
      { query: 'How long is probation?', chunks: [{ id: 'hr-7', text: 'Probation lasts 6 months.', title: 'HR Guide', score: 0.81 }, { id: 'hr-9', text: 'Notice is 1 week.' }], answer: 'Six months.', model: 'acme-gpt' },
      fixed,
    );
    expect(result).toEqual({
      ok: true,
      trace: {
        id: 'trace-1',
        createdAt: '2026-03-04T05:06:07.000Z',
        query: 'How long is probation?',
        mode: 'rag',
        chunks: [
          { chunkId: 'hr-7', document: 'hr-7', title: 'HR Guide', section: '', updated: null, text: 'Probation lasts 6 months.', hash: textHash('Probation lasts 6 months.'), score: 0.81, fusedScore: 0.81, rank: 1, vectorRank: null, textRank: null },
          { chunkId: 'hr-9', document: 'hr-9', title: '', section: '', updated: null, text: 'Notice is 1 week.', hash: textHash('Notice is 1 week.'), score: 0, fusedScore: 0, rank: 2, vectorRank: null, textRank: null },
        ],
        retrieval: null,
        messages: [],
        answer: 'Six months.',
        refused: false,
        refusalReason: null,
        promptVersion: 'app',
        models: { chat: 'acme-gpt', embedding: null },
        usage: { inputTokens: null, outputTokens: null, totalTokens: null },
        costUsd: null,
        finishReason: null,
        timings: { retrievalMs: 0, generationMs: 0, totalMs: 0 },
      },
    });
  });

  it('gives the judges exactly the app’s chunk texts, with its title as a field', () => {
    const result = traceFromPlain({ query: 'q?', chunks: [{ id: 'a', text: 'Plain text, no source line.', title: 'A Doc' }], answer: 'x' }, fixed);
    if (!result.ok) throw new Error(result.error);
    expect(evidenceFromChunks(result.trace.chunks)).toEqual([{ id: 'a', text: 'Plain text, no source line.', kind: 'chunk', title: 'A Doc', section: null, updated: null, body: 'Plain text, no source line.' }]);
  });

  it('reads what JSON APIs send: a numeric id as its string, null for a missing title, section or score', () => {
    const result = traceFromPlain({ query: 'q?', chunks: [{ id: 1042, text: 't', title: null, section: null, updated: null, score: null }], answer: 'x' }, fixed);
    if (!result.ok) throw new Error(result.error);
    expect(result.trace.chunks[0]).toMatchObject({ chunkId: '1042', title: '', section: '', updated: null, score: 0, rank: 1 });
    expect(traceFromPlain({ query: 'q', chunks: [{ id: true, text: 't' }], answer: 'x' }, fixed)).toEqual({ ok: false, error: 'chunks.0.id: chunk id must be a non-empty string or a number' });
  });

  it('detects a refusal', () => {
    const result = traceFromPlain({ query: 'q?', chunks: [], answer: REFUSAL_SENTENCE }, fixed);
    expect(result).toMatchObject({ ok: true, trace: { refused: true, refusalReason: 'model' } });
  });

  it.each([
    [{ chunks: [], answer: 'x' }, /^query: /],
    [{ query: 'q', chunks: [{ id: 'a', text: 5 }], answer: 'x' }, /^chunks\.0\.text: /],
    [{ query: 'q', chunks: [{ id: '', text: 't' }], answer: 'x' }, /^chunks\.0\.id: chunk id must be a non-empty string/],
    [{ query: 'q', chunks: 'nope', answer: 'x' }, /^chunks: /],
    [null, /^record: /],
  ])('rejects %j with the field named', (input, message) => {
    expect(traceFromPlain(input, fixed)).toEqual({ ok: false, error: expect.stringMatching(message) });
  });
});
