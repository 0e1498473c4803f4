import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JUDGE_LABELS, loadLabelFile } from '../bench/lib/judge-labels.js';

const folder = join(import.meta.dirname, '..', 'fixtures', 'judge-labels');
const files = readdirSync(folder).filter((name) => name.endsWith('.jsonl')).sort();

describe('hand-label files (bench:judge --labels)', () => {
  it('are the tuning half, the check half, the paraphrase file, the held-out file and the twenty-seven fresh files', () => {
    expect(files).toEqual(['handbook-check.jsonl', 'handbook-fresh.jsonl', 'handbook-fresh10.jsonl', 'handbook-fresh11.jsonl', 'handbook-fresh12.jsonl', 'handbook-fresh13.jsonl', 'handbook-fresh14.jsonl', 'handbook-fresh15.jsonl', 'handbook-fresh16.jsonl', 'handbook-fresh17.jsonl', 'handbook-fresh18.jsonl', 'handbook-fresh19.jsonl', 'handbook-fresh2.jsonl', 'handbook-fresh20.jsonl', 'handbook-fresh21.jsonl', 'handbook-fresh22.jsonl', 'handbook-fresh23.jsonl', 'handbook-fresh24.jsonl', 'handbook-fresh25.jsonl', 'handbook-fresh26.jsonl', 'handbook-fresh27.jsonl', 'handbook-fresh3.jsonl', 'handbook-fresh4.jsonl', 'handbook-fresh5.jsonl', 'handbook-fresh6.jsonl', 'handbook-fresh7.jsonl', 'handbook-fresh8.jsonl', 'handbook-fresh9.jsonl', 'handbook-heldout.jsonl', 'handbook-paraphrase.jsonl', 'handbook-tune.jsonl']);
  });

  it.each(files)('%s loads through the bench loader, with every label at least 4 times', (name) => {
    const { items } = loadLabelFile(join(folder, name));
    const counts = JUDGE_LABELS.map((label) => items.filter((item) => item.label === label).length);
    expect(counts.every((count) => count >= 4)).toBe(true);
  });

  const questionsOf = (name: string) => new Set(loadLabelFile(join(folder, name)).items.map((item) => item.questionId));

  // In the order the files were written: each asks none of the questions of the files before it.
  const writtenInOrder = ['handbook-tune.jsonl', 'handbook-check.jsonl', 'handbook-paraphrase.jsonl', 'handbook-heldout.jsonl', 'handbook-fresh.jsonl', 'handbook-fresh2.jsonl', 'handbook-fresh3.jsonl', 'handbook-fresh4.jsonl', 'handbook-fresh5.jsonl', 'handbook-fresh6.jsonl', 'handbook-fresh7.jsonl', 'handbook-fresh8.jsonl', 'handbook-fresh9.jsonl', 'handbook-fresh10.jsonl', 'handbook-fresh11.jsonl', 'handbook-fresh12.jsonl', 'handbook-fresh13.jsonl', 'handbook-fresh14.jsonl', 'handbook-fresh15.jsonl', 'handbook-fresh16.jsonl', 'handbook-fresh17.jsonl', 'handbook-fresh18.jsonl', 'handbook-fresh19.jsonl', 'handbook-fresh20.jsonl', 'handbook-fresh21.jsonl', 'handbook-fresh22.jsonl', 'handbook-fresh23.jsonl', 'handbook-fresh24.jsonl', 'handbook-fresh25.jsonl', 'handbook-fresh26.jsonl', 'handbook-fresh27.jsonl'];
  it.each(writtenInOrder.slice(2).map((name) => [name, writtenInOrder.slice(0, writtenInOrder.indexOf(name))] as const))('%s asks none of the questions of %j', (name, earlier) => {
    const others = new Set(earlier.flatMap((other) => [...questionsOf(other)]));
    expect([...questionsOf(name)].filter((id) => others.has(id))).toEqual([]);
  });
});
