import { describe, expect, it } from 'vitest';
import { createLocalChatModel } from '../providers/local/generator.js';
import { corpusIndex, fixtureCorpus } from '../test-support/fixtures.js';
import { createRagPipeline } from './pipeline.js';
import { retrieve } from './retrieve.js';
import type { GroundcheckIndex } from './store.js';

// Found on an eighth corpus written before the pipeline ran on it (fixtures/energy; METHODOLOGY.md changelog, 2026-12-05).
const energyIndex = (): Promise<GroundcheckIndex> => corpusIndex(fixtureCorpus('energy'));

describe('details of when, and idiom', () => {
  it('"at night" is when, not what: the prepayment question is not gated', async () => {
    const result = await retrieve(await energyIndex(), 'ive run out of credit on my prepay meter at night', { topK: 5 });
    expect(result.gateReason).toBeNull();
    expect(result.chunks[0]?.chunkId).toBe('meters#prepayment-meters');
  });

  it('"moving house next week" is answered from "Moving home"', async () => {
    // Before: gated on "house"; with "moving home" read, the answerer still refused for "next" and "week".
    const trace = await createRagPipeline({ index: await energyIndex(), chat: createLocalChatModel() }).ask('im moving house next week what do i do');
    expect(trace.refused).toBe(false);
    expect(trace.answer).toContain('Tell us at least 2 days before you move.');
  });

  it('"why is my bill an estimate" is answered: "bill" and "estimate" are two noun phrases, not one the answer must hold together', async () => {
    const trace = await createRagPipeline({ index: await energyIndex(), chat: createLocalChatModel() }).ask('why is my bill an estimate');
    expect(trace.answer).toContain('if we have no reading, we estimate your use');
  });

  it('what the supplier does not offer is still gated', async () => {
    const index = await energyIndex();
    for (const question of ['do you do solar panels', 'can i get a heat pump grant', 'do you offer broadband']) {
      expect((await retrieve(index, question, { topK: 5 })).gateReason, question).toBe('coverage');
    }
  });
});
