import { describe, expect, it } from 'vitest';
import './index.js';
import type { FaithfulnessJudge } from '../judge/types.js';
import { createLocalChatModel } from '../providers/local/generator.js';
import { createRagPipeline } from '../rag/pipeline.js';
import { handbookIndex } from '../test-support/fixtures.js';
import { SHOP_KNOWLEDGE_BASE } from '../test-support/foreign-rag-app.js';

const warranty = SHOP_KNOWLEDGE_BASE.find((chunk) => chunk.id === 'kb-301')!;
/** Plain records, as an app not built on groundcheck has them. */
const grounded = { query: 'How long is the warranty?', chunks: [warranty], answer: 'Electronics carry a 2-year warranty [KB-301].' };
const wrong = { query: 'How long is the warranty?', chunks: [warranty], answer: 'Electronics carry a 3-year warranty [KB-301].' };
const refusal = { query: 'Do you sell bikes?', chunks: [], answer: "I don't know: the documents do not cover this." };

describe('groundcheck/vitest matchers', () => {
  it('toBeGrounded passes for a grounded answer and fails with the flagged claims', async () => {
    await expect(grounded).toBeGrounded();
    await expect(wrong).not.toBeGrounded();
    await expect(expect(wrong).toBeGrounded()).rejects.toThrow(
      [
        'expected the answer to be grounded in its 1 chunk, but 1 of its 1 claims is not:',
        '  ✗ contradicted ',
      ].join('\n'),
    );
    await expect(expect(wrong).toBeGrounded()).rejects.toThrow(/"Electronics carry a 3-year warranty \[KB-301\]\." \(kb-301: .*\)\n\nanswer: "Electronics carry a 3-year warranty \[KB-301\]\."\nchunks: kb-301$/);
    await expect(expect(grounded).not.toBeGrounded()).rejects.toThrow('expected the answer not to be grounded, but all 1 of its claims are verified by its 1 chunk:\n  ✓ verified');
    await expect(expect(refusal).toBeGrounded()).rejects.toThrow(`expected a grounded answer, but the answer is a refusal: "I don't know: the documents do not cover this."`);
  });

  it('toBeGrounded takes another judge, and a judge that fails decides nothing (it throws)', async () => {
    const failing: FaithfulnessJudge = {
      info: { kind: 'mock', model: 'broken', promptVersion: 'v0' },
      judge: async () => ({ status: 'error', judge: { kind: 'mock', model: 'broken', promptVersion: 'v0' }, error: 'unparseable reply', rawReply: '?', attempts: 2, authError: false, usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 }, costUsd: null, durationMs: 0 }),
    };
    await expect(expect(grounded).toBeGrounded({ judge: failing })).rejects.toThrow('toBeGrounded: the judge (mock:broken) failed, so nothing was decided: unparseable reply');
    await expect(expect(grounded).not.toBeGrounded({ judge: failing })).rejects.toThrow('the judge (mock:broken) failed');
  });

  it('toHaveOutcome and toAnswerCorrectly: a grounded answer to another question is off topic, not a pass', async () => {
    // Faithful to its chunk, but not what was asked: toBeGrounded passes it, the outcome does not.
    const offTopic = { query: 'Does the warranty cover accidental damage?', chunks: [warranty], answer: 'Electronics carry a 2-year warranty [KB-301].' };
    await expect(offTopic).toBeGrounded();
    await expect(offTopic).toHaveOutcome('off_topic');
    await expect(offTopic).not.toAnswerCorrectly();
    await expect(expect(offTopic).toAnswerCorrectly()).rejects.toThrow(/^expected a correct answer or a correct refusal, but it is off_topic \(.*answer relevance: off_topic\)\n\nclaims:\n  ✓ verified/);

    await expect(grounded).toAnswerCorrectly({ reference: 'Electronics have a 2-year warranty.' });
    await expect(grounded).toHaveOutcome(['correct', 'incomplete']);
    await expect(wrong).toHaveOutcome('hallucinated');
    await expect(expect(wrong).toHaveOutcome('correct')).rejects.toThrow('expected the outcome correct, but it is hallucinated');
    // A refusal is right only when no chunk answers.
    await expect(refusal).toHaveOutcome('correct_refusal');
    await expect(refusal).toAnswerCorrectly();
    await expect({ ...refusal, query: 'How long is the warranty on electronics?', chunks: [warranty] }).toHaveOutcome('over_refusal');
  });

  it('toHaveOutcome names the outcomes when given one that does not exist', async () => {
    await expect(expect(grounded).toHaveOutcome('great' as never)).rejects.toThrow(/^toHaveOutcome\(outcome\): give one of judge_error, correct_refusal, over_refusal/);
  });

  it('toRefuse', () => {
    expect(refusal).toRefuse();
    expect(grounded).not.toRefuse();
    expect(() => expect(grounded).toRefuse()).toThrow('expected a refusal, but the answer says: "Electronics carry a 2-year warranty [KB-301]." (from 1 chunk(s): kb-301)');
    expect(() => expect(refusal).not.toRefuse()).toThrow(`expected an answer, but it refused: "I don't know: the documents do not cover this." (0 chunk(s) retrieved, refused by the model)`);
    // An app's own refusal sentence.
    const own = { query: 'q?', chunks: [], answer: 'Computer says no.' };
    expect(own).not.toRefuse();
    expect(own).toRefuse({ refusalSentence: 'Computer says no.' });
  });

  it('toCite by id in an app\'s own format, and by title in groundcheck\'s citation', async () => {
    expect(grounded).toCite('kb-301');
    expect(() => expect(grounded).toCite('kb-101')).toThrow("expected the answer to cite chunk kb-101, but kb-101 is not among the trace's 1 chunk(s) (kb-301): an answer can only cite what it was given");
    const uncited = { ...grounded, answer: 'Two years.' };
    expect(() => expect(uncited).toCite('kb-301')).toThrow('expected the answer to cite chunk kb-301 ("Warranty", updated 2026-01-05), but it cites nothing\n\nanswer: "Two years."');
    expect(() => expect(grounded).not.toCite('kb-301')).toThrow('expected the answer not to cite chunk kb-301 ("Warranty", updated 2026-01-05), but it does by its id');

    const pipeline = createRagPipeline({ index: await handbookIndex(), chat: createLocalChatModel() });
    const trace = await pipeline.ask('How many weeks of parental leave does a birth parent get?');
    const cited = trace.chunks.find((chunk) => trace.answer.includes(`(${chunk.title}, updated ${chunk.updated}`))!;
    expect(cited).toBeDefined();
    expect(trace).toCite(cited.chunkId);
    await expect(trace).toBeGrounded();
    // A chunk it was given but does not cite.
    const other = trace.chunks.find((chunk) => chunk.title !== cited.title)!;
    expect(other).toBeDefined();
    expect(trace).not.toCite(other.chunkId);
  });

  it('anything but a trace is an input error naming the matcher', () => {
    expect(() => expect('just text').toRefuse()).toThrow('toRefuse: expected a RagTrace or a { query, chunks: [{ id, text }], answer } record, got string');
    expect(() => expect({ query: 'q', chunks: [{ text: 'x' }], answer: 'a' }).toCite('x')).toThrow('toCite: chunks.0.id: chunk id must be a non-empty string or a number');
  });
});
