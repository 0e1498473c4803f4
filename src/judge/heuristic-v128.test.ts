import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { labelEvidence } from '../../bench/lib/judge-label-bench.js';
import { loadLabelFile } from '../../bench/lib/judge-labels.js';
import { flagsOf, outcomeOf } from '../contract/outcome.js';
import { createHeuristicFaithfulnessJudge, HEURISTIC_JUDGE_VERSION } from './heuristic-judge.js';
import { DEFAULT_PARAPHRASE_MODEL, readAsParaphrase, validParaphraseModel } from './heuristic-paraphrase.js';
import type { FaithfulnessInput } from './types.js';

// heuristic-v128: the paraphrase model refitted on 18 development label files (four new ones,
// fresh22 to fresh25, written blind to the judge), threshold 0.75 (cross-validated). These items
// are from two of its development files: v127's model (14 files, threshold 0.8) judged both wrongly.
function item(file: string, id: string): FaithfulnessInput {
  const found = loadLabelFile(join(import.meta.dirname, '../../fixtures/judge-labels', file)).items.find((entry) => entry.id === id);
  if (!found) throw new Error(`no item ${id} in ${file}`);
  return { question: found.question, evidence: labelEvidence(found), answer: found.answer, reference: found.referenceAnswer };
}

const judge = createHeuristicFaithfulnessJudge();

describe('heuristic-v128: the paraphrase model fitted on 18 development files', () => {
  it('is the current version, with a valid default model', () => {
    expect(HEURISTIC_JUDGE_VERSION).toBe('heuristic-v128');
    expect(validParaphraseModel(DEFAULT_PARAPHRASE_MODEL)).toBe(true);
    expect(DEFAULT_PARAPHRASE_MODEL.threshold).toBe(0.75);
  });

  // "Up to 52 weeks in all: the first 20 weeks on full pay, then up to 19 weeks on statutory pay,
  // then 13 weeks unpaid." for "How many weeks of maternity leave can I take?" (labelled correct).
  it('reads a correct answer in the asker\'s words as correct', async () => {
    const judgment = await judge.judge(item('handbook-fresh17.jsonl', 'l310-correct-1'));
    expect(outcomeOf(flagsOf(judgment))).toBe('correct');
    expect(readAsParaphrase(judgment)).toBe(true);
  });

  // "The first 3 days are paid and the rest unpaid, up to 5 days in 12 months. You'll need a letter
  // from the person's GP to get the paid days." (labelled fabricated: carer's leave needs no evidence).
  it('no longer passes an answer that invents a requirement beside the true figures', async () => {
    const judgment = await judge.judge(item('handbook-fresh24.jsonl', 'l500-fabricated-1'));
    expect(outcomeOf(flagsOf(judgment))).toBe('hallucinated');
    expect(readAsParaphrase(judgment)).toBe(false);
  });
});
