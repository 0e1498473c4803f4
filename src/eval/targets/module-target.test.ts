import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { shopAnswer } from '../../test-support/foreign-rag-app.js';
import { tempDir } from '../../test-support/fixtures.js';
import { runEval } from '../runner.js';
import { loadSuite } from '../suite.js';
import { loadModuleTarget } from './module-target.js';

const fixture = (name: string) => fileURLToPath(new URL(`./__fixtures__/${name}`, import.meta.url));
const QUESTIONS = fixture('shop-questions.jsonl');

describe('module target', () => {
  it('evaluates a module exporting answer(question, { mode }): the judges see exactly its chunks', async () => {
    const suite = loadSuite(QUESTIONS, { target: fixture('eval-target.ts') });
    const results = await runEval({ suite, cwd: tempDir() });
    expect(results.target).toEqual({ kind: 'module', name: 'module shop-bot in process', norag: true });
    const run = results.runs[0]!;
    expect(run.failedQuestions).toEqual([]);
    for (const question of run.questions) {
      const app = shopAnswer(question.question, true);
      expect(question.evidence.filter((passage) => passage.kind === 'chunk').map(({ id, text, title, updated }) => ({ id, text, title, updated }))).toEqual(
        app.chunks.map(({ id, text, title, updated }) => ({ id, text, title, updated })),
      );
      expect(question.rag!.answer).toBe(app.answer);
      expect(question.norag!.answer).toBe(shopAnswer(question.question, false).answer);
    }
    expect(results.aggregate['recall@5']!.mean).toBe(1);
    const module = (await import('./__fixtures__/eval-target.js')) as { calls: { mode: string }[] };
    expect(module.calls.filter((call) => call.mode === 'rag')).toHaveLength(6);
  });

  it('a target without a RAG-off mode: no RAG-off answers, no pairwise, a warning, and pairwise gates fail as not measured', async () => {
    const suite = loadSuite(QUESTIONS, { target: fixture('rag-only-target.mjs') });
    const results = await runEval({ suite, cwd: tempDir(), gates: [{ metric: 'pairwiseWinRate', op: '>=', threshold: 0.5 }] });
    expect(results.target.norag).toBe(false);
    expect(results.runs[0]!.questions.every((question) => question.status === 'ok' && question.norag === null && question.pairwise === null)).toBe(true);
    expect(results.runs[0]!.judgeErrors.calls).toBe(6);
    expect(results.warnings).toContain(`target module ${fixture('rag-only-target.mjs')} has no RAG-off mode: no RAG-off answers and no pairwise comparison (gates on them fail as not measured)`);
    expect(results.gates).toEqual([expect.objectContaining({ metric: 'pairwiseWinRate', passed: false, actual: null })]);
  });

  it('a module without answer(), or a missing file, is an input error', async () => {
    await expect(loadModuleTarget({ kind: 'module', path: fixture('no-answer.mjs'), given: 'no-answer.mjs', norag: null, version: null })).rejects.toThrow(
      'target no-answer.mjs exports no answer() function: export async function answer(question, { mode, signal }) { return { answer, chunks } }',
    );
    expect(() => loadSuite(QUESTIONS, { target: './nope.ts', cwd: tempDir() })).toThrow('--target: module ./nope.ts not found');
    expect(() => loadSuite(QUESTIONS, { target: 'ftp://example.org' })).toThrow('--target: ftp://example.org: only http:// and https:// URLs can be targets');
  });
});
