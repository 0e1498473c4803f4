import { describe, expect, it } from 'vitest';
import { parsePassage } from './evidence.js';

describe('parsePassage', () => {
  it('reads the source line and section, and splits the body into sentences', () => {
    const passage = parsePassage({
      id: 'leave-policy#partner-leave',
      kind: 'chunk',
      text: '[Source: Leave Policy | Section: Partner Leave | Last updated: 2026-01-12]\nPartners get 4 weeks at full pay. It can be taken in 2 blocks.\n\n- Tell the People team early.',
    });
    expect(passage).toEqual({
      id: 'leave-policy#partner-leave',
      title: 'Leave Policy',
      updated: '2026-01-12',
      section: 'Partner Leave',
      sentences: ['Partners get 4 weeks at full pay.', 'It can be taken in 2 blocks.', 'Tell the People team early.'],
    });
  });

  it('separates sentences glued without a space and rewrites table rows with their header', () => {
    const passage = parsePassage({
      id: 'k',
      kind: 'reference',
      text: 'Arthur\'s Magazine was published in Philadelphia.First for Women is published by Bauer.\n\n| Service | Full pay |\n| --- | --- |\n| 2 to 5 years | 8 weeks |',
    });
    expect(passage).toMatchObject({ title: null, updated: null, section: null });
    expect(passage.sentences).toEqual(['Arthur\'s Magazine was published in Philadelphia.', 'First for Women is published by Bauer.', 'Service: 2 to 5 years; Full pay: 8 weeks']);
  });
});
