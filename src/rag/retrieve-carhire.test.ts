import { describe, expect, it } from 'vitest';
import { createLocalChatModel } from '../providers/local/generator.js';
import { corpusIndex, fixtureCorpus } from '../test-support/fixtures.js';
import { createRagPipeline } from './pipeline.js';
import { retrieve } from './retrieve.js';
import type { GroundcheckIndex } from './store.js';

// Found on a seventh corpus written before the pipeline ran on it (fixtures/carhire; METHODOLOGY.md changelog, 2026-12-05).
const carhireIndex = (): Promise<GroundcheckIndex> => corpusIndex(fixtureCorpus('carhire'));

describe('a phrasal verb the corpus writes as one word', () => {
  it('"the car broke down" is read as "breakdown": found and answered, not gated on "broke"', async () => {
    const index = await carhireIndex();
    const result = await retrieve(index, 'the car broke down what do i do', { topK: 5 });
    expect(result.gateReason).toBeNull();
    expect(result.chunks[0]?.chunkId).toBe('on-the-road#breakdowns-and-accidents');
    // The trace keeps the question as typed.
    expect(result.query).toBe('the car broke down what do i do');
    const trace = await createRagPipeline({ index, chat: createLocalChatModel() }).ask('the car broke down what do i do');
    expect(trace.answer).toContain('All rentals include 24-hour breakdown cover.');
  });
});

describe('words of how a question is asked, and slang', () => {
  it.each([
    ['is there a mileage limit', 'on-the-road#mileage'],
    ['can i drop the car at a different branch', 'booking#one-way-rentals'],
    ['someone nicked the car', 'insurance#theft'],
    ['do i get money back if i return it early', 'booking#early-returns'],
  ])('"%s" is not gated and finds %s', async (question, chunkId) => {
    const result = await retrieve(await carhireIndex(), question, { topK: 5 });
    expect(result.gateReason).toBeNull();
    expect(result.chunks[0]?.chunkId).toBe(chunkId);
  });

  it('what the company does not offer is still gated', async () => {
    const index = await carhireIndex();
    for (const question of ['do you have automatic cars', 'can i rent a van', 'whats the cheapest car']) {
      expect((await retrieve(index, question, { topK: 5 })).gateReason, question).toBe('coverage');
    }
  });
});
