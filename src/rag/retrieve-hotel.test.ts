import { describe, expect, it } from 'vitest';
import { createLocalChatModel } from '../providers/local/generator.js';
import { corpusIndex, fixtureCorpus } from '../test-support/fixtures.js';
import { createRagPipeline } from './pipeline.js';
import { retrieve } from './retrieve.js';
import type { GroundcheckIndex } from './store.js';
import { splitCompound, withCloseForms } from './term-coverage.js';

// Found on a sixth corpus written before the pipeline ran on it (fixtures/hotel; METHODOLOGY.md changelog, 2026-12-05).
const hotelIndex = (): Promise<GroundcheckIndex> => corpusIndex(fixtureCorpus('hotel'));

describe('a closed compound the corpus writes apart', () => {
  it('"checkout" and "wifi" are found as "check-out" and "Wi-Fi", not gated', async () => {
    const index = await hotelIndex();
    // Before: the term-coverage gate refused both ("checkout", "wifi" found nowhere in the corpus).
    const checkout = await retrieve(index, 'how much for a late checkout', { topK: 5 });
    expect(checkout.gateReason).toBeNull();
    expect(checkout.chunks[0]?.chunkId).toBe('arrival-and-departure#check-out');
    const wifi = await retrieve(index, 'whats the wifi password', { topK: 5 });
    expect(wifi.gateReason).toBeNull();
    expect(wifi.chunks[0]?.chunkId).toBe('facilities#wi-fi');
  });

  it('only a split whose two words stand side by side in a chunk counts', async () => {
    const index = await hotelIndex();
    expect(splitCompound(index, 'checkout')).toEqual(['check', 'out']);
    expect(splitCompound(index, 'wifi')).toEqual(['wi', 'fi']);
    // "suit" and "case" are no words of the corpus; "dogroom": both words are, never side by side.
    expect(splitCompound(index, 'suitcase')).toBeNull();
    expect(splitCompound(index, 'dogroom')).toBeNull();
    expect(withCloseForms(index, 'how much for a late checkout')).toBe('how much for a late checkout check out');
  });

  it('a question about what the hotel does not offer is still gated', async () => {
    const index = await hotelIndex();
    for (const question of ['is there a shuttle from the airport', 'can i get a massage', 'do you have a bar']) {
      const result = await retrieve(index, question, { topK: 5 });
      expect(result.gateReason, question).toBe('coverage');
    }
  });
});

describe('words that stand for what a question does not name, and verbs after its subject', () => {
  it('"is there somewhere to charge my electric car" is not gated on "somewhere"', async () => {
    const result = await retrieve(await hotelIndex(), 'is there somewhere to charge my electric car', { topK: 5 });
    expect(result.gateReason).toBeNull();
    expect(result.chunks[0]?.chunkId).toBe('facilities#parking');
  });

  it('"what time does breakfast finish on a saturday" is answered with the weekend hours', async () => {
    // Before: gated on "finish"; with the gate passed, the answerer refused for it (a missing topic word).
    const pipeline = createRagPipeline({ index: await hotelIndex(), chat: createLocalChatModel() });
    const trace = await pipeline.ask('what time does breakfast finish on a saturday');
    expect(trace.refused).toBe(false);
    expect(trace.answer).toContain('8am to 11am at weekends');
  });

  it('"til" is read as "until"', async () => {
    const result = await retrieve(await hotelIndex(), 'til what time is room service', { topK: 5 });
    expect(result.gateReason).toBeNull();
    expect(result.chunks[0]?.chunkId).toBe('facilities#room-service');
  });
});
