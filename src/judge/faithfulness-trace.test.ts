import { describe, expect, it } from 'vitest';
import { answerForJudging } from '../contract/notes.js';
import { createLocalChatModel } from '../providers/local/generator.js';
import { createRagPipeline } from '../rag/pipeline.js';
import { handbookIndex } from '../test-support/fixtures.js';
import { MockChatModel } from '../testing/index.js';
import { evidenceFromTrace } from './evidence.js';
import { judgeTrace } from './faithfulness-trace.js';
import { faithfulnessJudgeReply } from '../testing/judge-replies.js';
import type { ChatCallOptions } from '../providers/spec.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';
import { createLlmFaithfulnessJudge } from './llm-judge.js';
import type { EvidencePassage, FaithfulnessInput, FaithfulnessJudge, FaithfulnessJudgment } from './types.js';

const QUESTION = 'How many weeks of parental leave does a birth parent get?';
/** The mock judge answers with a valid reply to the prompt it was sent. */
const emptyReply = (call: ChatCallOptions) => faithfulnessJudgeReply(call.messages.at(-1)!.content);

/** A judge that records exactly what it was given. */
function recordingJudge(): FaithfulnessJudge & { inputs: FaithfulnessInput[] } {
  const inner = createHeuristicFaithfulnessJudge();
  const inputs: FaithfulnessInput[] = [];
  return {
    info: inner.info,
    inputs,
    judge(input, options): Promise<FaithfulnessJudgment> {
      inputs.push(input);
      return inner.judge(input, options);
    },
  };
}

describe('judgeTrace', () => {
  it('gives the judge exactly the chunk texts the generator saw, in prompt order, with the question and answer', async () => {
    const generator = new MockChatModel({ text: 'Birth parents get 20 weeks of parental leave at full pay (Leave Policy, updated 2026-01-12).' });
    const pipeline = createRagPipeline({ index: await handbookIndex(), chat: generator, retrieval: { topK: 5 } });
    const trace = await pipeline.ask(QUESTION);
    expect(trace.chunks.length).toBeGreaterThan(1);

    const judge = recordingJudge();
    const judgment = await judgeTrace(judge, trace);
    expect(judge.inputs).toEqual([
      {
        question: trace.query,
        answer: answerForJudging(trace), // the outdated-document note (the real clock makes every fixture old) is taken off
        // Title, section and date travel as fields; the body is the text after the source line.
        evidence: trace.chunks.map((chunk) => ({
          id: chunk.chunkId,
          text: chunk.text,
          kind: 'chunk',
          title: chunk.title,
          section: chunk.section === '' ? null : chunk.section,
          updated: chunk.updated,
          body: chunk.text.slice(chunk.text.indexOf('\n') + 1),
        })),
      },
    ]);
    // The generator's prompt holds each of those texts: the judge saw what the generator saw.
    const prompt = generator.calls[0]!.messages.map((message) => message.content).join('\n');
    for (const passage of judge.inputs[0]!.evidence) expect(prompt).toContain(`<document id="${passage.id}">\n${passage.text}\n</document>`);
    expect(judgment).toMatchObject({ status: 'ok', faithful: true, claims: [{ verdict: 'verified', evidenceChunkId: 'leave-policy#parental-leave' }] });
  });

  it('an LLM judge receives exactly the trace\'s chunks in its prompt, and no other passage', async () => {
    const pipeline = createRagPipeline({ index: await handbookIndex(), chat: createLocalChatModel(), retrieval: { topK: 4 } });
    const trace = await pipeline.ask(QUESTION);
    const judgeModel = new MockChatModel({ text: emptyReply });
    await judgeTrace(createLlmFaithfulnessJudge({ chat: judgeModel }), trace);
    const user = judgeModel.calls[0]!.messages[1]!.content;
    const ids = [...user.matchAll(/<evidence id="([^"]+)">\n([\s\S]*?)\n<\/evidence>/g)].map((match) => ({ id: match[1], text: match[2] }));
    expect(ids).toEqual(trace.chunks.map((chunk) => ({ id: chunk.chunkId, text: chunk.text })));
    expect(user).toContain(`<answer>\n${answerForJudging(trace)}\n</answer>`);
  });

  it('appends reference excerpts after the chunks and passes the abort signal', async () => {
    const pipeline = createRagPipeline({ index: await handbookIndex(), chat: createLocalChatModel(), retrieval: { topK: 2 } });
    const trace = await pipeline.ask(QUESTION);
    const reference: EvidencePassage = { id: 'reference:q001', text: 'Birth parents get 20 weeks at full pay.', kind: 'reference' };
    const judgeModel = new MockChatModel({ text: emptyReply });
    const controller = new AbortController();
    await judgeTrace(createLlmFaithfulnessJudge({ chat: judgeModel }), trace, { references: [reference], abortSignal: controller.signal });
    expect(judgeModel.calls[0]!.abortSignal).toBe(controller.signal);
    const ids = [...judgeModel.calls[0]!.messages[1]!.content.matchAll(/<evidence id="([^"]+)">/g)].map((match) => match[1]);
    expect(ids).toEqual([...trace.chunks.map((chunk) => chunk.chunkId), 'reference:q001']);
  });

  it('a gated refusal has no evidence: the heuristic judge calls it a correct refusal', async () => {
    const pipeline = createRagPipeline({ index: await handbookIndex(), chat: new MockChatModel({ text: 'never called' }) });
    const trace = await pipeline.ask('xylophone quasar zebra nebula');
    expect(trace.chunks).toEqual([]);
    const judgment = await judgeTrace(createHeuristicFaithfulnessJudge(), trace);
    expect(judgment).toMatchObject({ status: 'ok', refused: true, evidenceRelevant: false, refusalVerdict: 'correct_refusal', claims: [] });
  });
});

describe('evidenceFromTrace', () => {
  const trace = {
    chunks: [
      { chunkId: 'a#x', text: 'text a', title: 'A', section: 'X', updated: '2026-01-12' },
      { chunkId: 'b#y', text: 'text b', title: 'B', section: '', updated: null },
    ],
    refusalReason: null,
  } as Parameters<typeof evidenceFromTrace>[0];

  it('maps chunks, then references; the same passage twice is kept once', () => {
    expect(evidenceFromTrace(trace, [{ id: 'a#x', text: 'text a', kind: 'reference' }, { id: 'ref', text: 'r', kind: 'reference' }])).toEqual([
      { id: 'a#x', text: 'text a', kind: 'chunk', title: 'A', section: 'X', updated: '2026-01-12', body: 'text a' },
      { id: 'b#y', text: 'text b', kind: 'chunk', title: 'B', section: null, updated: null, body: 'text b' },
      { id: 'ref', text: 'r', kind: 'reference' },
    ]);
  });

  it('rejects a reference that reuses an id with other text, or has no id', () => {
    expect(() => evidenceFromTrace(trace, [{ id: 'a#x', text: 'different', kind: 'reference' }])).toThrow(/reference id "a#x" is already used/);
    expect(() => evidenceFromTrace(trace, [{ id: '', text: 'r', kind: 'reference' }])).toThrow(/option references/);
  });
});
