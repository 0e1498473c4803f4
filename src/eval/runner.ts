import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { InvalidInputError } from '../errors.js';
import { createHeuristicFaithfulnessJudge, createLlmFaithfulnessJudge } from '../judge/index.js';
import { createHeuristicPairwiseJudge, createLlmPairwiseJudge } from '../judge/pairwise.js';
import type { FaithfulnessJudge, PairwiseJudge } from '../judge/types.js';
import type { ChatModel, EmbeddingModel } from '../providers/spec.js';
import { ingestDirectory } from '../rag/ingest.js';
import { createRagPipeline } from '../rag/pipeline.js';
import { PROMPT_VERSION } from '../rag/prompt.js';
import { retrieve, type RetrievalResult } from '../rag/retrieve.js';
import { openIndex } from '../rag/store.js';
import { withCache, type CachedChatModel, type LlmCache } from './cache.js';
import { evaluateQuestion, questionFields } from './evaluate-question.js';
import { evaluateGates, mergeGates, type Gate } from './gates.js';
import { totalCost, UsageLedger } from './ledger.js';
import { createLimiter, withLimiter } from './limiter.js';
import { silentProgress, type Progress } from './progress.js';
import { checkChunkIds, loadQuestionSet, type EvalQuestion } from './questions.js';
import { withRetry } from './retry.js';
import { loadSuite, type EvalSuite } from './suite.js';
import { spreadAcrossRuns, summarizeRun } from './summarize.js';
import { RESULTS_FORMAT_VERSION, type EvalResults, type QuestionResult, type RunSummary } from './types.js';

/** How answers are judged. */
export type JudgeConfig =
  /** The offline heuristic judges (default). */
  | 'heuristic'
  /** LLM judges on this chat model (its calls share the run's limiter, cache and ledger). */
  | { chat: ChatModel; maxAttempts?: number }
  /** Judges you built yourself (used as given: not cached, not limited). */
  | { faithfulness: FaithfulnessJudge; pairwise: PairwiseJudge };

export interface EvalConfig {
  /** A suite (from `loadSuite`) or the path of a suite `.json` or question `.jsonl` file. */
  suite: EvalSuite | string;
  /** Corpus folder when `suite` is a bare `.jsonl` path. [corpus='fixtures/corpus'] */
  corpus?: string;
  /** The generator under test. */
  generator: ChatModel;
  /** The embedder for the suite's index. */
  embedder: EmbeddingModel;
  /** [judge='heuristic'] */
  judge?: JudgeConfig;
  /** Repetitions of the whole suite, each with its own seed (`seed + run index`). [runs=1] */
  runs?: number;
  /** Seed for answer orders and bootstrap intervals. [seed=1] */
  seed?: number;
  /**
   * Most model calls in flight at once, across the generator and the judge; also the number of
   * questions worked on at once. [concurrency=4]
   */
  concurrency?: number;
  /** Judge each pair in both orders. [bothOrders=true] */
  bothOrders?: boolean;
  /**
   * Retries per model call on retryable errors, with exponential backoff. Retries belong to one
   * level only: the `openai` provider retries inside its SDK, so either create it with
   * `maxRetries: 0` and set this, or leave this at 0 (the CLI does the former). [maxRetries=0]
   */
  maxRetries?: number;
  /** First retry delay; doubles per retry, with jitter. [retryInitialDelayMs=500] */
  retryInitialDelayMs?: number;
  /** The LLM-call cache; `null` or absent: no cache. */
  cache?: LlmCache | null;
  /** Cache the offline `local` provider too (it computes, it does not call; caching it only risks stale answers after a code change). [cacheLocal=false] */
  cacheLocal?: boolean;
  /** Extra cache-key text per model, for what the model object cannot say (the endpoint's base URL). */
  cacheNamespace?: { generator?: string; judge?: string };
  /** The suite's index file. [indexPath=`.groundcheck/eval-<suite>-<embedder>.db` under `cwd`] */
  indexPath?: string;
  /** Gates added to (and overriding) the suite's gates. */
  gates?: Gate[];
  /** Use the gates written in the suite file. [useSuiteGates=true] */
  useSuiteGates?: boolean;
  progress?: Progress;
  /** Base for relative paths. [cwd=process.cwd()] */
  cwd?: string;
  /** Clock, for tests. [now=() => new Date()] */
  now?: () => Date;
  abortSignal?: AbortSignal;
}

/**
 * Run an eval suite: ingest its corpus (incrementally) into the suite's index, check its questions,
 * then per run and per question: retrieve once, answer with and without retrieval, judge both
 * answers' faithfulness and compare them blind, and aggregate metrics, spreads across runs and gates.
 * Writes nothing but the index and the cache; see `writeReports` for the output files.
 *
 * @throws InvalidInputError for a bad suite, question file or unknown chunk id (nothing has run).
 * @example
 * const results = await runEval({
 *   suite: 'evals/suites/handbook.json',
 *   generator: createLocalChatModel(),
 *   embedder: createLocalEmbedder(),
 * });
 * console.log(results.aggregate.hallucinationRate.mean, results.passed);
 */
export async function runEval(config: EvalConfig): Promise<EvalResults> {
  const cwd = config.cwd ?? process.cwd();
  const now = config.now ?? (() => new Date());
  const runs = wholeNumber(config.runs ?? 1, 'runs', 1, 1000);
  const seed = config.seed ?? 1;
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) throw new InvalidInputError(`option seed ${String(seed)} is invalid: use a whole number from 0 to 4294967295`, { code: 'invalid_option' });
  const concurrency = wholeNumber(config.concurrency ?? 4, 'concurrency', 1, 1024);
  const maxRetries = wholeNumber(config.maxRetries ?? 0, 'maxRetries', 0, 20);
  const bothOrders = config.bothOrders ?? true;
  const progress = config.progress ?? silentProgress;

  const suite = typeof config.suite === 'string' ? loadSuite(config.suite, { cwd, ...(config.corpus !== undefined ? { corpus: config.corpus } : {}) }) : config.suite;
  const questionSet = loadQuestionSet(suite.questionsFile);
  const gates = mergeGates(config.useSuiteGates === false ? [] : suite.gates, config.gates ?? []);
  const started = performance.now();
  const startedAt = now().toISOString();
  const warnings: string[] = [];

  const indexPath = config.indexPath ?? join(cwd, '.groundcheck', `eval-${suite.name}-${slug(config.embedder.fingerprint)}.db`);
  // The default eval index is derived data owned by this runner: rebuild it if the embedder
  // changed. An index path the caller chose is never wiped.
  const index = openIndex({ path: indexPath, embedder: config.embedder, rebuild: config.indexPath === undefined });
  try {
    await ingestDirectory(index, suite.corpusDir);
    checkChunkIds(questionSet, (chunkId) => index.getChunk(chunkId) !== undefined);

    // One limiter over every model call of the run; the ledger sees only calls that reach a model.
    const limiter = createLimiter(concurrency);
    const ledger = new UsageLedger();
    let retries = 0;
    const onRetry = ({ attempt, delayMs, error }: { attempt: number; delayMs: number; error: Error }) => {
      retries += 1;
      progress.note(`retry ${attempt}/${maxRetries} in ${Math.round(delayMs)} ms: ${error.message}`);
    };
    // Cache (per run, outermost: a hit takes no slot) → limiter → retry → ledger (counts every attempt) → model.
    const retryOptions = { maxRetries, onRetry, ...(config.retryInitialDelayMs !== undefined ? { initialDelayMs: config.retryInitialDelayMs } : {}) };
    const prepare = (chat: ChatModel, role: string) => withLimiter(withRetry(ledger.meter(chat, role), retryOptions), limiter);
    const generatorBase = prepare(config.generator, 'generator');
    const judgeConfig = config.judge ?? 'heuristic';
    const judgeChat = typeof judgeConfig === 'object' && 'chat' in judgeConfig ? judgeConfig.chat : null;
    const judgeBase = judgeChat && prepare(judgeChat, 'judge');
    const cached: CachedChatModel[] = [];
    const maybeCache = (chat: ChatModel, original: ChatModel, namespace: string | undefined, run: number): ChatModel => {
      if (!config.cache || (original.provider === 'local' && !config.cacheLocal)) return chat;
      const wrapped = withCache(chat, config.cache, { namespace: `${namespace ?? ''}|run=${run}` });
      cached.push(wrapped);
      return wrapped;
    };

    // Retrieval runs once per question, shared by every run: the same chunks feed both answers and
    // the judges. It runs inside the question's own task rather than as a phase of its own, so the
    // first model calls start as soon as the first question is retrieved (bench:eval).
    const questionLimiter = createLimiter(concurrency);
    const retrievals = new Map<string, Promise<RetrievalResult | Error>>();
    const retrievalOf = (question: EvalQuestion): Promise<RetrievalResult | Error> => {
      let retrieval = retrievals.get(question.id);
      if (!retrieval) {
        const options = { topK: suite.topK, ...(suite.minSimilarity !== null ? { minSimilarity: suite.minSimilarity } : {}) };
        retrieval = retrieve(index, question.question, options).catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
        retrievals.set(question.id, retrieval);
      }
      return retrieval;
    };

    const runSeeds = Array.from({ length: runs }, (_, run) => (seed + run) >>> 0);
    const summaries: RunSummary[] = [];
    let faithfulnessInfo = null as FaithfulnessJudge['info'] | null;
    let pairwiseInfo = null as PairwiseJudge['info'] | null;
    for (let run = 0; run < runs; run++) {
      const runStarted = performance.now();
      const generator = maybeCache(generatorBase, config.generator, config.cacheNamespace?.generator, run);
      const judges = buildJudges(judgeConfig, judgeBase && maybeCache(judgeBase, judgeChat!, config.cacheNamespace?.judge, run), suite.domain);
      faithfulnessInfo = judges.faithfulness.info;
      pairwiseInfo = judges.pairwise.info;
      const pipeline = createRagPipeline({ index, chat: generator, retrieval: { topK: suite.topK }, ...(suite.domain !== null ? { prompt: { domain: suite.domain } } : {}) });
      progress.start(runs > 1 ? `run ${run + 1}/${runs}` : 'questions', questionSet.questions.length);
      const results: QuestionResult[] = await Promise.all(
        questionSet.questions.map((question) =>
          questionLimiter(async () => {
            const retrieval = await retrievalOf(question);
            const result =
              retrieval instanceof Error
                ? failedQuestion(question, `retrieval failed: ${retrieval.message}`)
                : await evaluateQuestion(question, retrieval, {
                    pipeline,
                    faithfulness: judges.faithfulness,
                    pairwise: judges.pairwise,
                    bothOrders,
                    runSeed: runSeeds[run]!,
                    ...(config.abortSignal ? { abortSignal: config.abortSignal } : {}),
                  });
            progress.tick(result.status === 'ok' ? question.id : `${question.id} failed: ${result.error}`);
            return result;
          }),
        ),
      );
      progress.done();
      summaries.push(summarizeRun(run + 1, runSeeds[run]!, results, performance.now() - runStarted));
    }

    const aggregate = spreadAcrossRuns(summaries);
    const gateResults = evaluateGates(
      gates,
      Object.fromEntries(Object.entries(aggregate).map(([name, spread]) => [name, spread.mean])),
    );
    const failedQuestions = summaries.reduce((count, summary) => count + summary.failedQuestions.length, 0);
    if (failedQuestions > 0) warnings.push(`${failedQuestions} question run(s) failed (a model call failed after retries); they are left out of every rate`);
    if (judgeChat && judgeChat.provider === config.generator.provider && judgeChat.modelId === config.generator.modelId) {
      warnings.push(`the judge (${judgeChat.provider}:${judgeChat.modelId}) is the generator's own model: expect self-preference bias (see METHODOLOGY.md)`);
    }
    const models = ledger.snapshot();
    const cacheStats = config.cache
      ? cached.reduce((sum, model) => ({ hits: sum.hits + model.stats.hits, misses: sum.misses + model.stats.misses, writes: sum.writes + model.stats.writes }), { hits: 0, misses: 0, writes: 0 })
      : null;

    return {
      format: RESULTS_FORMAT_VERSION,
      suite: {
        name: suite.name,
        description: suite.description,
        source: suite.source,
        corpusDir: suite.corpusDir,
        questionsFile: suite.questionsFile,
        questions: questionSet.questions.length,
        topK: suite.topK,
        minSimilarity: suite.minSimilarity,
      },
      startedAt,
      finishedAt: now().toISOString(),
      durationMs: performance.now() - started,
      config: {
        runs,
        seed,
        runSeeds,
        concurrency,
        bothOrders,
        maxRetries,
        cache: { enabled: Boolean(config.cache), path: config.cache?.path ?? null },
        indexPath,
        generator: `${config.generator.provider}:${config.generator.modelId}`,
        embedder: config.embedder.fingerprint,
        evidencePolicy:
          'RAG-on answers are judged against exactly their trace chunks; RAG-off answers and pairwise comparisons against the same chunks plus the reference answer (answerable questions only)',
      },
      versions: {
        groundcheck: packageVersion(),
        ragPrompt: PROMPT_VERSION,
        faithfulnessJudge: faithfulnessInfo!,
        pairwiseJudge: pairwiseInfo!,
        node: process.version,
      },
      runs: summaries,
      aggregate,
      gates: gateResults,
      passed: gateResults.every((gate) => gate.passed) && failedQuestions === 0,
      usage: { models, totalCostUsd: totalCost(models), cache: cacheStats, retries },
      warnings,
    };
  } finally {
    index.close();
  }
}

function buildJudges(config: JudgeConfig, judgeChat: ChatModel | null, domain: string | null): { faithfulness: FaithfulnessJudge; pairwise: PairwiseJudge } {
  if (config === 'heuristic') return { faithfulness: createHeuristicFaithfulnessJudge(), pairwise: createHeuristicPairwiseJudge() };
  if ('faithfulness' in config) return { faithfulness: config.faithfulness, pairwise: config.pairwise };
  const options = { chat: judgeChat!, ...(config.maxAttempts !== undefined ? { maxAttempts: config.maxAttempts } : {}), ...(domain !== null ? { domain } : {}) };
  return { faithfulness: createLlmFaithfulnessJudge(options), pairwise: createLlmPairwiseJudge(options) };
}

function failedQuestion(question: EvalQuestion, error: string): QuestionResult {
  return {
    ...questionFields(question),
    status: 'error',
    error,
    retrievedChunkIds: [],
    retrieval: null,
    evidence: [],
    rag: null,
    norag: null,
    pairwise: null,
    durationMs: 0,
  };
}

function wholeNumber(value: number, name: string, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new InvalidInputError(`option ${name} ${String(value)} is invalid: use a whole number from ${min} to ${max}`, { code: 'invalid_option' });
  }
  return value;
}

function slug(text: string): string {
  return text.replace(/[^A-Za-z0-9.]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 80);
}

let cachedVersion: string | null = null;
/** groundcheck's version from its package.json (two folders up from src/eval and dist/eval). */
export function packageVersion(): string {
  if (cachedVersion === null) {
    try {
      cachedVersion = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
    } catch {
      cachedVersion = 'unknown';
    }
  }
  return cachedVersion;
}
