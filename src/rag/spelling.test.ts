import { describe, expect, it } from 'vitest';
import { handbookIndex } from '../test-support/fixtures.js';
import { retrieve } from './retrieve.js';
import { correctSpelling } from './spelling.js';

describe('correctSpelling', () => {
  it('reads a misspelt word as the corpus word one slip away', async () => {
    const index = await handbookIndex();
    expect(await correctSpelling(index, 'how much paternitty leave do i get')).toBe('how much paternity leave do i get');
    expect(await correctSpelling(index, 'can i get a refrence when i leave')).toBe('can i get a reference when i leave');
    expect(await correctSpelling(index, 'giving 2 colleages a lift')).toBe('giving 2 colleagues a lift');
  });

  it('reads a doubled letter typed once (2026-12-05): "pasport" is "passport", and the question passes the gate', async () => {
    const index = await handbookIndex();
    expect(await correctSpelling(index, 'do i have to bring my pasport in on day one')).toBe('do i have to bring my passport in on day one');
    // Before, "pasport" was a word the corpus never holds: the gate refused the question.
    const result = await retrieve(index, 'also do i have to bring my pasport in on day one', { topK: 8 });
    expect(result.gateReason).toBeNull();
    expect(result.chunks.map((chunk) => chunk.chunkId)).toContain('onboarding#before-your-first-day');
  });

  it('leaves real words, short words, capitalized words and words the corpus has as typed', async () => {
    const index = await handbookIndex();
    for (const text of ['are there showers at the bristol office', 'how long is probation for new joiners', 'is there a gym discount', 'what is Mitchells salary', 'can i get paid in bitcoin', 'how many days of annual leave do i get']) {
      expect(await correctSpelling(index, text)).toBe(text);
    }
  });

  it('retrieval searches the corrected words and the trace keeps the question as typed; spelling: false turns it off', async () => {
    const index = await handbookIndex();
    const typed = 'can i get a refrence when i leave';
    const result = await retrieve(index, typed, { topK: 8 });
    expect(result.query).toBe(typed);
    expect(result.chunks[0]?.chunkId).toBe('leaving-harbourline#references');
    const off = await retrieve(index, typed, { topK: 8, spelling: false });
    expect(off.chunks.map((chunk) => chunk.chunkId)).not.toContain('leaving-harbourline#references');
  });
});
