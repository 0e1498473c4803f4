import { describe, expect, it } from 'vitest';
import { redactPersonalData, redactText } from './redact.js';
import type { Capture } from './types.js';

describe('redactText', () => {
  it.each([
    ['mail jo.bloggs+hr@example.co.uk now', 'mail [email] now'],
    ['privacy@harbourline.co.uk', '[email]'],
    ['call 020 7946 0400 today', 'call [phone] today'],
    ['ring +44 (0)20 7946 0958.', 'ring [phone].'],
    ['mobile 07700 900123', 'mobile [phone]'],
    ['card 4111-1111-1111-1111', 'card [phone]'],
    ['account 12345678901', 'account [number]'],
    ['helpline 0808 157 0311 (free)', 'helpline [phone] (free)'],
  ])('masks %j', (input, expected) => {
    expect(redactText(input)).toBe(expected);
  });

  it.each([
    'Last updated: 2026-01-12',
    'from 2025-09-01 to 2026-01-12',
    'claim 45p per mile for the first 10,000 miles',
    'a £1,000 limit, 20 weeks, 3 days',
    'version 1.2.3 on port 3000',
    'Room 101 in 2024',
  ])('keeps %j', (input) => {
    expect(redactText(input)).toBe(input);
  });
});

/** redactText as three plain passes, without the shortcuts: what the shortcuts must agree with. */
function reference(text: string): string {
  return text
    .replace(/[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+/g, '[email]')
    .replace(/(?<![\w+])(?:\+\d{1,3}[ .-]?)?(?:\(\d{1,5}\)[ .-]?)?\d{2,6}(?:[ .-]\d{1,6}){1,5}(?![\w])/g, (match) =>
      match.replace(/\D/g, '').length < 9 || /\b\d{4}-\d{2}-\d{2}\b/.test(match) ? match : '[phone]',
    )
    .replace(/\d{9,}/g, '[number]');
}

describe('redactText shortcuts', () => {
  it('agree with the plain passes on 5,000 generated texts (addresses, digit groups, dates, short numbers)', () => {
    let state = 42;
    const next = () => (state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0) / 2 ** 32;
    const parts = ['a', 'b.c', '@', 'x@y.com', ' ', '-', '.', '(', ')', '+', '0', '12', '345', '6789', '2026-01-12', '£1,000', 'Room ', '\n'];
    let changed = 0;
    for (let index = 0; index < 5000; index++) {
      const text = Array.from({ length: 1 + Math.floor(next() * 14) }, () => parts[Math.floor(next() * parts.length)]).join('');
      expect(redactText(text), JSON.stringify(text)).toBe(reference(text));
      if (reference(text) !== text) changed += 1;
    }
    // The generator must produce both kinds, or the comparison proves little.
    expect(changed).toBeGreaterThan(500);
    expect(changed).toBeLessThan(4500);
  });
});

describe('redactPersonalData', () => {
  it('remembers chunk texts by hash but never returns another text’s redaction for a reused hash', () => {
    const capture = (texts: string[], hash: string) =>
      ({
        traceId: 't',
        query: 'q',
        answer: 'a',
        chunks: texts.map((text, rank) => ({ chunkId: `c${rank}`, document: 'd', title: 'T', section: 'S', updated: null, hash, text, score: 0.5, fusedScore: 0.5, rank })),
      }) as unknown as Capture;
    const first = redactPersonalData(capture(['mail a@b.com'], 'same-hash'));
    const second = redactPersonalData(capture(['call 020 7946 0400', 'mail a@b.com'], 'same-hash'));
    expect(first.chunks.map((chunk) => chunk.text)).toEqual(['mail [email]']);
    expect(second.chunks.map((chunk) => chunk.text)).toEqual(['call [phone]', 'mail [email]']);
    expect(second.chunks.map((chunk) => chunk.hash)).toEqual(['same-hash', 'same-hash']);
  });
});
