import { describe, expect, it } from 'vitest';
import { redactText } from './redact.js';

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
