import { describe, expect, it } from 'vitest';
import { DEFAULT_FAITHFULNESS_POLICY, deriveFaithfulness, resolvePolicy } from './faithfulness-score.js';
import type { ClaimVerdict, JudgedClaim } from './types.js';

const claims = (...verdicts: ClaimVerdict[]): JudgedClaim[] =>
  verdicts.map((verdict, index) => ({ text: `claim ${index}`, verdict, evidenceChunkId: verdict === 'absent' ? null : 'doc#a', note: '' }));
const lenient = { absentIsHallucination: false };

describe('deriveFaithfulness', () => {
  it.each([
    // name, claims, refused, evidenceRelevant, policy, expected
    ['all verified', claims('verified', 'verified'), false, true, DEFAULT_FAITHFULNESS_POLICY, { faithful: true, hallucinated: false, correctlyRefused: null, undetermined: false }],
    ['one contradicted', claims('verified', 'contradicted'), false, true, DEFAULT_FAITHFULNESS_POLICY, { faithful: false, hallucinated: true, correctlyRefused: null, undetermined: false }],
    ['one absent, default policy', claims('verified', 'absent'), false, true, DEFAULT_FAITHFULNESS_POLICY, { faithful: false, hallucinated: true, correctlyRefused: null, undetermined: false }],
    ['one absent, lenient policy', claims('verified', 'absent'), false, true, lenient, { faithful: true, hallucinated: false, correctlyRefused: null, undetermined: false }],
    ['contradicted, lenient policy', claims('contradicted'), false, true, lenient, { faithful: false, hallucinated: true, correctlyRefused: null, undetermined: false }],
    ['no claim, no refusal', claims(), false, true, DEFAULT_FAITHFULNESS_POLICY, { faithful: null, hallucinated: false, correctlyRefused: null, undetermined: true }],
    ['refusal, relevant evidence', claims(), true, true, DEFAULT_FAITHFULNESS_POLICY, { faithful: null, hallucinated: false, correctlyRefused: null, undetermined: false }],
    ['refusal, irrelevant evidence', claims(), true, false, DEFAULT_FAITHFULNESS_POLICY, { faithful: null, hallucinated: false, correctlyRefused: true, undetermined: false }],
    ['refusal with an invented claim, irrelevant evidence', claims('absent'), true, false, DEFAULT_FAITHFULNESS_POLICY, { faithful: null, hallucinated: true, correctlyRefused: false, undetermined: false }],
    ['answer, irrelevant evidence', claims('absent'), false, false, DEFAULT_FAITHFULNESS_POLICY, { faithful: false, hallucinated: true, correctlyRefused: false, undetermined: false }],
    ['no claim, irrelevant evidence, no refusal', claims(), false, false, DEFAULT_FAITHFULNESS_POLICY, { faithful: null, hallucinated: false, correctlyRefused: false, undetermined: true }],
  ])('%s', (_name, judged, refused, evidenceRelevant, policy, expected) => {
    const derived = deriveFaithfulness(judged, { refused, evidenceRelevant }, policy);
    expect(derived).toMatchObject(expected);
  });

  it('counts every verdict', () => {
    expect(deriveFaithfulness(claims('verified', 'absent', 'contradicted', 'absent'), { refused: false, evidenceRelevant: true }, DEFAULT_FAITHFULNESS_POLICY).counts).toEqual({
      verified: 1,
      contradicted: 1,
      absent: 2,
    });
  });
});

describe('resolvePolicy', () => {
  it('defaults to counting absent claims as hallucinations', () => {
    expect(resolvePolicy(undefined)).toEqual({ absentIsHallucination: true });
    expect(resolvePolicy({})).toEqual({ absentIsHallucination: true });
    expect(resolvePolicy({ absentIsHallucination: false })).toEqual({ absentIsHallucination: false });
  });

  it('rejects a bad value, naming the option', () => {
    expect(() => resolvePolicy({ absentIsHallucination: 1 as unknown as boolean })).toThrow('option policy.absentIsHallucination 1 is invalid: use true or false');
    expect(() => resolvePolicy('strict' as never)).toThrow(/option policy "strict" is invalid/);
  });
});
