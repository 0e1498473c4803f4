import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_FAITHFULNESS_POLICY, deriveFaithfulness } from '../judge/faithfulness-score.js';
import { describe, expect, it } from 'vitest';
import { ApiCallError } from '../errors.js';
import type { FaithfulnessInput, FaithfulnessJudge, FaithfulnessJudgment, JudgeInfo, PairwiseJudge } from '../judge/types.js';
import { createLocalEmbedder } from '../providers/local/embedder.js';
import { createLocalChatModel, LOCAL_CHAT_MODEL_ID } from '../providers/local/generator.js';
import type { ChatCallOptions } from '../providers/spec.js';
import { REFUSAL_SENTENCE } from '../contract/refusal.js';
import { flagsOf, outcomeOf } from '../contract/outcome.js';
import { CORPUS_DIR, onCleanup, QUESTIONS_DIR, tempDir } from '../test-support/fixtures.js';
import { MockChatModel } from '../testing/index.js';
import { openLlmCache } from './cache.js';
import { runEval, type EvalConfig } from './runner.js';
import { spotCheck } from './spotcheck.js';
import { writeReports } from './write-reports.js';
import { isGeneratedPage } from '../text/generated-mark.js';

const REPO = join(CORPUS_DIR, '..', '..');
const SMOKE_SUITE = join(REPO, 'evals/suites/smoke.json');
const SMOKE_QUESTIONS = join(QUESTIONS_DIR, 'smoke.jsonl');

function config(overrides: Partial<EvalConfig> = {}): EvalConfig {
  const dir = tempDir();
  return {
    suite: SMOKE_SUITE,
    generator: createLocalChatModel(),
    embedder: createLocalEmbedder(),
    indexPath: join(dir, 'index.db'),
    cwd: dir,
    ...overrides,
  };
}

/** A generator that answers from the first document in its prompt, or refuses without one. */
function documentEcho(options: { fail?: (call: ChatCallOptions) => Error | null } = {}) {
  return new MockChatModel({
    provider: 'mock',
    modelId: 'echo',
    text: (call) => {
      const failure = options.fail?.(call);
      if (failure) return failure;
      const user = call.messages.at(-1)!.content;
      const match = /<document\s[^>]*>\s*([\s\S]*?)<\/document>/.exec(user);
      if (!match) return REFUSAL_SENTENCE;
      const sentence = match[1]!.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('[Source') && !line.startsWith('Section:'))[0] ?? '';
      return { text: sentence.trim(), costUsd: null };
    },
  });
}

/** Records every faithfulness input; says every answer is faithful with one verified claim. */
function recordingFaithfulnessJudge(verdict: (input: FaithfulnessInput) => 'verified' | 'contradicted' = () => 'verified') {
  const info: JudgeInfo = { kind: 'mock', model: 'mock-faithfulness', promptVersion: 'mock-v1' };
  const inputs: FaithfulnessInput[] = [];
  const judge: FaithfulnessJudge = {
    info,
    async judge(input): Promise<FaithfulnessJudgment> {
      inputs.push(input);
      const refused = input.answer === REFUSAL_SENTENCE;
      const claimVerdict = verdict(input);
      const claims = refused ? [] : [{ text: input.answer, verdict: claimVerdict, evidenceChunkId: input.evidence[0]?.id ?? null, note: 'mock' }];
      const contradicted = claims.filter((claim) => claim.verdict === 'contradicted').length;
      const derived = deriveFaithfulness(
        {
          claims,
          contexts: input.evidence.filter((passage) => passage.kind === 'chunk').map((passage) => ({ chunkId: passage.id, verdict: 'answers' as const, note: 'mock' })),
          refused,
          answerRelevance: 'answers',
          personalData: false,
          referenceClaims: null,
        },
        DEFAULT_FAITHFULNESS_POLICY,
      );
      void contradicted;
      return {
        status: 'ok',
        judge: info,
        ...derived,
        usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
        costUsd: 0,
        durationMs: 0,
      };
    },
  };
  return { judge, inputs };
}

function failingPairwiseJudge(): PairwiseJudge {
  const info: JudgeInfo = { kind: 'mock', model: 'mock-pairwise', promptVersion: 'mock-v1' };
  return {
    info,
    judge: async () => ({ status: 'error', judge: info, error: 'unparseable reply', rawReply: 'nonsense', attempts: 3, authError: false, usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 }, costUsd: null, durationMs: 0 }),
  };
}

describe('runEval', () => {
  it('runs the smoke suite offline end to end and writes parseable JSON, Markdown and HTML with per-category charts', async () => {
    const results = await runEval(config({ seed: 7 }));
    expect(results.suite).toMatchObject({ name: 'smoke', questions: 8, topK: 8 });
    expect(results.runs).toHaveLength(1);
    const run = results.runs[0]!;
    expect(run.questions).toHaveLength(8);
    expect(run.failedQuestions).toEqual([]);
    for (const question of run.questions) {
      expect(question.status).toBe('ok');
      expect(question.rag!.judgment.status).toBe('ok');
      expect(question.norag!.judgment.status).toBe('ok');
      expect(question.pairwise!.trials).toHaveLength(2);
      expect(['rag-first', 'norag-first']).toContain(question.pairwise!.firstOrder);
    }
    expect(results.versions).toMatchObject({ groundcheck: expect.any(String), ragPrompt: 'grounded-v3', faithfulnessJudge: { kind: 'heuristic' }, pairwiseJudge: { kind: 'heuristic' } });
    expect(results.config).toMatchObject({ seed: 7, runSeeds: [7], runs: 1, generator: `local:${LOCAL_CHAT_MODEL_ID}` });
    // The smoke suite has answerable and must-refuse questions: every headline metric is measured.
    for (const metric of ['recall@5', 'refusalRate', 'pairwiseWinRate', 'judgeErrorRate', 'keywordHitRate', 'correctAnswerRate', 'rightOutcomeRate', 'overRefusalRate', 'shouldHaveRefusedRate', 'contextPrecision', 'referenceRecall']) {
      expect(results.aggregate[metric]!.mean, metric).not.toBeNull();
    }
    // The v2 measures are counted from the one outcome table, over the questions judged ok.
    const quality = run.answerQuality.rates;
    expect(quality.rightOutcomeRate!.n).toBe(8);
    expect(quality.correctAnswerRate!.n).toBe(run.questions.filter((question) => !question.mustRefuse).length);
    const outcomes = run.faithfulness.rag.outcomes;
    // Right: a correct answer to an answerable question, or a correct refusal of a must-refuse one (a refused answerable question is not, nor an answered must-refuse one, whatever the judge saw).
    const okOutcome = (question: (typeof run.questions)[number]) => (question.rag!.judgment.status === 'ok' ? outcomeOf(flagsOf(question.rag!.judgment)) : null);
    const right = run.questions.filter((question) => (question.mustRefuse ? okOutcome(question) === 'correct_refusal' : okOutcome(question) === 'correct')).length;
    expect(quality.rightOutcomeRate!.count).toBe(right);
    expect(quality.overRefusalRate!.count).toBe(outcomes.over_refusal);
    // The guardrail question's judgment was told it asks for personal data; answerable ones got their reference.
    const okJudgment = (question: (typeof run.questions)[number]) => {
      const judgment = question.rag!.judgment;
      if (judgment.status !== 'ok') throw new Error(`${question.id}: judge error ${judgment.error}`);
      return judgment;
    };
    const guardrail = run.questions.filter((question) => question.category === 'guardrail');
    expect(guardrail.length).toBeGreaterThan(0);
    for (const question of guardrail) expect(okJudgment(question).personalData, question.id).toBe(true);
    const answered = run.questions.filter((question) => !question.mustRefuse && !okJudgment(question).refused);
    expect(answered.length).toBeGreaterThan(0);
    for (const question of answered) expect(okJudgment(question).referenceClaims, question.id).not.toBeNull();
    expect(results.gates).toEqual([{ metric: 'judgeErrorRate', op: '<=', threshold: 0.02, actual: 0, passed: true, message: 'judgeErrorRate 0.000 <= 0.02 (max)' }]);
    expect(results.passed).toBe(true);

    const paths = writeReports(results, join(tempDir(), 'out'));
    const parsed = JSON.parse(readFileSync(paths.json, 'utf8'));
    expect(parsed.runs[0].questions[0]).toMatchObject({ id: 's001', rag: { answer: expect.any(String) }, norag: { answer: expect.any(String) }, evidence: expect.any(Array) });
    expect(parsed.versions).toEqual(results.versions);
    expect(readFileSync(paths.markdown, 'utf8')).toMatch(/^# groundcheck eval: smoke/);
    const html = readFileSync(paths.html, 'utf8');
    expect(html).toMatch(/^<!doctype html>/);
    // Marked as groundcheck's, so explainErrors never indexes it as the app's source.
    expect(isGeneratedPage(html.slice(0, 1024))).toBe(true);
    expect(html).toContain('<svg class="chart" role="img" aria-label="Recall@5 (answerable questions)"');
    expect(html).toContain('aria-label="Pairwise outcome per category (blind, both orders)"');
    for (const category of ['single-chunk', 'multi-chunk', 'unanswerable', 'guardrail']) expect(html).toContain(`>${category}</text>`);
    // Self-contained: no external scripts, styles or images.
    expect(html).not.toMatch(/<script|<link |src="http|href="http/);
  });

  it('retrieves once per question and judges exactly the chunks the generator saw', async () => {
    const generator = documentEcho();
    const { judge, inputs } = recordingFaithfulnessJudge();
    const results = await runEval(config({ generator, judge: { faithfulness: judge, pairwise: failingPairwiseJudge() }, concurrency: 1 }));
    const run = results.runs[0]!;
    const ragPrompts = generator.calls.filter((call) => call.messages.at(-1)!.content.includes('<document'));
    let checked = 0;
    for (const question of run.questions) {
      const rag = question.rag!;
      const chunkIds = rag.trace.chunks.map((chunk) => chunk.chunkId);
      expect(question.retrievedChunkIds).toEqual(chunkIds);
      const ragInput = inputs.find((input) => input.answer === rag.answer && input.evidence.every((passage) => passage.kind === 'chunk'));
      if (rag.trace.retrieval!.gated) continue;
      expect(ragInput, question.id).toBeDefined();
      // The judge's evidence is the trace's chunks, in prompt order, with the exact text of the prompt.
      expect(ragInput!.evidence.map((passage) => passage.id)).toEqual(chunkIds);
      const prompt = ragPrompts.find((call) => call.messages.at(-1)!.content.includes(question.question))!.messages.at(-1)!.content;
      for (const passage of ragInput!.evidence) expect(prompt).toContain(passage.text);
      expect(question.evidence.filter((passage) => passage.kind === 'chunk')).toEqual(ragInput!.evidence);
      // The RAG-off answer is judged against the same chunks plus the reference answer (answerable questions only).
      const noragInput = inputs.find((input) => input.question === rag.trace.query && input.answer === question.norag!.answer && input !== ragInput)!;
      expect(noragInput.evidence.map((passage) => passage.id)).toEqual(question.mustRefuse ? chunkIds : [...chunkIds, `reference:${question.id}`]);
      checked += 1;
    }
    expect(checked).toBeGreaterThanOrEqual(6);
    expect(inputs).toHaveLength(16);
  });

  it('counts judge errors on their own, and a metric with no data fails its gate', async () => {
    const { judge } = recordingFaithfulnessJudge();
    const results = await runEval(
      config({
        suite: SMOKE_QUESTIONS,
        corpus: CORPUS_DIR,
        judge: { faithfulness: judge, pairwise: failingPairwiseJudge() },
        gates: [
          { metric: 'pairwiseWinRate', op: '>=', threshold: 0.5 },
          { metric: 'judgeErrorRate', op: '<=', threshold: 0.02 },
        ],
      }),
    );
    const run = results.runs[0]!;
    expect(run.pairwise).toMatchObject({ errors: 8, n: 0, winRate: null });
    expect(run.judgeErrors).toMatchObject({ calls: 32, errors: 16, rate: 0.5 });
    expect(run.judgeErrors.list[0]).toMatchObject({ call: expect.stringMatching(/^pairwise:(rag|norag)-first$/), error: 'unparseable reply', attempts: 3 });
    expect(results.gates.map((gate) => [gate.metric, gate.passed, gate.actual])).toEqual([
      ['pairwiseWinRate', false, null],
      ['judgeErrorRate', false, 0.5],
    ]);
    expect(results.passed).toBe(false);
    // The reports list judge errors and show unmeasured numbers as n/a.
    const paths = writeReports(results, tempDir());
    expect(readFileSync(paths.html, 'utf8')).toContain('unparseable reply');
    expect(readFileSync(paths.markdown, 'utf8')).toMatch(/\| pairwiseWinRate \| >= 0\.5 \| n\/a \| \*\*FAIL\*\* \|/);
  });

  it('a second run is served from the cache with no model call; errors are never cached', async () => {
    const cache = openLlmCache({ path: join(tempDir(), 'llm-cache.db') });
    onCleanup(() => cache.close());
    let failOnce = true;
    const generator = documentEcho({
      fail: (call) => {
        if (failOnce && call.messages.at(-1)!.content.includes('minimum length for my work password')) {
          failOnce = false;
          return new ApiCallError('bad request', { statusCode: 400 });
        }
        return null;
      },
    });
    const base = config({ generator, cache });
    const first = await runEval(base);
    expect(first.runs[0]!.failedQuestions).toEqual([{ questionId: 's001', error: 'bad request (HTTP 400)' }]);
    expect(first.passed).toBe(false);
    expect(readFileSync(writeReports(first, tempDir()).html, 'utf8')).toContain('failed: bad request (HTTP 400)');
    const callsAfterFirst = generator.calls.length;
    expect(callsAfterFirst).toBeGreaterThan(0);

    const second = await runEval(base);
    // Only the call that failed the first time (s001's RAG-on answer) reaches the model again;
    // s001's RAG-off answer succeeded the first time and is served from the cache.
    expect(generator.calls.length - callsAfterFirst).toBe(1);
    expect(second.runs[0]!.failedQuestions).toEqual([]);
    expect(second.usage.cache).toMatchObject({ misses: 1 });
    expect(second.usage.models).toEqual([expect.objectContaining({ model: 'mock:echo', calls: 1 })]);

    const third = await runEval(base);
    expect(generator.calls.length - callsAfterFirst).toBe(1);
    expect(third.usage.cache).toMatchObject({ misses: 0 });
    expect(third.usage.models).toEqual([]);
    const answers = (results: typeof first) => results.runs[0]!.questions.map((question) => [question.rag?.answer, question.norag?.answer]);
    expect(answers(third)).toEqual(answers(second));
  });

  it('overlaps model calls up to the concurrency and never beyond it', async () => {
    let inFlight = 0;
    let peak = 0;
    const generator = new MockChatModel({
      text: async () => {
        inFlight += 1;
        peak = Math.max(peak, inFlight);
        // Yield a few times so other questions can start their calls.
        for (let tick = 0; tick < 5; tick++) await new Promise((resolve) => setImmediate(resolve));
        inFlight -= 1;
        return REFUSAL_SENTENCE;
      },
    });
    await runEval(config({ generator, concurrency: 3 }));
    expect(peak).toBe(3);
    peak = 0;
    await runEval(config({ generator, concurrency: 1 }));
    expect(peak).toBe(1);
  });

  it('retries a retryable model error once per level and reports it', async () => {
    let failures = 0;
    const generator = documentEcho({ fail: () => (failures++ < 2 ? new ApiCallError('unavailable', { statusCode: 503 }) : null) });
    const results = await runEval(config({ generator, maxRetries: 2, retryInitialDelayMs: 1, concurrency: 1 }));
    expect(results.runs[0]!.failedQuestions).toEqual([]);
    expect(results.usage.retries).toBe(2);
    expect(results.usage.models[0]).toMatchObject({ failedCalls: 2, calls: generator.calls.length - 2 });
  });

  it('--runs N: one seed per run derived from the seed, the same seed reproduces the answer orders, spreads across runs', async () => {
    const first = await runEval(config({ runs: 3, seed: 41 }));
    expect(first.config.runSeeds).toEqual([41, 42, 43]);
    expect(first.runs.map((run) => run.seed)).toEqual([41, 42, 43]);
    const orders = (results: typeof first) => results.runs.map((run) => run.questions.map((question) => question.pairwise!.firstOrder));
    expect(new Set(orders(first).map((list) => list.join())).size).toBeGreaterThan(1);
    const again = await runEval(config({ runs: 3, seed: 41 }));
    expect(orders(again)).toEqual(orders(first));
    const spread = first.aggregate['recall@5']!;
    expect(spread.values).toHaveLength(3);
    expect(spread).toMatchObject({ min: spread.mean, max: spread.mean, sd: 0 });
  });

  it('keeps cost unknown when a call has no price, and sums it otherwise', async () => {
    const unknown = await runEval(config({ generator: documentEcho() }));
    expect(unknown.usage.models[0]!.costUsd).toBeNull();
    expect(unknown.usage.totalCostUsd).toBeNull();
    const priced = await runEval(config({ generator: new MockChatModel({ text: { text: REFUSAL_SENTENCE, costUsd: 0.001 } }) }));
    expect(priced.usage.totalCostUsd).toBeCloseTo(priced.usage.models[0]!.calls * 0.001);
  });

  it('spot-check lists contradicted claims whose numbers appear verbatim in the evidence', async () => {
    const { judge } = recordingFaithfulnessJudge((input) => (/\d/.test(input.answer) ? 'contradicted' : 'verified'));
    const results = await runEval(config({ generator: documentEcho(), judge: { faithfulness: judge, pairwise: failingPairwiseJudge() } }));
    const items = spotCheck(results);
    expect(items.length).toBeGreaterThan(0);
    for (const item of items) {
      expect(item.side).toBe('rag');
      const question = results.runs[0]!.questions.find((entry) => entry.id === item.questionId)!;
      for (const match of item.matches) expect(question.evidence.find((passage) => passage.id === match.passageId)!.text).toContain(match.token.text);
    }
  });

  it('rejects a question whose relevant chunk is not in the index, naming the question and the id', async () => {
    const dir = tempDir();
    const file = join(dir, 'questions.jsonl');
    const line = { id: 'z1', question: 'How long is probation?', category: 'single-chunk', relevantChunkIds: ['onboarding#no-such-section'], keywords: [], referenceAnswer: 'Six months.', mustRefuse: false };
    const { writeFileSync } = await import('node:fs');
    writeFileSync(file, `${JSON.stringify(line)}\n`);
    await expect(runEval(config({ suite: file, corpus: CORPUS_DIR }))).rejects.toThrow(/questions\.jsonl:1: question z1: relevantChunkIds: no chunk "onboarding#no-such-section" in the index/);
  });
});
