import { describe, expect, it } from 'vitest';
import { contextPrecision, DEFAULT_FAITHFULNESS_POLICY, deriveFaithfulness, resolvePolicy, type JudgeFindings } from './faithfulness-score.js';
import type { ClaimVerdict, ContextVerdict, JudgedClaim, JudgedContext } from './types.js';

const claims = (...verdicts: ClaimVerdict[]): JudgedClaim[] =>
  verdicts.map((verdict, index) => ({ text: `claim ${index}`, verdict, evidenceChunkId: verdict === 'absent' ? null : 'doc#a', note: '' }));
const lenient = { absentIsHallucination: false };

const context = (...verdicts: ContextVerdict[]): JudgedContext[] => verdicts.map((verdict, index) => ({ chunkId: `doc#${index}`, verdict, note: '' }));
const findings = (overrides: Partial<JudgeFindings>): JudgeFindings => ({
  claims: [],
  contexts: context('answers'),
  refused: false,
  answerRelevance: 'answers',
  personalData: false,
  referenceClaims: null,
  ...overrides,
});

describe('deriveFaithfulness', () => {
  it.each([
    // name, findings, policy, expected
    ['all verified', findings({ claims: claims('verified', 'verified') }), DEFAULT_FAITHFULNESS_POLICY, { faithful: true, hallucinated: false, refusalVerdict: 'not_applicable', refusalCorrect: null, undetermined: false }],
    ['one contradicted', findings({ claims: claims('verified', 'contradicted') }), DEFAULT_FAITHFULNESS_POLICY, { faithful: false, hallucinated: true, refusalCorrect: null }],
    ['one absent, default policy', findings({ claims: claims('verified', 'absent') }), DEFAULT_FAITHFULNESS_POLICY, { faithful: false, hallucinated: true }],
    ['one absent, lenient policy', findings({ claims: claims('verified', 'absent') }), lenient, { faithful: true, hallucinated: false }],
    ['contradicted, lenient policy', findings({ claims: claims('contradicted') }), lenient, { faithful: false, hallucinated: true }],
    ['no claim, no refusal', findings({}), DEFAULT_FAITHFULNESS_POLICY, { faithful: null, hallucinated: false, undetermined: true }],
    ['refusal, a chunk answers', findings({ refused: true }), DEFAULT_FAITHFULNESS_POLICY, { faithful: null, answerRelevance: 'refusal', refusalVerdict: 'over_refusal', refusalCorrect: false, ignoredChunks: ['doc#0'] }],
    ['refusal, nothing answers', findings({ refused: true, contexts: context('related', 'unrelated') }), DEFAULT_FAITHFULNESS_POLICY, { refusalVerdict: 'correct_refusal', refusalCorrect: true, evidenceRelevant: true, contextSufficient: false }],
    ['refusal of a personal-data question, a chunk answers', findings({ refused: true, personalData: true }), DEFAULT_FAITHFULNESS_POLICY, { refusalVerdict: 'correct_refusal', refusalCorrect: true }],
    ['refusal with an invented claim, nothing answers', findings({ refused: true, claims: claims('absent'), contexts: context('unrelated') }), DEFAULT_FAITHFULNESS_POLICY, { hallucinated: true, refusalVerdict: 'correct_refusal', evidenceRelevant: false }],
    ['answer, nothing answers', findings({ claims: claims('absent'), contexts: context('unrelated') }), DEFAULT_FAITHFULNESS_POLICY, { faithful: false, refusalVerdict: 'should_have_refused', refusalCorrect: false }],
    ['answer to a personal-data question', findings({ claims: claims('verified'), personalData: true }), DEFAULT_FAITHFULNESS_POLICY, { refusalVerdict: 'should_have_refused', refusalCorrect: false }],
  ] as const)('%s', (_name, given, policy, expected) => {
    expect(deriveFaithfulness(given, policy)).toMatchObject(expected);
  });

  it('counts every verdict', () => {
    expect(deriveFaithfulness(findings({ claims: claims('verified', 'absent', 'contradicted', 'absent') }), DEFAULT_FAITHFULNESS_POLICY).counts).toEqual({
      verified: 1,
      contradicted: 1,
      absent: 2,
    });
  });

  it('lists answer-bearing chunks no claim rests on, and computes rank-weighted context precision', () => {
    const derived = deriveFaithfulness(findings({ claims: claims('verified'), contexts: [...context('unrelated', 'answers', 'answers'), { chunkId: 'doc#a', verdict: 'answers', note: '' }] }), DEFAULT_FAITHFULNESS_POLICY);
    // doc#a holds the verified claim; doc#1 and doc#2 answer too but nothing was taken from them.
    expect(derived.ignoredChunks).toEqual(['doc#1', 'doc#2']);
    // Answers at ranks 2, 3, 4: (1/2 + 2/3 + 3/4) / 3.
    expect(derived.contextPrecision).toBeCloseTo((1 / 2 + 2 / 3 + 3 / 4) / 3, 10);
    expect(contextPrecision([])).toBeNull();
    expect(contextPrecision(context('related', 'unrelated'))).toBe(0);
  });

  it('reference recall is the share of reference claims the answer states, and null for a refusal', () => {
    const referenceClaims = [
      { text: 'a', stated: true, note: '' },
      { text: 'b', stated: false, note: '' },
      { text: 'c', stated: true, note: '' },
    ];
    expect(deriveFaithfulness(findings({ claims: claims('verified'), referenceClaims }), DEFAULT_FAITHFULNESS_POLICY).referenceRecall).toBeCloseTo(2 / 3, 10);
    expect(deriveFaithfulness(findings({ refused: true, referenceClaims }), DEFAULT_FAITHFULNESS_POLICY)).toMatchObject({ referenceRecall: null, referenceClaims: null });
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

describe('the judges record whether any chunk was given', () => {
  it('derives noEvidence from the chunk verdicts', () => {
    const findings = { claims: [{ text: 'You get a £200 bonus.', verdict: 'absent' as const, evidenceChunkId: null, note: '' }], refused: false, answerRelevance: 'off_topic' as const, personalData: false, referenceClaims: null };
    const none = deriveFaithfulness({ ...findings, contexts: [] }, DEFAULT_FAITHFULNESS_POLICY);
    const unrelated = deriveFaithfulness({ ...findings, contexts: [{ chunkId: 'a#b', verdict: 'unrelated', note: '' }] }, DEFAULT_FAITHFULNESS_POLICY);
    expect([none.noEvidence, unrelated.noEvidence]).toEqual([true, false]);
  });
});

describe('the judges record whether any claim meets a source', () => {
  const findings = { refused: false, answerRelevance: 'off_topic' as const, personalData: false, referenceClaims: null, contexts: [{ chunkId: 'a#b', verdict: 'unrelated' as const, note: '' }] };
  const claim = (verdict: 'verified' | 'contradicted' | 'absent') => ({ text: 'Parking is free.', verdict, evidenceChunkId: verdict === 'absent' ? null : 'a#b', note: '' });
  it('derives restsOnNothing: claims, every one absent', () => {
    const read = (verdicts: ('verified' | 'contradicted' | 'absent')[]) => deriveFaithfulness({ ...findings, claims: verdicts.map(claim) }, DEFAULT_FAITHFULNESS_POLICY).restsOnNothing;
    expect([read(['absent']), read(['absent', 'absent']), read(['absent', 'contradicted']), read(['absent', 'verified']), read([])]).toEqual([true, true, false, false, false]);
  });
});
