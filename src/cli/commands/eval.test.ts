import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REFUSAL_SENTENCE } from '../../contract/refusal.js';
import { DEFAULT_PARAPHRASE_MODEL, HEURISTIC_JUDGE_VERSION } from '../../judge/index.js';
import { CORPUS_DIR, onCleanup, QUESTIONS_DIR, tempDir } from '../../test-support/fixtures.js';
import { chatReply, errorReply, startMockOpenAIServer, type RecordedRequest } from '../../testing/index.js';
import { runCli } from '../../test-support/cli.js';

const REPO = join(CORPUS_DIR, '..', '..');
const SMOKE_SUITE = join(REPO, 'evals/suites/smoke.json');
const SMOKE_QUESTIONS = join(QUESTIONS_DIR, 'smoke.jsonl');

const run = runCli;

function writeQuestions(lines: object[]): string {
  const file = join(tempDir(), 'questions.jsonl');
  writeFileSync(file, lines.map((line) => JSON.stringify(line)).join('\n'));
  return file;
}

const answerable = { id: 'a1', question: 'How long is probation for new joiners?', category: 'single-chunk', relevantChunkIds: ['onboarding#probation-period'], keywords: ['6 months'], referenceAnswer: 'Six months.', mustRefuse: false };

/** Answer like a grounded model would: the first line of the first document, or the refusal. */
function echoFirstDocument(request: RecordedRequest) {
  const messages = request.body.messages as { content: string }[];
  const match = /<document[^>]*>\s*([\s\S]*?)<\/document>/.exec(messages.at(-1)!.content);
  if (!match) return chatReply(REFUSAL_SENTENCE);
  const line = match[1]!.split('\n').find((text) => text.trim() !== '' && !text.startsWith('[Source') && !text.startsWith('Section:')) ?? '';
  return chatReply(line.trim());
}

describe('groundcheck eval', () => {
  it('exit 0 when every gate passes; writes the three reports; progress goes to stderr', async () => {
    const result = await run(['eval', '--suite', SMOKE_SUITE, '--out', 'results', '--seed', '3']);
    expect(result.stderr).toContain('questions: 8/8 questions');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/smoke: 8 questions, 1 run\(s\)/);
    expect(result.stdout).toMatch(/gates: all 1 passed/);
    expect(result.stdout).toMatch(/PASSED$/m);
    const files = readdirSync(join(result.cwd, 'results')).sort();
    expect(files.map((file) => file.replace(/-\d{8}T[\d.]+Z/, ''))).toEqual(['smoke.html', 'smoke.json', 'smoke.md']);
    const json = JSON.parse(readFileSync(join(result.cwd, 'results', files[1]!), 'utf8'));
    expect(json.config.seed).toBe(3);
  });

  it('--judge-encoder judges with the sentence encoder, recorded as its own judge version (the live judge-worker --judge heuristic-encoder)', async () => {
    const result = await run(['eval', '--suite', SMOKE_SUITE, '--judge-encoder', '--out', 'results', '--no-gates']);
    expect([result.code, result.stderr]).toEqual([0, expect.stringContaining('judge heuristic (offline) with the sentence encoder')]);
    const json = JSON.parse(readFileSync(join(result.cwd, 'results', readdirSync(join(result.cwd, 'results')).find((file) => file.endsWith('.json'))!), 'utf8'));
    expect(json.versions.faithfulnessJudge.promptVersion).toBe(`${HEURISTIC_JUDGE_VERSION}+encoder-v2`);
  });

  it('--paraphrase-model off, or a fitted model from a file, is recorded in the judge version; a bad file is a usage error', async () => {
    const versionOf = (cwd: string) => JSON.parse(readFileSync(join(cwd, 'results', readdirSync(join(cwd, 'results')).find((file) => file.endsWith('.json'))!), 'utf8')).versions.faithfulnessJudge.promptVersion;
    const off = await run(['eval', '--suite', SMOKE_SUITE, '--paraphrase-model', 'off', '--out', 'results', '--no-gates']);
    expect([off.code, off.stderr]).toEqual([0, expect.stringContaining('judge heuristic (offline), paraphrase model off')]);
    expect(versionOf(off.cwd)).toBe(`${HEURISTIC_JUDGE_VERSION}+paraphrase-off`);
    const modelFile = join(tempDir(), 'model.json');
    // As npm run bench:paraphrase prints its last line: the model under "model".
    writeFileSync(modelFile, `table…\n${JSON.stringify({ bench: 'paraphrase', model: { ...DEFAULT_PARAPHRASE_MODEL, threshold: 0.9 } })}\n`);
    const own = await run(['eval', '--suite', SMOKE_SUITE, '--paraphrase-model', modelFile, '--out', 'results', '--no-gates']);
    expect(own.code).toBe(0);
    expect(versionOf(own.cwd)).toMatch(new RegExp(`^${HEURISTIC_JUDGE_VERSION}\\+paraphrase-[0-9a-f]{8}$`));
    writeFileSync(modelFile, JSON.stringify({ weights: [1, 2] }));
    const bad = await run(['eval', '--suite', SMOKE_SUITE, '--paraphrase-model', modelFile]);
    expect([bad.code, bad.stderr]).toEqual([2, expect.stringMatching(/--paraphrase-model .*model\.json is not a paraphrase model: it needs mean, scale and weights/)]);
  });

  it('--judge-encoder with the LLM judge is a usage error', async () => {
    const result = await run(['eval', '--suite', SMOKE_SUITE, '--judge-provider', 'openai', '--judge-encoder'], { env: { OPENAI_API_KEY: 'key', OPENAI_BASE_URL: 'http://127.0.0.1:9' } });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--judge-encoder gives the offline heuristic judge the sentence encoder; the judge here is the LLM judge/);
  });

  it('exit 1 naming every failed gate with its actual value and threshold', async () => {
    const result = await run(['eval', '--suite', SMOKE_SUITE, '--gate', 'recall@5>=2', '--gate', 'hallucinationRate<=-1']);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/gates: 2 of 3 FAILED/);
    expect(result.stdout).toMatch(/FAIL {2}recall@5 \d\.\d{3} < 2 \(min\)/);
    expect(result.stdout).toMatch(/FAIL {2}hallucinationRate \d\.\d{3} > -1 \(max\)/);
    expect(result.stdout).toMatch(/pass {2}judgeErrorRate 0\.000 <= 0\.02 \(max\)/);
    expect(result.stdout).toMatch(/FAILED$/m);
  });

  it('a gate on a metric with no data fails (no must-refuse question: no refusal rate)', async () => {
    const questions = writeQuestions([answerable]);
    const result = await run(['eval', '--suite', questions, '--corpus', CORPUS_DIR, '--gate', 'refusalRate>=0.9']);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/FAIL {2}refusalRate was not measured \(no data\), min 0\.9/);
  });

  it('--gates reads a file (its gates replace the suite gates); --no-gates reports without deciding', async () => {
    const gatesFile = join(tempDir(), 'gates.json');
    writeFileSync(gatesFile, JSON.stringify({ gates: { 'recall@5': { min: 2 } } }));
    const withFile = await run(['eval', '--suite', SMOKE_SUITE, '--gates', gatesFile]);
    expect(withFile.code).toBe(1);
    expect(withFile.stdout).toMatch(/gates: 1 of 1 FAILED/);
    const none = await run(['eval', '--suite', SMOKE_SUITE, '--no-gates']);
    expect(none.code).toBe(0);
    expect(none.stdout).toMatch(/gates: none/);
  });

  it.each([
    [['--runs', '0'], /--runs must be a whole number from 1 to 100, not "0"/],
    [['--concurrency', 'many'], /--concurrency must be a whole number/],
    [['--seed', '1.5'], /--seed must be a whole number/],
    [['--seed=-1'], /--seed must be a whole number from 0 to 4294967295, not "-1"/],
    [['--provider', 'anthropic'], /--provider must be local or openai, not "anthropic"/],
    [['--judge-provider', 'x'], /--judge-provider must be local or openai/],
    [['--bogus'], /Unknown option '--bogus'/],
    [['extra'], /unexpected argument "extra"/],
    [['--gate', 'recall@5 = 0.8'], /--gate "recall@5 = 0.8" is invalid/],
    [['--gate', 'accuracy>=0.8'], /unknown metric "accuracy"/],
    [['--no-cache', '--cache', 'x.db'], /--cache and --no-cache contradict/],
    [['--no-gates', '--gate', 'mrr>=0.5'], /--no-gates cannot be combined/],
    [['--suite', 'missing.json'], /suite missing.json not found/],
    [['--suite', SMOKE_SUITE, '--corpus', CORPUS_DIR], /--corpus applies to a bare .jsonl/],
    [['--gates', 'nope.json'], /--gates nope.json: file not found/],
  ])('exit 2 for bad flags: %j', async (args, message) => {
    const result = await run(['eval', ...args]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
  });

  it('exit 2 for a bad suite file, naming the file and field', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'suite.json'), JSON.stringify({ corpus: CORPUS_DIR, questions: SMOKE_QUESTIONS, gates: { recall: { min: 1 } } }));
    const result = await run(['eval', '--suite', 'suite.json'], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/suite\.json: gates\.recall: unknown metric "recall"; known: hallucinationRate, /);
  });

  it('exit 2 for a bad question line, naming file:line and field', async () => {
    const file = join(tempDir(), 'broken.jsonl');
    writeFileSync(file, `${JSON.stringify(answerable)}\n${JSON.stringify({ ...answerable, id: 'a2', relevantChunkIds: 'onboarding#probation-period' })}\n`);
    const result = await run(['eval', '--suite', file, '--corpus', CORPUS_DIR]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${file}:2: relevantChunkIds: expected array, received string`);
  });

  it('exit 2 for a relevant chunk id missing from the index', async () => {
    const file = writeQuestions([{ ...answerable, relevantChunkIds: ['onboarding#nope'] }]);
    const result = await run(['eval', '--suite', file, '--corpus', CORPUS_DIR]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('question a1: relevantChunkIds: no chunk "onboarding#nope" in the index');
  });

  it('openai provider against a local server: a rerun makes no request; a failed request is retried on the rerun, never cached', async () => {
    let failFirst = true;
    const server = await startMockOpenAIServer({
      chat: (request) => {
        const last = (request.body.messages as { content: string }[]).at(-1)!.content;
        if (failFirst && last.includes('<document') && last.includes('minimum length for my work password')) {
          failFirst = false;
          return errorReply(400, 'context too long');
        }
        return echoFirstDocument(request);
      },
    });
    onCleanup(() => void server.close());
    const env = { OPENAI_API_KEY: 'test', OPENAI_BASE_URL: server.url, GROUNDCHECK_EMBED_PROVIDER: 'local' };
    const cwd = tempDir();
    const args = ['eval', '--suite', SMOKE_SUITE, '--provider', 'openai', '--judge-provider', 'local', '--concurrency', '4'];
    const chatRequests = () => server.requests.filter((request) => request.path.endsWith('/chat/completions')).length;

    const first = await run(args, { env, cwd });
    expect(first.code).toBe(1);
    expect(first.stdout).toMatch(/question s001 failed: .*400/);
    const afterFirst = chatRequests();
    // 8 questions × (RAG on + RAG off), minus the gated ones that never call the model.
    expect(afterFirst).toBeGreaterThan(8);

    const second = await run(args, { env, cwd });
    expect(second.code).toBe(0);
    expect(chatRequests() - afterFirst).toBe(1);
    expect(second.stdout).toMatch(/model calls 1, cache \d+ hits \/ 1 misses/);

    const third = await run(args, { env, cwd });
    expect(third.code).toBe(0);
    expect(chatRequests() - afterFirst).toBe(1);
    expect(third.stdout).toMatch(/model calls 0, cache \d+ hits \/ 0 misses/);

    const bypass = await run([...args, '--no-cache'], { env, cwd });
    expect(bypass.code).toBe(0);
    // Without the cache every call reaches the server again (the first run's requests included the failed one).
    expect(chatRequests() - afterFirst).toBe(1 + afterFirst);
    expect(bypass.stdout).toMatch(/cache off/);
  });

  it('the judge may use its own endpoint; a judge that never answers usable JSON fails the gates, it never passes', async () => {
    const generator = await startMockOpenAIServer({ chat: echoFirstDocument });
    const judge = await startMockOpenAIServer({ chat: () => chatReply('I think it is fine.') });
    onCleanup(() => void generator.close());
    onCleanup(() => void judge.close());
    const env = {
      OPENAI_API_KEY: 'gen-key',
      OPENAI_BASE_URL: generator.url,
      GROUNDCHECK_EMBED_PROVIDER: 'local',
      GROUNDCHECK_JUDGE_BASE_URL: judge.url,
      GROUNDCHECK_JUDGE_API_KEY: 'judge-key',
      GROUNDCHECK_JUDGE_MODEL: 'judge-model',
    };
    const result = await run(['eval', '--suite', SMOKE_SUITE, '--provider', 'openai', '--judge-provider', 'openai', '--gate', 'hallucinationRate<=0.5', '--no-cache'], { env });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/FAIL {2}hallucinationRate was not measured/);
    expect(result.stdout).toMatch(/FAIL {2}judgeErrorRate 1\.000 > 0\.02/);
    const judgeRequests = judge.requests.filter((request) => request.path.endsWith('/chat/completions'));
    expect(judgeRequests.length).toBeGreaterThan(0);
    expect(judgeRequests.every((request) => request.body.model === 'judge-model' && request.headers.authorization === 'Bearer judge-key')).toBe(true);
    expect(generator.requests.every((request) => request.headers.authorization === 'Bearer gen-key')).toBe(true);
  });
});

describe('groundcheck spotcheck', () => {
  it('lists candidates from a results file (exit 0) and rejects other files (exit 2)', async () => {
    const evalRun = await run(['eval', '--suite', SMOKE_SUITE, '--out', 'out']);
    const file = readdirSync(join(evalRun.cwd, 'out')).find((name) => name.endsWith('.json'))!;
    const result = await run(['spotcheck', join(evalRun.cwd, 'out', file)]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^\d+ contradicted claim\(s\) share an identifier, number or name verbatim with their evidence \(of \d+ contradicted verdicts; judge heuristic, heuristic-v\d+\)/);
    const json = await run(['spotcheck', join(evalRun.cwd, 'out', file), '--json']);
    expect(Array.isArray(JSON.parse(json.stdout))).toBe(true);

    const other = join(tempDir(), 'other.json');
    writeFileSync(other, '{"hello": 1}');
    expect((await run(['spotcheck', other])).code).toBe(2);
    expect((await run(['spotcheck'])).code).toBe(2);
  });
});
