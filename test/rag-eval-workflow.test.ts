import { XMLValidator } from 'fast-xml-parser';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runCli } from '../src/test-support/cli.js';
import { onCleanup } from '../src/test-support/fixtures.js';
import { startMockOpenAIServer } from '../src/testing/index.js';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const WORKFLOW = join(REPO, 'examples/github-actions/rag-eval.yml');

type Step = { run?: string; uses?: string; if?: string; env?: Record<string, string> };
type Job = { if?: string; needs?: string; env?: Record<string, string>; steps: Step[]; outputs?: Record<string, string> };

/** The arguments of the `npx groundcheck eval …` command of a job, with repo paths made absolute. */
function evalArgs(job: Job): string[] {
  const command = job.steps.find((step) => step.run?.startsWith('npx groundcheck eval'))!.run!;
  const words = command.replace(/^npx groundcheck /, '').trim().split(/\s+/).map((word) => word.replace(/^'(.*)'$/, '$1'));
  return words.map((word) => (/^evals\/(suites|gates)\//.test(word) ? join(REPO, word) : word));
}

/** The CLI in a fresh temp folder (a job's checkout) with the job's environment. */
const run = (args: string[], env: Record<string, string> = {}) => runCli(args, { env });

describe('examples/github-actions/rag-eval.yml', () => {
  const workflow = parse(readFileSync(WORKFLOW, 'utf8')) as { on: Record<string, unknown>; jobs: Record<string, Job> };

  it('runs weekly and on corpus changes; offline always, with a model only when the key secret exists', () => {
    expect(workflow.on.schedule).toEqual([{ cron: '17 6 * * 1' }]);
    expect((workflow.on.push as { paths: string[] }).paths).toEqual(expect.arrayContaining(['fixtures/corpus/**', 'fixtures/questions/**', 'evals/suites/**']));
    expect(workflow.on).toHaveProperty('workflow_dispatch');
    expect(workflow.jobs.offline!.if).toBeUndefined();
    expect(workflow.jobs.keys!.steps[0]!.env).toEqual({ OPENAI_API_KEY: '${{ secrets.OPENAI_API_KEY }}' });
    expect(workflow.jobs['with-model']).toMatchObject({ needs: 'keys', if: "needs.keys.outputs.openai == 'true'", env: { OPENAI_API_KEY: '${{ secrets.OPENAI_API_KEY }}' } });
    for (const job of [workflow.jobs.offline!, workflow.jobs['with-model']!]) {
      expect(job.steps.some((step) => step.uses === 'actions/upload-artifact@v4' && step.if === 'always()')).toBe(true);
    }
  });

  it('its offline command runs as written and passes, writing JUnit and JSON', async () => {
    const result = await run(evalArgs(workflow.jobs.offline!));
    expect(result.stdout).toMatch(/^handbook: 78 questions/);
    expect(result.stdout).toMatch(/gates: all 3 passed/);
    expect(result.code).toBe(0);
    expect(XMLValidator.validate(readFileSync(join(result.cwd, 'eval-results/offline.junit.xml'), 'utf8'))).toBe(true);
    expect(JSON.parse(readFileSync(join(result.cwd, 'eval-results/offline.json'), 'utf8')).suite.name).toBe('handbook');
  });

  it('its model command is valid: it runs against an OpenAI-compatible endpoint (a local mock here, on the smoke suite)', async () => {
    const server = await startMockOpenAIServer();
    onCleanup(() => void server.close());
    const args = evalArgs(workflow.jobs['with-model']!).map((word) => word.replace(/handbook\.json$/, 'smoke.json'));
    const result = await run(args, { ...workflow.jobs['with-model']!.env, OPENAI_API_KEY: 'test', OPENAI_BASE_URL: server.url, GROUNDCHECK_EMBED_PROVIDER: 'local', GROUNDCHECK_MAX_RETRIES: '0' });
    expect(result.stdout).toMatch(/^smoke: 8 questions/);
    expect(server.requests.filter((request) => request.path.endsWith('/chat/completions')).length).toBeGreaterThan(0);
    // The mock's replies are no judge verdicts: judge errors fail the suite's gate, never pass it.
    expect(result.code).toBe(1);
    expect(XMLValidator.validate(readFileSync(join(result.cwd, 'eval-results/model.junit.xml'), 'utf8'))).toBe(true);
  });
});
