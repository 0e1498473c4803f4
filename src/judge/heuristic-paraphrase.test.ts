import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { flagsOf, outcomeOf } from '../contract/outcome.js';
import { createHeuristicFaithfulnessJudge, HEURISTIC_JUDGE_VERSION } from './heuristic-judge.js';
import { DEFAULT_PARAPHRASE_MODEL, PARAPHRASE_FEATURES, paraphraseFeatures, paraphraseProbability, paraphraseVersionSuffix, parseParaphraseModel, readAsParaphrase, validParaphraseModel, type ParaphraseModel } from './heuristic-paraphrase.js';
import { usesEncoder } from './heuristic-encoder.js';
import type { FaithfulnessInput, JudgedClaim } from './types.js';

// Two hand-labelled items of fixtures/judge-labels/handbook-paraphrase.jsonl (a development file the model was fitted on).
const labelled = readFileSync(join(import.meta.dirname, '..', '..', 'fixtures', 'judge-labels', 'handbook-paraphrase.jsonl'), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line) as { id: string; question: string; evidence: { id: string; text: string }[]; answer: string; referenceAnswer: string });
function item(id: string, withReference = true): FaithfulnessInput {
  const found = labelled.find((candidate) => candidate.id === id)!;
  return { question: found.question, evidence: found.evidence.map((passage) => ({ id: passage.id, text: passage.text, kind: 'chunk' as const })), answer: found.answer, reference: withReference ? found.referenceAnswer : null };
}

describe('the paraphrase model (heuristic-v125, with a reference answer)', () => {
  // "No. The company used to put in 5%, and it only went up to 6% on 1 April 2025." for "Has the
  // employer pension contribution always been 6%?": "only went up" is the user's wording.
  it('reads a correct answer in the user\'s words as correct, resting its claims on the chunk stating the reference', async () => {
    const judgment = await createHeuristicFaithfulnessJudge().judge(item('q053-correct-1'));
    if (judgment.status !== 'ok') throw new Error(judgment.error);
    expect(outcomeOf(flagsOf(judgment))).toBe('correct');
    const read = judgment.claims.filter((claim) => claim.note.startsWith('paraphrase'));
    expect(read.length).toBeGreaterThan(0);
    for (const claim of read) {
      expect(claim.verdict).toBe('verified');
      expect(judgment.contexts.map((context) => context.chunkId)).toContain(claim.evidenceChunkId);
    }
  });

  it('leaves the same answer hallucinated with the model off, and without a reference (the live judge)', async () => {
    const on = await createHeuristicFaithfulnessJudge().judge(item('q053-correct-1'));
    const off = await createHeuristicFaithfulnessJudge({ paraphraseModel: null }).judge(item('q053-correct-1'));
    const live = await createHeuristicFaithfulnessJudge().judge(item('q053-correct-1', false));
    expect(outcomeOf(flagsOf(off))).toBe('hallucinated');
    expect(outcomeOf(flagsOf(live))).not.toBe('correct');
    // What bench:judge counts as "read as paraphrase".
    expect([readAsParaphrase(on), readAsParaphrase(off), readAsParaphrase(live)]).toEqual([true, false, false]);
  });

  // "Yes, that's still right: birth parents get sixteen weeks on full pay." (the handbook: 20 weeks).
  it('keeps a wrong figure in familiar words hallucinated, and only the model stands between it and a pass', async () => {
    const judgment = await createHeuristicFaithfulnessJudge().judge(item('q050-contradicted-1'));
    expect(outcomeOf(flagsOf(judgment))).toBe('hallucinated');
    const credulous: ParaphraseModel = { ...DEFAULT_PARAPHRASE_MODEL, bias: 20 };
    const passed = await createHeuristicFaithfulnessJudge({ paraphraseModel: credulous }).judge(item('q050-contradicted-1'));
    if (passed.status !== 'ok') throw new Error(passed.error);
    expect(passed.claims.every((claim) => claim.verdict === 'verified')).toBe(true);
  });

  it('hands its features to onParaphraseFeatures, whether or not a model is set', async () => {
    const seen: (readonly number[])[] = [];
    await createHeuristicFaithfulnessJudge({ paraphraseModel: null, onParaphraseFeatures: (features) => seen.push(features) }).judge(item('q053-correct-1'));
    expect(seen).toHaveLength(1);
    expect(seen[0]).toHaveLength(PARAPHRASE_FEATURES.length);
    expect(paraphraseProbability(DEFAULT_PARAPHRASE_MODEL, seen[0]!)).toBeGreaterThanOrEqual(DEFAULT_PARAPHRASE_MODEL.threshold);
  });

  it('records the model in the judge version: nothing for the default, +paraphrase-off, or a hash of a team\'s own figures', () => {
    expect(createHeuristicFaithfulnessJudge().info.promptVersion).toBe(HEURISTIC_JUDGE_VERSION);
    expect(createHeuristicFaithfulnessJudge({ paraphraseModel: null }).info.promptVersion).toBe(`${HEURISTIC_JUDGE_VERSION}+paraphrase-off`);
    const own = paraphraseVersionSuffix({ ...DEFAULT_PARAPHRASE_MODEL, threshold: 0.9 });
    expect(own).toMatch(/^\+paraphrase-[0-9a-f]{8}$/);
    expect(paraphraseVersionSuffix({ ...DEFAULT_PARAPHRASE_MODEL, bias: 0 })).not.toBe(own);
    expect(usesEncoder(`${HEURISTIC_JUDGE_VERSION}+encoder-v2${own}`)).toBe(true);
  });

  it('reads a model from the bench\'s last line or from the object itself, and says what is wrong otherwise', () => {
    const line = JSON.stringify({ bench: 'paraphrase', model: DEFAULT_PARAPHRASE_MODEL });
    expect(parseParaphraseModel(`a table\n${line}\n`).weights).toEqual(DEFAULT_PARAPHRASE_MODEL.weights);
    expect(parseParaphraseModel(JSON.stringify(DEFAULT_PARAPHRASE_MODEL, null, 2)).threshold).toBe(DEFAULT_PARAPHRASE_MODEL.threshold);
    expect(() => parseParaphraseModel('{')).toThrow(/is not JSON/);
    expect(() => parseParaphraseModel(JSON.stringify({ bench: 'paraphrase', model: null }))).toThrow(/holds no model: bench:paraphrase found no threshold worth using/);
    expect(() => parseParaphraseModel(JSON.stringify({ ...DEFAULT_PARAPHRASE_MODEL, scale: DEFAULT_PARAPHRASE_MODEL.scale.map(() => 0) }))).toThrow(/is not a paraphrase model/);
  });

  it('rejects a model of the wrong shape', () => {
    expect(validParaphraseModel(DEFAULT_PARAPHRASE_MODEL)).toBe(true);
    expect(() => createHeuristicFaithfulnessJudge({ paraphraseModel: { ...DEFAULT_PARAPHRASE_MODEL, weights: [1, 2] } })).toThrow(/paraphraseModel is invalid/);
    expect(() => createHeuristicFaithfulnessJudge({ paraphraseModel: { ...DEFAULT_PARAPHRASE_MODEL, threshold: 0 } })).toThrow(/paraphraseModel is invalid/);
  });
});

describe('paraphraseFeatures', () => {
  const claim = (text: string, verdict: JudgedClaim['verdict']): JudgedClaim => ({ text, verdict, evidenceChunkId: verdict === 'absent' ? null : 'c1', note: '' });
  const base = {
    question: 'How long is probation?',
    evidence: ['Probation lasts 6 months, with formal reviews at 3 months.'],
    reference: 'Probation lasts 6 months.',
    referenceClaims: [{ text: 'Probation lasts 6 months.', stated: true, note: '' }],
  };

  it('is null with no absent claim, or with a contradicted one', () => {
    expect(paraphraseFeatures({ ...base, claims: [claim('Probation lasts 6 months.', 'verified')] })).toBeNull();
    expect(paraphraseFeatures({ ...base, claims: [claim('It lasts 3 months.', 'contradicted'), claim('Reviews happen.', 'absent')] })).toBeNull();
  });

  it('counts figures the reference does not give, and words found nowhere', () => {
    const features = paraphraseFeatures({ ...base, claims: [claim('Probation lasts 6 months.', 'verified'), claim('Your reviews are at 3 months, over coffee.', 'absent')] })!;
    const named = Object.fromEntries(PARAPHRASE_FEATURES.map((name, i) => [name, features[i]]));
    expect(named).toMatchObject({ absentShare: 0.5, referenceRecall: 1, figuresOutsideReference: 1, figures: 1, claims: 2 });
    // Of "review", "month" and "coffee": "coffee" is in neither the evidence nor the reference,
    // "review" in the evidence only, "month" in the reference.
    expect(named.maxUnfound).toBe(1);
    expect(named.maxOutsideReference).toBe(2);
    expect(named.minReference).toBeCloseTo(1 / 3);
    expect(named.minEvidenceOrReference).toBeCloseTo(2 / 3);
  });
});
