import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Request } from 'express';
import { pino } from 'pino';
import { renderErrorReport } from '../contract/code.js';
import type { EvidencePassage } from '../contract/evidence.js';
import { InvalidInputError, errorMessage } from '../errors.js';
import { explainErrors, type ExplainErrorsMiddleware } from '../explain/middleware.js';
import type { Explanation } from '../explain/explain.js';
import { explainingModel } from '../explain/local-explainer.js';
import { explainQuestion } from '../explain/prompt.js';
import { indexSource } from '../explain/source-index.js';
import type { TruncationStrategy } from '../explain/truncate.js';
import { createCodeClaimsJudge, requireClaimsForCodeSpecifics } from '../judge/code-claims.js';
import { createHeuristicExplanationJudge } from '../judge/explanation-heuristic.js';
import { createLlmExplanationJudge } from '../judge/explanation-llm.js';
import { createLlmFaithfulnessJudge } from '../judge/llm-judge.js';
import { judgePair } from '../judge/pairwise-protocol.js';
import type { FaithfulnessJudge, PairwiseJudge } from '../judge/types.js';
import { seededRng } from '../metrics/random.js';
import type { ChatModel, EmbeddingModel } from '../providers/spec.js';
import { openIndex } from '../rag/store.js';
import { fnv1a } from '../text/text.js';
import { withCache, type LlmCache } from './cache.js';
import { fixLocationLines, judgeExcerpt, readAppSource } from './explain-excerpt.js';
import { summarizeExplainEval, type ExplainSummary } from './explain-summary.js';
import { loadExplainSuite, type ExplainFailure, type ExplainSuite, type FailureGroup } from './explain-suite.js';
import { evaluateGates, mergeGates, type Gate, type GateResult } from './gates.js';
import { totalCost, UsageLedger, type ModelTotals } from './ledger.js';
import { createLimiter, withLimiter } from './limiter.js';
import { silentProgress, type Progress } from './progress.js';
import type { ExplainVariant, ExplainedSide, FailureResult } from './explain-results.js';
import { withRetry } from './retry.js';

/**
 * The explain-errors eval: start the suite's app on port 0 three times (RAG on; RAG off; RAG off
 * with tail-only truncation, the historical bug), trigger every failure over real HTTP, record each
 * explanation's trace, judge each explanation's claims against a small excerpt (the failing
 * function and what it calls), compare RAG on with RAG off blind in both orders, and measure what
 * truncation costs RAG off. Its own runner (not `runEval`): an explanation suite has no questions,
 * corpus or retrieval metrics; it reuses the pairwise protocol, the claim judges, the cache,
 * limiter, retries, ledger and gates.
 */

export type { ExplainVariant } from './explain-results.js';

export const EXPLAIN_RESULTS_FORMAT_VERSION = 1;

export interface ExplainEvalConfig {
  /** A suite from `loadExplainSuite`, or its path. */
  suite: ExplainSuite | string;
  /** The explaining model; the offline `local` provider means the extractive explainer. */
  generator: ChatModel;
  /** The source index's embedder. */
  embedder: EmbeddingModel;
  /** `heuristic` (offline) or LLM judges on this chat model. [judge='heuristic'] */
  judge?: 'heuristic' | { chat: ChatModel };
  /** Seeds the pairwise orders. [seed=1] */
  seed?: number;
  /** [bothOrders=true] */
  bothOrders?: boolean;
  /** Model calls in flight at once. [concurrency=4] */
  concurrency?: number;
  /** Retries per model call on retryable errors. [maxRetries=0] */
  maxRetries?: number;
  cache?: LlmCache | null;
  cacheNamespace?: { generator?: string; judge?: string };
  /** [indexPath=<cwd>/.groundcheck/eval-<suite>-<embedder>.db] */
  indexPath?: string;
  gates?: Gate[];
  /** [useSuiteGates=true] */
  useSuiteGates?: boolean;
  progress?: Progress;
  /** [cwd=process.cwd()] */
  cwd?: string;
  now?: () => Date;
}

export type { ExplainedSide, FailureResult } from './explain-results.js';

export interface ExplainEvalResults {
  formatVersion: number;
  kind: 'explain-errors';
  suite: { name: string; description: string | null; source: string; failures: number; groups: Record<FailureGroup, number> };
  config: { seed: number; bothOrders: boolean; maxFrames: number; indexPath: string };
  versions: { generator: string; claimsJudge: FaithfulnessJudge['info']; pairwiseJudge: PairwiseJudge['info'] | null; promptVersion: string | null };
  startedAt: string;
  durationMs: number;
  failures: FailureResult[];
  summary: ExplainSummary;
  gates: GateResult[];
  passed: boolean;
  warnings: string[];
  usage: { models: ModelTotals[]; totalCostUsd: number | null };
}

const FAILURE_HEADER = 'x-groundcheck-failure';

/**
 * Run an explain-errors suite. Writes nothing but the source index and the cache; see
 * `writeExplainReports` for the report files.
 *
 * @example
 * const results = await runExplainEval({ suite: 'evals/suites/explain-errors.json', generator: createLocalChatModel(), embedder: createLocalEmbedder() });
 * results.summary.groups.all.pairwise.winRate
 */
export async function runExplainEval(config: ExplainEvalConfig): Promise<ExplainEvalResults> {
  const cwd = config.cwd ?? process.cwd();
  const now = config.now ?? (() => new Date());
  const seed = config.seed ?? 1;
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) throw new InvalidInputError(`option seed ${String(seed)} is invalid: use a whole number from 0 to 4294967295`, { code: 'invalid_option' });
  const bothOrders = config.bothOrders ?? true;
  const progress = config.progress ?? silentProgress;
  const suite = typeof config.suite === 'string' ? loadExplainSuite(config.suite, { cwd }) : config.suite;
  const gates = mergeGates(config.useSuiteGates === false ? [] : suite.gates, config.gates ?? []);
  const started = performance.now();
  const startedAt = now().toISOString();
  const warnings: string[] = [];

  const module = (await import(pathToFileURL(suite.moduleFile).href)) as Record<string, unknown>;
  const createApp = module[suite.createApp];
  if (typeof createApp !== 'function') throw new InvalidInputError(`${suite.source}: ${suite.moduleFile} exports no function ${suite.createApp}`, { code: 'invalid_suite' });

  const indexPath = config.indexPath ?? join(cwd, '.groundcheck', `eval-${suite.name}-${config.embedder.fingerprint.replace(/[^A-Za-z0-9._-]+/g, '-')}.db`);
  const built = openIndex({ path: indexPath, embedder: config.embedder, rebuild: config.indexPath === undefined });
  try {
    await indexSource(built, suite.appDir);
  } finally {
    built.close();
  }
  const source = readAppSource(suite.appDir);

  // Cache (outermost: a hit takes no slot) → limiter → retry → ledger → model, as in runEval.
  const limiter = createLimiter(config.concurrency ?? 4);
  const ledger = new UsageLedger();
  const prepare = (chat: ChatModel, role: string, namespace: string | undefined) => {
    const prepared = withLimiter(withRetry(ledger.meter(chat, role), { maxRetries: config.maxRetries ?? 0, onRetry: ({ attempt, error }) => progress.note(`retry ${attempt}: ${error.message}`) }), limiter);
    return config.cache && chat.provider !== 'local' ? withCache(prepared, config.cache, { namespace: namespace ?? '' }) : prepared;
  };
  const explainer = explainingModel(config.generator);
  const generator = prepare(explainer, 'generator', config.cacheNamespace?.generator);
  const judgeConfig = config.judge ?? 'heuristic';
  const judgeChat = judgeConfig === 'heuristic' ? null : prepare(judgeConfig.chat, 'judge', config.cacheNamespace?.judge);
  const claimsJudge = requireClaimsForCodeSpecifics(judgeChat === null ? createCodeClaimsJudge() : createLlmFaithfulnessJudge({ chat: judgeChat }));
  const pairwiseJudgeFor = (failure: ExplainFailure): PairwiseJudge =>
    judgeChat === null ? createHeuristicExplanationJudge({ reference: failure.reference }) : createLlmExplanationJudge({ chat: judgeChat, reference: failure.reference });

  const collected = new Map<string, Explanation>();
  const variants: { variant: ExplainVariant; rag: boolean; truncation: TruncationStrategy }[] = [
    { variant: 'rag', rag: true, truncation: 'app-frames' },
    { variant: 'norag', rag: false, truncation: 'app-frames' },
    { variant: 'noragTail', rag: false, truncation: 'tail' },
  ];
  const servers: { variant: ExplainVariant; server: Server; middleware: ExplainErrorsMiddleware; base: string }[] = [];
  const results: FailureResult[] = [];
  let pairwiseInfo: PairwiseJudge['info'] | null = null;
  try {
    for (const { variant, rag, truncation } of variants) {
      const middleware = explainErrors({
        enabled: true,
        root: suite.appDir,
        rag,
        indexPath,
        buildIndex: 'never',
        chat: generator,
        embedder: config.embedder,
        maxFrames: suite.maxFrames,
        truncation,
        rateLimit: false,
        print: false,
        logger: pino({ level: 'silent' }),
        onExplanation: (explanation: Explanation, req: Request) => void collected.set(`${variant}:${req.get(FAILURE_HEADER) ?? ''}`, explanation),
      });
      const app = (createApp as (options: { errorHandler: unknown }) => { listen: (port: number, host: string) => Server })({ errorHandler: middleware });
      const server = app.listen(0, '127.0.0.1');
      await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
      servers.push({ variant, server, middleware, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
    }

    progress.start('explaining', suite.failures.length, 'failures');
    for (const failure of suite.failures) {
      const reference = { ...failure.reference, fixLocation: { ...failure.reference.fixLocation, lines: fixLocationLines(source, failure.reference) } };
      const base: FailureResult = { id: failure.id, group: failure.group, request: failure.request, reference, status: 'ok', error: null, httpStatus: null, evidence: [], sides: null, pairwise: null, truncation: null, evidenceAblation: null };
      try {
        const explained = {} as Record<ExplainVariant, Explanation>;
        for (const { variant, base: url } of servers) {
          const response = await fetch(`${url}${failure.request.path}`, {
            method: failure.request.method,
            headers: { accept: 'application/json', [FAILURE_HEADER]: failure.id, ...(failure.request.contentType ? { 'content-type': failure.request.contentType } : {}) },
            ...(failure.request.body !== null ? { body: failure.request.body } : {}),
          });
          await response.arrayBuffer();
          base.httpStatus ??= response.status;
          const explanation = collected.get(`${variant}:${failure.id}`);
          if (response.status < 400 || explanation === undefined) throw new Error(`${failure.request.method} ${failure.request.path} answered ${response.status} without an unhandled error: the failure did not happen`);
          if (explanation.text === null) throw new Error(`no ${variant} explanation: ${explanation.notes.join('; ')}`);
          explained[variant] = explanation;
        }
        const report = explained.rag.report;
        const question = explainQuestion(report, { method: failure.request.method, path: failure.request.path });
        const errorReport: EvidencePassage = { id: 'error-report', text: renderErrorReport(report), kind: 'reference' };
        const evidence = [...judgeExcerpt(source, explained.rag.frames, reference), errorReport];
        const claimsOf = (text: string, against: EvidencePassage[]) => claimsJudge.judge({ question, evidence: against, answer: text });
        const sides = {} as Record<ExplainVariant, ExplainedSide>;
        for (const { variant } of variants) {
          const explanation = explained[variant];
          sides[variant] = {
            text: explanation.text,
            trace: explanation.trace,
            errorReport: renderErrorReport(explanation.report),
            mode: explanation.mode,
            notes: explanation.notes,
            claims: await claimsOf(explanation.text!, evidence),
          };
        }
        // Each side's faithfulness judgment, as the pairwise judges read it (v2: claims come from the judgment).
        const judgmentOf = (side: ExplainedSide) => side.claims ?? null;
        const judge = pairwiseJudgeFor({ ...failure, reference });
        pairwiseInfo = judge.info;
        const rng = (salt: string) => seededRng(fnv1a(`${seed}:${failure.id}:${salt}`));
        const scrubTerms = [generator.modelId];
        const pairwise = await judgePair({ judge, questionId: failure.id, question, evidence, sides: { rag: sides.rag.text!, norag: sides.norag.text!, judgmentRag: judgmentOf(sides.rag), judgmentNorag: judgmentOf(sides.norag) }, rng: rng('pairwise'), bothOrders, scrubTerms });
        const truncation = await judgePair({ judge, questionId: failure.id, question, evidence, sides: { rag: sides.norag.text!, norag: sides.noragTail.text!, judgmentRag: judgmentOf(sides.norag), judgmentNorag: judgmentOf(sides.noragTail) }, rng: rng('truncation'), bothOrders, scrubTerms });
        const generatorContext = [...(explained.rag.trace?.chunks ?? []).map((chunk) => ({ id: chunk.chunkId, text: chunk.text, kind: 'chunk' as const })), errorReport];
        results.push({
          ...base,
          evidence,
          sides,
          pairwise,
          truncation,
          evidenceAblation: { stackOnly: await claimsOf(sides.rag.text!, [errorReport]), generatorContext: await claimsOf(sides.rag.text!, generatorContext) },
        });
        progress.tick(failure.id);
      } catch (error) {
        results.push({ ...base, status: 'error', error: errorMessage(error) });
        progress.tick(`${failure.id} failed: ${errorMessage(error)}`);
      }
    }
    progress.done();
  } finally {
    for (const { server, middleware } of servers) {
      middleware.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  }

  const summary = summarizeExplainEval(results, { seed });
  const gateResults = evaluateGates(gates, summary.metrics);
  for (const failed of results.filter((result) => result.status === 'error')) warnings.push(`failure ${failed.id} could not be run: ${failed.error}`);
  if (judgeChat !== null && judgeChat.modelId === generator.modelId && judgeChat.provider === generator.provider) warnings.push('the judge is the explaining model itself: expect self-preference');
  const models = ledger.snapshot();
  const promptVersion = results.find((result) => result.sides?.rag.trace)?.sides?.rag.trace?.promptVersion ?? null;
  return {
    formatVersion: EXPLAIN_RESULTS_FORMAT_VERSION,
    kind: 'explain-errors',
    suite: {
      name: suite.name,
      description: suite.description,
      source: suite.source,
      failures: suite.failures.length,
      groups: { 'app-code': suite.failures.filter((failure) => failure.group === 'app-code').length, 'stack-named': suite.failures.filter((failure) => failure.group === 'stack-named').length },
    },
    config: { seed, bothOrders, maxFrames: suite.maxFrames, indexPath },
    versions: { generator: `${explainer.provider}:${explainer.modelId}`, claimsJudge: claimsJudge.info, pairwiseJudge: pairwiseInfo, promptVersion },
    startedAt,
    durationMs: performance.now() - started,
    failures: results,
    summary,
    gates: gateResults,
    passed: gateResults.every((gate) => gate.passed) && results.every((result) => result.status === 'ok'),
    warnings,
    usage: { models, totalCostUsd: totalCost(models) },
  };
}
