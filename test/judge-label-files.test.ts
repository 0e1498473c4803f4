import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JUDGE_LABELS, loadLabelFile } from '../bench/lib/judge-labels.js';

const folder = join(import.meta.dirname, '..', 'fixtures', 'judge-labels');
const files = readdirSync(folder).filter((name) => name.endsWith('.jsonl')).sort();

describe('hand-label files (bench:judge --labels)', () => {
  it('are the tuning half, the check half, the paraphrase file, the held-out file and the three fresh files', () => {
    expect(files).toEqual(['handbook-check.jsonl', 'handbook-fresh.jsonl', 'handbook-fresh2.jsonl', 'handbook-fresh3.jsonl', 'handbook-heldout.jsonl', 'handbook-paraphrase.jsonl', 'handbook-tune.jsonl']);
  });

  it.each(files)('%s loads through the bench loader, with every label at least 4 times', (name) => {
    const { items } = loadLabelFile(join(folder, name));
    const counts = JUDGE_LABELS.map((label) => items.filter((item) => item.label === label).length);
    expect(counts.every((count) => count >= 4)).toBe(true);
  });

  const questionsOf = (name: string) => new Set(loadLabelFile(join(folder, name)).items.map((item) => item.questionId));

  it('the paraphrase file asks none of the two halves\' questions', () => {
    const halves = new Set([...questionsOf('handbook-tune.jsonl'), ...questionsOf('handbook-check.jsonl')]);
    expect([...questionsOf('handbook-paraphrase.jsonl')].filter((id) => halves.has(id))).toEqual([]);
  });

  it('the held-out file asks none of the other files\' questions', () => {
    const others = new Set(['handbook-tune.jsonl', 'handbook-check.jsonl', 'handbook-paraphrase.jsonl'].flatMap((name) => [...questionsOf(name)]));
    expect([...questionsOf('handbook-heldout.jsonl')].filter((id) => others.has(id))).toEqual([]);
  });

  it('the fresh file asks none of the other files\' questions', () => {
    const others = new Set(['handbook-tune.jsonl', 'handbook-check.jsonl', 'handbook-paraphrase.jsonl', 'handbook-heldout.jsonl'].flatMap((name) => [...questionsOf(name)]));
    expect([...questionsOf('handbook-fresh.jsonl')].filter((id) => others.has(id))).toEqual([]);
  });

  it('the second fresh file asks none of the other files\' questions', () => {
    const others = new Set(['handbook-tune.jsonl', 'handbook-check.jsonl', 'handbook-paraphrase.jsonl', 'handbook-heldout.jsonl', 'handbook-fresh.jsonl'].flatMap((name) => [...questionsOf(name)]));
    expect([...questionsOf('handbook-fresh2.jsonl')].filter((id) => others.has(id))).toEqual([]);
  });

  it('the third fresh file asks none of the other files\' questions', () => {
    const others = new Set(['handbook-tune.jsonl', 'handbook-check.jsonl', 'handbook-paraphrase.jsonl', 'handbook-heldout.jsonl', 'handbook-fresh.jsonl', 'handbook-fresh2.jsonl'].flatMap((name) => [...questionsOf(name)]));
    expect([...questionsOf('handbook-fresh3.jsonl')].filter((id) => others.has(id))).toEqual([]);
  });
});
