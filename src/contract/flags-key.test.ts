import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { outcomeOfFlagsKey, parseFlagsKey, renderFlagsKey } from './flags-key.js';
import type { JudgmentFlags } from './judgment.js';
import { outcomeOf, OUTCOME_TABLE } from './outcome.js';

const optional = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined });
/** Flags as stores hold them: v2 flags, and v1 flags without the newer fields. */
const flags: fc.Arbitrary<JudgmentFlags> = fc
  .record({
    faithful: fc.constantFrom(true, false, null),
    hallucinated: fc.boolean(),
    refused: fc.boolean(),
    undetermined: fc.boolean(),
    evidenceRelevant: optional(fc.boolean()),
    contextSufficient: optional(fc.boolean()),
    answerRelevance: optional(fc.constantFrom('answers' as const, 'partial' as const, 'off_topic' as const)),
    personalData: optional(fc.boolean()),
    refusalVerdict: optional(fc.constantFrom('correct_refusal' as const, 'over_refusal' as const, 'should_have_refused' as const, 'not_applicable' as const)),
    refusalCorrect: optional(fc.constantFrom(true, false, null)),
    referenceRecall: optional(fc.oneof(fc.constant(null), fc.double({ min: 0, max: 1, noNaN: true }))),
  })
  .map((record) => Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)) as unknown as JudgmentFlags);

describe('the judgment flags key', () => {
  it('round-trips any flags exactly, and equal flags in any key order give one key', () => {
    fc.assert(
      fc.property(flags, (value) => {
        const key = renderFlagsKey(value)!;
        expect(parseFlagsKey(key)).toEqual(value);
        const reversed = Object.fromEntries(Object.entries(value).reverse()) as unknown as JudgmentFlags;
        expect(renderFlagsKey(reversed)).toBe(key);
        expect(outcomeOfFlagsKey(key)).toBe(outcomeOf(value));
      }),
    );
  });

  it('a failed judgment has no key, and its outcome is judge_error', () => {
    expect(renderFlagsKey(null)).toBeNull();
    expect(parseFlagsKey(null)).toBeNull();
    expect(outcomeOfFlagsKey(null)).toBe('judge_error');
  });

  it('a key is read with the outcome table as it is now, not as it was when the key was written', () => {
    const key = renderFlagsKey({ faithful: true, hallucinated: false, refused: false, undetermined: false, answerRelevance: 'answers' })!;
    expect(outcomeOfFlagsKey(key)).toBe('correct');
    const row = OUTCOME_TABLE.find((candidate) => candidate.outcome === 'correct')!;
    const original = row.applies;
    row.applies = () => false;
    try {
      expect(outcomeOfFlagsKey(key)).toBe('undetermined');
    } finally {
      row.applies = original;
    }
  });

  it.each(['', 'not json', '[]', 'null', '{"faithful":true,"hallucinated":false,"refused":false,"undetermined":false,"mood":"happy"}'])('rejects %j with invalid_flags_key', (text) => {
    expect(() => parseFlagsKey(text)).toThrow(expect.objectContaining({ code: 'invalid_flags_key' }));
  });
});
