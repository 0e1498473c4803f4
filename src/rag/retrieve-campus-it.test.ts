import { describe, expect, it } from 'vitest';
import { GUARDRAIL_REFUSAL_SENTENCE } from '../contract/refusal.js';
import { createLocalChatModel } from '../providers/local/generator.js';
import { corpusIndex, fixtureCorpus } from '../test-support/fixtures.js';
import { createRagPipeline } from './pipeline.js';
import { retrieve } from './retrieve.js';
import type { GroundcheckIndex } from './store.js';

// Found on a tenth corpus written before the pipeline ran on it (fixtures/campus-it; METHODOLOGY.md changelog, 2026-12-05).
const itIndex = (): Promise<GroundcheckIndex> => corpusIndex(fixtureCorpus('campus-it'));

describe('chat spellings', () => {
  it('"dodgy" is read as "suspicious": the phishing advice is found', async () => {
    const result = await retrieve(await itIndex(), 'i think i clicked a dodgy link in an email', { topK: 5 });
    expect(result.gateReason).toBeNull();
    expect(result.chunks[0]?.chunkId).toBe('help#phishing');
  });

  it('"whats the password for …", typed without the apostrophe, asks for a credential: the guardrail refusal', async () => {
    // Before: answered with the accessibility software on "all library computers".
    const trace = await createRagPipeline({ index: await itIndex(), chat: createLocalChatModel() }).ask('whats the password for the library computers');
    expect(trace.answer).toBe(GUARDRAIL_REFUSAL_SENTENCE);
  });
});
