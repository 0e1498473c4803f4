import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORPUS_DIR, QUESTIONS_DIR, tempDir } from '../test-support/fixtures.js';
import { loadSuite } from './suite.js';

const repo = join(CORPUS_DIR, '..', '..');

describe('suites', () => {
  it('loads the shipped handbook suite with paths relative to the suite file', () => {
    const suite = loadSuite('evals/suites/handbook.json', { cwd: repo });
    expect(suite).toMatchObject({ name: 'handbook', corpusDir: CORPUS_DIR, questionsFile: join(QUESTIONS_DIR, 'handbook.jsonl'), topK: 8, minSimilarity: null });
    expect(suite.gates).toEqual([
      { metric: 'hallucinationRate', op: '<=', threshold: 0.08 },
      { metric: 'refusalRate', op: '>=', threshold: 0.9 },
      { metric: 'recall@5', op: '>=', threshold: 0.8 },
      { metric: 'pairwiseWinRate', op: '>=', threshold: 0.5 },
      { metric: 'judgeErrorRate', op: '<=', threshold: 0.02 },
      { metric: 'shouldHaveRefusedRate', op: '<=', threshold: 0.1 },
    ]);
  });

  it('a bare .jsonl file is a suite named after it, with --corpus or the default corpus', () => {
    expect(loadSuite('fixtures/questions/smoke.jsonl', { cwd: repo })).toMatchObject({ name: 'smoke', corpusDir: CORPUS_DIR, gates: [], topK: 8 });
    const dir = tempDir();
    mkdirSync(join(dir, 'docs'));
    expect(loadSuite(join(QUESTIONS_DIR, 'smoke.jsonl'), { cwd: dir, corpus: 'docs' }).corpusDir).toBe(join(dir, 'docs'));
    expect(() => loadSuite(join(QUESTIONS_DIR, 'smoke.jsonl'), { cwd: dir, corpus: 'nope' })).toThrow('--corpus: corpus folder nope not found');
  });

  it.each([
    ['{"corpus": "c"', /not valid JSON/],
    ['{"questions": "q.jsonl"}', /suite.json: corpus: missing: the groundcheck target needs a corpus folder/],
    ['{"corpus": "c", "questions": "q.jsonl", "topK": 0}', /suite.json: topK: Too small/],
    ['{"corpus": "c", "questions": "q.jsonl", "top_k": 5}', /Unrecognized key: "top_k"/],
    ['{"corpus": "missing", "questions": "q.jsonl"}', /corpus: corpus folder missing not found/],
    ['{"corpus": "c", "questions": "none.jsonl"}', /questions: none.jsonl not found/],
    ['{"corpus": "c", "questions": "q.jsonl", "gates": {"recall@5": {"min": "x"}}}', /gates.recall@5.min must be a number/],
    ['{"name": "has space", "corpus": "c", "questions": "q.jsonl"}', /name: use letters/],
  ])('a bad suite file is an input error naming the file and field (%#)', (text, message) => {
    const dir = tempDir();
    mkdirSync(join(dir, 'c'));
    writeFileSync(join(dir, 'q.jsonl'), '');
    writeFileSync(join(dir, 'suite.json'), text);
    expect(() => loadSuite('suite.json', { cwd: dir })).toThrow(message);
  });

  it('a missing suite, or --corpus with a suite file, is an input error', () => {
    expect(() => loadSuite('nope.json', { cwd: repo })).toThrow('suite nope.json not found');
    expect(() => loadSuite('evals/suites/handbook.json', { cwd: repo, corpus: 'fixtures/corpus' })).toThrow(/--corpus applies to a bare .jsonl/);
  });
});
