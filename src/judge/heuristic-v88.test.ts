import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { flagsOf, outcomeOf } from '../contract/outcome.js';
import { loadLabelFile } from '../../bench/lib/judge-labels.js';
import { labelEvidence } from '../../bench/lib/judge-label-bench.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';

// heuristic-v88: with a reference answer, a true sentence of the reference's own chunk that the
// reference leaves out does not answer the question (off_topic); a part of the reference in other
// words still answers part of it (incomplete). Items of the check half (fixtures/judge-labels).
const items = loadLabelFile(join(import.meta.dirname, '../../fixtures/judge-labels/handbook-check.jsonl')).items;
const judgeItem = async (id: string) => {
  const item = items.find((entry) => entry.id === id)!;
  const judgment = await createHeuristicFaithfulnessJudge().judge({ question: item.question, evidence: labelEvidence(item), answer: item.answer, reference: item.referenceAnswer });
  return { item, judgment, outcome: outcomeOf(flagsOf(judgment)) };
};

describe('heuristic-v88', () => {
  it('another sentence of the chunk stating the reference, which the reference leaves out, is off topic', async () => {
    // "Store passwords in the company password manager" for the minimum password length (v87: incomplete).
    const { item, judgment, outcome } = await judgeItem('q004-off_topic-1');
    expect(item.label).toBe('off_topic');
    expect(judgment.status === 'ok' && judgment.faithful).toBe(true);
    expect(outcome).toBe('off_topic');
  });

  it('part of the reference in other words stays incomplete', async () => {
    // "You can book it yourself without asking your manager": no figure, so no reference claim is stated.
    const { item, judgment, outcome } = await judgeItem('q024-incomplete-1');
    expect(item.label).toBe('incomplete');
    expect(judgment.status === 'ok' && judgment.referenceRecall).toBe(0);
    expect(outcome).toBe('incomplete');
  });

});
