import { describe, expect, it } from 'vitest';
import type { EvidenceFields } from './capture-row.js';
import { ChunkInterner } from './chunk-interner.js';

/** A chunk as an index read gives it: new objects (and new strings) each time. */
function read(text: string, overrides: Partial<EvidenceFields> = {}): EvidenceFields & { score: number } {
  return { chunkId: ['c', '1'].join(''), document: 'leave.md', title: 'Leave', section: 'Annual leave', updated: '2026-01-12', hash: 'h1', text: [text].join(''), score: 0.5, ...overrides };
}

describe('ChunkInterner', () => {
  it('gives the fields of the first copy seen for an equal chunk, and only the evidence fields', () => {
    const interner = new ChunkInterner();
    const first = interner.intern(read('Full-time staff get 25 days.'));
    expect(first).toEqual({ chunkId: 'c1', document: 'leave.md', title: 'Leave', section: 'Annual leave', updated: '2026-01-12', hash: 'h1', text: 'Full-time staff get 25 days.' });
    expect(interner.intern(read('Full-time staff get 25 days.'))).toBe(first);
  });

  it.each([
    ['text', { text: 'Full-time staff get 30 days.' }],
    ['chunk id', { chunkId: 'c2' }],
    ['title', { title: 'Holidays' }],
    ['updated date', { updated: null }],
  ])('never gives another chunk’s fields for a reused hash (%s differs)', (_field, overrides) => {
    const interner = new ChunkInterner();
    interner.intern(read('Full-time staff get 25 days.'));
    const changed = read('Full-time staff get 25 days.', overrides);
    const { score: _score, ...fields } = changed;
    expect(interner.intern(changed)).toEqual(fields);
  });

  it('starts afresh once its texts exceed the bound', () => {
    const interner = new ChunkInterner(40);
    const first = interner.intern(read('a'.repeat(30)));
    interner.intern(read('b'.repeat(30), { hash: 'h2' }));
    const again = interner.intern(read('a'.repeat(30)));
    expect(again).toEqual(first);
    expect(again).not.toBe(first);
  });
});
