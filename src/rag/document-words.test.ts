import { describe, expect, it } from 'vitest';
import { handbookIndex } from '../test-support/fixtures.js';
import { retrieve } from './retrieve.js';
import { gateTerms, withoutDocumentWords } from './term-coverage.js';

// Words for the documents themselves ("policy", "rules", "procedure") are not searched when the
// question names a topic besides them (2026-12-07): the handbook's titles carry them ("Leave
// Policy"), and "What's the sick pay policy?" was answered, on the demo, with the leave policy's
// carry-over rule.
describe('document words in the search', () => {
  it('are left out when the question names a topic, kept when it is about the documents alone', () => {
    const without = (text: string) => withoutDocumentWords(text, gateTerms(text));
    expect(without("What's the sick pay policy?")).toBe("What's the sick pay ?");
    expect(without('what are the rules on gifts')).toBe('what are the on gifts');
    expect(without('Data breach PROCEDURE')).toBe('Data breach');
    // Only the words themselves: "processing" and "ruler" are other words.
    expect(without('how is data processing ruled')).toBe('how is data processing ruled');
    expect(without('what policies are there?')).toBe('what policies are there?');
  });

  it('"What\'s the sick pay policy?" finds the company sick pay section first on the handbook', async () => {
    const index = await handbookIndex();
    const result = await retrieve(index, "What's the sick pay policy?");
    expect(result.chunks[0]?.chunkId).toBe('sickness-absence#company-sick-pay');
    const rules = await retrieve(index, 'what are the rules on gifts');
    expect(rules.chunks[0]?.chunkId).toBe('gifts-and-hospitality#receiving-gifts');
  });
});
