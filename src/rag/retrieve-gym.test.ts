import { describe, expect, it } from 'vitest';
import { corpusIndex, fixtureCorpus } from '../test-support/fixtures.js';
import type { GroundcheckIndex } from './store.js';
import { retrieve } from './retrieve.js';
import { withCloseForms } from './term-coverage.js';

// Found on a third corpus written before the pipeline ran on it (fixtures/gym; METHODOLOGY.md changelog, 2026-12-05).
const gymIndex = (): Promise<GroundcheckIndex> => corpusIndex(fixtureCorpus('gym'));

describe('a word the corpus holds only in a close form is searched as that form', () => {
  it('"how do i complain" finds the complaints section', async () => {
    // Before: the gate let "complain" through on "complaint", but neither search found a chunk
    // (Porter stems differ; the hashed embedder weighs a word the corpus lacks at nothing): refused for similarity.
    const result = await retrieve(await gymIndex(), 'how do i complain', { topK: 5 });
    expect(result.gateReason).toBeNull();
    expect(result.chunks[0]?.chunkId).toBe('payments#complaints');
    expect(result.query).toBe('how do i complain');
  });

  it('only the asking clause\'s words are added, each as its corpus form', async () => {
    const index = await gymIndex();
    expect(withCloseForms(index, 'how do i complain')).toBe('how do i complain complaint');
    // A scenario sentence's word is not the topic: "quietly" is not searched as "quiet".
    expect(withCloseForms(index, 'Can I bring a guest? She would sit quietly.')).toBe('Can I bring a guest? She would sit quietly.');
    // Words the corpus holds as they are, and short words, are left alone.
    expect(withCloseForms(index, 'can i bring a guest')).toBe('can i bring a guest');
  });
});

describe('verbs of coming and going, and light verbs, are no topic words', () => {
  it('"do lockers take coins" is not gated on "take" (the corpus writes "taken")', async () => {
    const result = await retrieve(await gymIndex(), 'do lockers take coins', { topK: 5 });
    expect(result.gateReason).toBeNull();
    expect(result.chunks[0]?.chunkId).toBe('club-rules#lockers-and-towels');
  });

  it('"can i still go in if im 5 mins late to spin" is not gated on "go" and finds arriving late', async () => {
    const result = await retrieve(await gymIndex(), 'can i still go in if im 5 mins late to spin', { topK: 5 });
    expect(result.gateReason).toBeNull();
    expect(result.chunks[0]?.chunkId).toBe('classes#arriving-late');
  });
});
