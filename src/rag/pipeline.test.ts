import { describe, expect, it } from 'vitest';
import { createLocalChatModel } from '../providers/local/generator.js';
import { handbookIndex } from '../test-support/fixtures.js';
import { MockChatModel, MockEmbeddingModel } from '../testing/index.js';
import { createRagPipeline } from './pipeline.js';
import { REFUSAL_SENTENCE } from '../contract/refusal.js';

describe('createRagPipeline().ask', () => {
  it('gate: refuses without calling the model when nothing relevant is retrieved', async () => {
    const chat = new MockChatModel({ text: 'should never be said' });
    const pipeline = createRagPipeline({ index: await handbookIndex(), chat });
    const trace = await pipeline.ask('xylophone quasar zebra nebula');
    expect(chat.calls).toHaveLength(0);
    expect(trace).toMatchObject({ answer: REFUSAL_SENTENCE, refused: true, refusalReason: 'gate', chunks: [], messages: [] });
    expect(trace.retrieval?.gated).toBe(true);
  });

  it('gate: the trace keeps the chunks the gate withheld (never in a prompt) for the judge', async () => {
    const chat = new MockChatModel({ text: 'should never be said' });
    const index = await handbookIndex();
    const pipeline = createRagPipeline({ index, chat, retrieval: { minSimilarity: 0.99, topK: 4 } });
    const trace = await pipeline.ask('How many weeks of parental leave does a birth parent get?');
    expect(chat.calls).toHaveLength(0);
    expect(trace).toMatchObject({ refused: true, refusalReason: 'gate', chunks: [], messages: [] });
    expect(trace.withheldChunks?.map((chunk) => chunk.chunkId)).toContain('leave-policy#parental-leave');
    expect(trace.withheldChunks).toHaveLength(4);
    const answered = await createRagPipeline({ index, chat: new MockChatModel({ text: 'Twenty weeks.' }), retrieval: { topK: 4 } }).ask('How many weeks of parental leave does a birth parent get?');
    expect(answered.withheldChunks).toBeUndefined();
  });

  it('the trace holds exactly the chunks whose text is in the prompt, in prompt order', async () => {
    const chat = new MockChatModel({ text: 'Twenty weeks (Leave Policy, updated 2026-01-12).' });
    const index = await handbookIndex();
    const pipeline = createRagPipeline({ index, chat, retrieval: { topK: 5 } });
    const trace = await pipeline.ask('How many weeks of parental leave does a birth parent get?');
    expect(chat.calls).toHaveLength(1);
    const prompt = chat.calls[0]!.messages.map((message) => message.content).join('\n');
    expect(trace.messages).toEqual(chat.calls[0]!.messages);
    expect(trace.chunks.length).toBeGreaterThan(0);
    // Every trace chunk's exact text is in the prompt, in order…
    let cursor = -1;
    for (const chunk of trace.chunks) {
      const at = prompt.indexOf(`<document id="${chunk.chunkId}">\n${chunk.text}\n</document>`);
      expect(at).toBeGreaterThan(cursor);
      cursor = at;
    }
    // …and the prompt holds no chunk that is not in the trace.
    const promptIds = [...prompt.matchAll(/<document id="([^"]+)">/g)].map((match) => match[1]);
    expect(promptIds).toEqual(trace.chunks.map((chunk) => chunk.chunkId));
    // And each chunk's text is what the index stores for it.
    for (const chunk of trace.chunks) expect(index.getChunk(chunk.chunkId)?.modelText).toBe(chunk.text);
  });

  it('retrieves exactly once per question, and not at all when given a retrieval', async () => {
    const embedder = new MockEmbeddingModel({ dimensions: 128 });
    const index = await handbookIndex(embedder);
    const pipeline = createRagPipeline({ index, chat: new MockChatModel() });
    const before = embedder.calls.length;
    await pipeline.ask('What is the mileage rate?');
    expect(embedder.calls.length - before).toBe(1);
    expect(embedder.calls.at(-1)?.purpose).toBe('query');

    const retrieval = await pipeline.retrieve('What is the mileage rate?');
    const count = embedder.calls.length;
    const trace = await pipeline.ask('What is the mileage rate?', { retrieval });
    expect(embedder.calls.length).toBe(count);
    expect(trace.chunks).toBe(retrieval.chunks);
  });

  it('norag mode sends the bare question, and the offline model honestly refuses', async () => {
    const pipeline = createRagPipeline({ index: await handbookIndex(), chat: createLocalChatModel() });
    const trace = await pipeline.ask('How many weeks of parental leave does a birth parent get?', { mode: 'norag' });
    expect(trace).toMatchObject({ mode: 'norag', chunks: [], retrieval: null, refused: true, refusalReason: 'model', answer: REFUSAL_SENTENCE });
    expect(trace.messages.map((message) => message.content).join('\n')).not.toContain('<documents>');
  });

  it('records models, usage, prompt version and timings; detects a refusal paraphrase from the model', async () => {
    const chat = new MockChatModel({ text: "Sorry, the documents don't cover that.", modelId: 'mock-1' });
    const pipeline = createRagPipeline({ index: await handbookIndex(), chat, generateId: () => 'trace-1', now: () => new Date('2026-02-03T04:05:06Z') });
    const trace = await pipeline.ask('How do I book annual leave?');
    expect(trace).toMatchObject({
      id: 'trace-1',
      createdAt: '2026-02-03T04:05:06.000Z',
      refused: true,
      refusalReason: 'model',
      promptVersion: 'grounded-v3',
      models: { chat: 'mock:mock-1', embedding: 'local:local-hash-v1' },
      usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 },
    });
    expect(trace.timings.totalMs).toBeGreaterThanOrEqual(trace.timings.generationMs);
  });
});
