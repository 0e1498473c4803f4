import { describe, expect, it } from 'vitest';
import { extractJsonObject } from './json.js';

describe('extractJsonObject (brace-depth JSON extractor)', () => {
  it.each([
    ['plain', '{"a": 1}', { a: 1 }],
    ['prose around', 'Sure! Here is my verdict: {"faithful": true} Hope this helps.', { faithful: true }],
    ['code fence', '```json\n{"claims": []}\n```', { claims: [] }],
    ['nested', 'x {"a": {"b": {"c": [1, {"d": 2}]}}} y', { a: { b: { c: [1, { d: 2 }] } } }],
    ['braces and quotes inside strings', '{"note": "the {policy} says \\"no\\" }"}', { note: 'the {policy} says "no" }' }],
    ['escaped backslash before quote', '{"path": "C:\\\\", "ok": true}', { path: 'C:\\', ok: true }],
    ['prose with braces before the object', 'Use {curly} braces? {"ok": true}', { ok: true }],
    ['unicode', '{"s": "£1,000 — café"}', { s: '£1,000 — café' }],
  ])('%s', (_name, reply, expected) => {
    expect(extractJsonObject(reply)).toEqual({ ok: true, value: expected });
  });

  it.each([
    ['truncated', '{"claims": [{"text": "a", "verdict": "verif', /truncated/],
    ['no object', 'I think the answer is faithful.', /no JSON object/],
    ['empty', '   ', /empty/],
    ['an array is not an object', '[1, 2, 3]', /no JSON object/],
  ])('%s → error', (_name, reply, message) => {
    expect(extractJsonObject(reply)).toEqual({ ok: false, error: expect.stringMatching(message) });
  });
});
