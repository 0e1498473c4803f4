import { describe, expect, it } from 'vitest';
import { chunkDocument, parseDocument, slugify } from './chunk.js';

const SOURCE = `---
title: "Leave Policy"
updated: 2026-01-12
---
# Leave Policy

Intro paragraph.

## Parental Leave

From 1 January 2026 you get 20 weeks.

It was 16 weeks before.

### Keeping in Touch

Up to 10 days.

## Travel Rates

| Vehicle | Rate |
| --- | --- |
| Car | 45p |
`;

describe('parseDocument', () => {
  it('reads front matter, takes the H1 as the title line and splits sections by heading path', () => {
    const document = parseDocument('policies/Leave Policy.md', SOURCE);
    expect(document).toEqual({
      slug: 'policies/leave-policy',
      title: 'Leave Policy',
      updated: '2026-01-12',
      sections: [
        { headingPath: [], blocks: ['Intro paragraph.'] },
        { headingPath: ['Parental Leave'], blocks: ['From 1 January 2026 you get 20 weeks.', 'It was 16 weeks before.'] },
        { headingPath: ['Parental Leave', 'Keeping in Touch'], blocks: ['Up to 10 days.'] },
        { headingPath: ['Travel Rates'], blocks: ['| Vehicle | Rate |\n| --- | --- |\n| Car | 45p |'] },
      ],
    });
  });

  it('falls back to the H1 and then the file name for the title, and to null for the date', () => {
    expect(parseDocument('a.md', '# Hello\n\ntext').title).toBe('Hello');
    expect(parseDocument('notes/remote-work.txt', 'just text').title).toBe('Remote work');
    expect(parseDocument('notes/remote-work.txt', 'just text').updated).toBeNull();
  });

  it('does not treat # inside code fences as headings', () => {
    const document = parseDocument('a.md', '## Real\n\n```\n# not a heading\n```\n');
    expect(document.sections).toHaveLength(1);
    expect(document.sections[0]!.blocks[0]).toContain('# not a heading');
  });
});

describe('chunkDocument', () => {
  it('gives stable, readable ids from path and heading path, and a source line first', () => {
    const chunks = chunkDocument(parseDocument('leave-policy.md', SOURCE));
    expect(chunks.map((chunk) => chunk.chunkId)).toEqual([
      'leave-policy#intro',
      'leave-policy#parental-leave',
      'leave-policy#parental-leave/keeping-in-touch',
      'leave-policy#travel-rates',
    ]);
    expect(chunks[1]!.modelText).toBe(
      '[Source: Leave Policy | Section: Parental Leave | Last updated: 2026-01-12]\nFrom 1 January 2026 you get 20 weeks.\n\nIt was 16 weeks before.',
    );
    expect(chunks[1]!.hash).toMatch(/^[0-9a-f]{20}$/);
    // Same input, same ids and hashes.
    expect(chunkDocument(parseDocument('leave-policy.md', SOURCE))).toEqual(chunks);
  });

  it('splits a long section between paragraphs within the budget, with one paragraph of overlap, never inside one', () => {
    const paragraphs = Array.from({ length: 6 }, (_, index) => `Paragraph ${index} ${'word '.repeat(40).trim()}.`);
    const chunks = chunkDocument(parseDocument('doc.md', `## Long\n\n${paragraphs.join('\n\n')}`), { maxTokens: 120, overlapBlocks: 1 });
    expect(chunks.map((chunk) => chunk.chunkId)).toEqual(['doc#long', 'doc#long~2', 'doc#long~3', 'doc#long~4', 'doc#long~5']);
    for (const chunk of chunks) {
      for (const block of chunk.text.split('\n\n')) expect(paragraphs).toContain(block);
      expect(chunk.tokenCount).toBeLessThanOrEqual(120 + 20); // budget applies to the text; the source lines add a little
    }
    // Overlap: each later chunk starts with the last paragraph of the previous one.
    for (let index = 1; index < chunks.length; index++) {
      const previous = chunks[index - 1]!.text.split('\n\n');
      expect(chunks[index]!.text.startsWith(previous[previous.length - 1]!)).toBe(true);
    }
  });

  it('keeps an oversized paragraph whole rather than cutting it', () => {
    const huge = 'word '.repeat(500).trim();
    const chunks = chunkDocument(parseDocument('doc.md', `## Big\n\n${huge}`), { maxTokens: 100 });
    expect(chunks).toHaveLength(1);
    expect(chunks[0]!.text).toBe(huge);
  });

  it('disambiguates repeated headings and neutralizes prompt delimiters inside the text', () => {
    const chunks = chunkDocument(parseDocument('doc.md', '## Notes\n\na\n\n## Notes\n\nb </document> <documents>'));
    expect(chunks.map((chunk) => chunk.chunkId)).toEqual(['doc#notes', 'doc#notes-2']);
    expect(chunks[1]!.text).not.toMatch(/<\/?documents?\b/);
  });
});

describe('slugify', () => {
  it.each([
    ['Training Under £1,000', 'training-under-1-000'],
    ['Mileage Rates (2026)', 'mileage-rates-2026'],
    ['  Café & Crèche  ', 'cafe-creche'],
  ])('%s → %s', (input, expected) => {
    expect(slugify(input)).toBe(expected);
  });
});
