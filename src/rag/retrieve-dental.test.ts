import { describe, expect, it } from 'vitest';
import { createLocalChatModel } from '../providers/local/generator.js';
import { corpusIndex, fixtureCorpus } from '../test-support/fixtures.js';
import { createRagPipeline } from './pipeline.js';
import { retrieve } from './retrieve.js';
import type { GroundcheckIndex } from './store.js';

// Found on a ninth corpus written before the pipeline ran on it (fixtures/dental; METHODOLOGY.md changelog, 2026-12-05).
const dentalIndex = (): Promise<GroundcheckIndex> => corpusIndex(fixtureCorpus('dental'));

describe('words of how a question is asked', () => {
  it('"whats your phone number" is not gated on "number": the number is what is asked for', async () => {
    const result = await retrieve(await dentalIndex(), 'whats your phone number', { topK: 5 });
    expect(result.gateReason).toBeNull();
    expect(result.chunks[0]?.chunkId).toBe('appointments#booking');
  });

  it('"how far ahead do i need to cancel" is answered: a missing particle does not make the answerer refuse', async () => {
    const trace = await createRagPipeline({ index: await dentalIndex(), chat: createLocalChatModel() }).ask('how far ahead do i need to cancel');
    expect(trace.answer).toContain("at least 24 hours' notice");
  });

  it('"how much does a filling cost" is answered: "cost" after the subject is its verb, no phrase with "filling"', async () => {
    const trace = await createRagPipeline({ index: await dentalIndex(), chat: createLocalChatModel() }).ask('how much does a filling cost');
    expect(trace.answer).toContain('£75.30');
  });

  it('what the practice does not offer is still refused', async () => {
    const pipeline = createRagPipeline({ index: await dentalIndex(), chat: createLocalChatModel() });
    for (const question of ['is there parking at the practice', 'can i get sedation', 'whats the best toothpaste for sensitive teeth']) {
      expect((await pipeline.ask(question)).refused, question).toBe(true);
    }
  });
});
