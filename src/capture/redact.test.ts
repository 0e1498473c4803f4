import { describe, expect, it } from 'vitest';
import { createRedactor, redactPersonalData, redactText } from './redact.js';
import type { Capture } from './types.js';

const KEY = 'test-key-0123456789abcdef';
const redactor = createRedactor({ key: KEY });
const token = (kind: string) => new RegExp(`^\\[${kind}:[0-9a-f]{8}\\]$`);

describe('keyed placeholders', () => {
  it.each([
    ['jo.bloggs+hr@example.co.uk', 'email'],
    ['privacy@harbourline.co.uk', 'email'],
    ['josé@bücher.de', 'email'],
    ['jo\uff20example.com', 'email'],
    ['020 7946 0400', 'phone'],
    ['+44 (0)20 7946 0958', 'phone'],
    ['07700 900123', 'phone'],
    ['0161/496 0000', 'phone'],
    ['020\u00a07946\u00a00400', 'phone'],
    ['0808 157 0311', 'phone'],
    // Nine digits only with the country code and the parenthesised area code counted: the whole group is read.
    ['+4 (12) 345 678', 'phone'],
    ['4111-1111-1111-1111', 'card'],
    ['4111_1111_1111_1111', 'card'],
    ['4111/1111/1111/1111', 'card'],
    ['4111,1111,1111,1111', 'card'],
    ['4111  1111  1111  1111', 'card'],
    ['4111\u00a01111\u00a01111\u00a01111', 'card'],
    ['4111\u200b1111\u200b1111\u200b1111', 'card'],
    ['\uff14\uff11\uff11\uff11\uff11\uff11\uff11\uff11\uff11\uff11\uff11\uff11\uff11\uff11\uff11\uff11', 'card'],
    ['AB123456C', 'ni'],
    ['QQ 12 34 56 A', 'ni'],
    ['12345678901', 'number'],
  ])('masks %j as a %s token', (value, kind) => {
    const masked = redactor.redactText(`see ${value} now`);
    const parts = masked.split(' ');
    expect(parts[0]).toBe('see');
    expect(parts.at(-1)).toBe('now');
    expect(parts.slice(1, -1).join(' ')).toMatch(token(kind));
  });

  it('masks each value of a text that holds several kinds (the digits are counted again after a National Insurance number is masked)', () => {
    const masked = redactor.redactText('NI AB123456C, phone 020 7946 0400, card 4111 1111 1111 1111, ref 12345678901');
    expect(masked.split(/, | /).filter((part) => part.startsWith('['))).toEqual([
      redactor.placeholder('ni', 'AB123456C'),
      redactor.placeholder('phone', '020 7946 0400'),
      redactor.placeholder('card', '4111 1111 1111 1111'),
      redactor.placeholder('number', '12345678901'),
    ]);
  });

  it.each([
    'Last updated: 2026-01-12',
    'from 2025-09-01 to 2026-01-12',
    'claim 45p per mile for the first 10,000 miles',
    'a £1,000 limit, 20 weeks, 3 days',
    'version 1.2.3 on port 3000',
    'Room 101 in 2024',
    'items 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 and 13',
  ])('keeps %j', (input) => {
    expect(redactor.redactText(input)).toBe(input);
  });

  it('the same value gives the same token, another value another token, another key other tokens', () => {
    const first = redactor.redactText('mail jo@example.com');
    expect(redactor.redactText('write to jo@example.com')).toContain(first.slice('mail '.length));
    // Case and full-width forms of one address are one value.
    expect(redactor.redactText('JO@EXAMPLE.COM')).toBe(first.slice('mail '.length));
    expect(redactor.redactText('jo\uff20example.com')).toBe(first.slice('mail '.length));
    expect(redactor.redactText('jo@example.org')).not.toBe(first.slice('mail '.length));
    expect(createRedactor({ key: 'another-key-0123456789' }).redactText('mail jo@example.com')).not.toBe(first);
    // Separators do not matter for numbers.
    expect(redactor.redactText('4111-1111-1111-1111')).toBe(redactor.redactText('4111 1111 1111 1111'));
    expect(redactor.placeholder('email', 'jo@example.com')).toBe(first.slice('mail '.length));
  });

  it('a token reveals nothing: it is not the value, and only the key reproduces it', () => {
    const masked = redactor.redactText('jo@example.com');
    expect(masked).not.toMatch(/jo|example/);
    expect(() => createRedactor({ key: 'short' })).toThrow(/redaction key is invalid/);
  });

  it('never leaves an address or a long digit run behind, on 3,000 generated texts', () => {
    let state = 42;
    const next = () => (state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0) / 2 ** 32;
    const parts = ['a', 'b.c', ' ', '-', '.', '/', '_', '\u00a0', '(', ')', '+', '0', '12', '345', '6789', '2026-01-12', '£1,000', 'x@y.com', 'Room ', '\n'];
    for (let index = 0; index < 3000; index++) {
      const text = Array.from({ length: 1 + Math.floor(next() * 14) }, () => parts[Math.floor(next() * parts.length)]).join('');
      const masked = redactor.redactText(text);
      expect(masked, JSON.stringify(text)).not.toMatch(/x@y\.com/);
      expect(masked.replace(/\[[a-z]+:[0-9a-f]{8}\]/g, ''), JSON.stringify(text)).not.toMatch(/\d{9,}/);
      expect(redactor.redactText(text), 'deterministic').toBe(masked);
    }
  });

  it('redactText without a key uses one random key for the process: stable within it', () => {
    expect(redactText('jo@example.com')).toBe(redactText('jo@example.com'));
    expect(redactText('jo@example.com')).toMatch(token('email'));
  });
});

describe('redactCapture', () => {
  const capture = (texts: string[], hash: string) =>
    ({
      traceId: 't',
      query: 'Is jo@example.com right?',
      answer: 'Write to jo@example.org.',
      chunks: texts.map((text, rank) => ({ chunkId: `c${rank}`, document: 'd', title: 'T', section: 'S', updated: null, hash, text, score: 0.5, fusedScore: 0.5, rank })),
    }) as unknown as Capture;

  it('masks the query, the answer and the chunks with one key, so equal values match and different ones do not', () => {
    const redacted = redactor.redactCapture(capture(['Write to jo@example.com.'], 'h1'));
    expect(redacted.query).toBe(`Is ${redactor.placeholder('email', 'jo@example.com')} right?`);
    expect(redacted.chunks[0]!.text).toBe(`Write to ${redactor.placeholder('email', 'jo@example.com')}.`);
    expect(redacted.answer).toBe(`Write to ${redactor.placeholder('email', 'jo@example.org')}.`);
    expect(redacted.chunks[0]!.hash).toBe('h1');
  });

  it('passes a chunk with nothing to mask on as it is, and copies one it masks', () => {
    const recorded = capture(['Full-time staff get 25 days.', 'Mail hr@example.com.'], 'h2');
    const redacted = redactor.redactCapture(recorded);
    expect(redacted.chunks[0]).toBe(recorded.chunks[0]);
    expect(redacted.chunks[1]).toEqual({ ...recorded.chunks[1], text: `Mail ${redactor.placeholder('email', 'hr@example.com')}.` });
    expect(recorded.chunks[1]!.text).toBe('Mail hr@example.com.');
  });

  it('remembers chunk texts by hash but never returns another text’s redaction for a reused hash', () => {
    const first = redactPersonalData(capture(['mail a@b.com'], 'same-hash'));
    const second = redactPersonalData(capture(['call 020 7946 0400', 'mail a@b.com'], 'same-hash'));
    expect(first.chunks[0]!.text).toMatch(/^mail \[email:[0-9a-f]{8}\]$/);
    expect(second.chunks.map((chunk) => chunk.text)).toEqual([expect.stringMatching(/^call \[phone:[0-9a-f]{8}\]$/), first.chunks[0]!.text]);
    expect(second.chunks.map((chunk) => chunk.hash)).toEqual(['same-hash', 'same-hash']);
  });
});

describe('identifiers are not numbers', () => {
  it('a request id or trace id (a UUID) is kept whole, digit runs and all', () => {
    // Before: "2614d891-e0ff-46e3-a070-475086724366" logged as "2614d891-e0ff-46e3-a[card:…]".
    for (const id of ['2614d891-e0ff-46e3-a070-475086724366', '01a244bc-2629-71f9-b476-465267249755', '12345678-1234-4234-9234-123456789012']) {
      expect(redactor.redactText(`request ${id} completed`)).toBe(`request ${id} completed`);
    }
  });

  it('a card or phone number beside a UUID is still masked', () => {
    const masked = redactor.redactText('request 2614d891-e0ff-46e3-a070-475086724366: card 4111 1111 1111 1111, call 020 7946 0400');
    expect(masked).toMatch(/^request 2614d891-e0ff-46e3-a070-475086724366: card \[card:[0-9a-f]{8}\], call \[phone:[0-9a-f]{8}\]$/);
  });
});
