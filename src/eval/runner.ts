import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { InvalidInputError } from '../errors.js';
import { MEMORY_CHAT_MODEL_ID } from '../providers/local/memory-model.js';
import { createHeuristicFaithfulnessJudge, createLlmFaithfulnessJudge } from '../judge/index.js';
import { createHeuristicPairwiseJudge, createLlmPairwiseJudge } from '../judge/pairwise.js';
import type { FaithfulnessJudge, PairwiseJudge } from '../judge/types.js';
import type { SentenceEncoder } from '../judge/heuristic-encoder.js';
import type { ParaphraseModel } from '../judge/heuristic-paraphrase.js';
import type { ChatModel, EmbeddingModel } from '../providers/spec.js';
import { PROMPT_VERSION } from '../rag/prompt.js';
import { withCache, type CachedChatModel, type LlmCache } from './cache.js';
import { evaluateQuestion } from './evaluate-question.js';
import { evaluateGates, mergeGates, type Gate } from './gates.js';
import { totalCost, UsageLedger } from './ledger.js';
import { createLimiter, withLimiter } from './limiter.js';
import { checkPipelineSettings, type PipelineSettings } from './pipeline-settings.js';
import { silentProgress, type Progress } from './progress.js';
import { loadQuestionSet } from './questions.js';
import { withRetry } from './retry.js';
import { loadSuite, type EvalSuite } from './suite.js';
import { spreadAcrossRuns, summarizeRun } from './summarize.js';
import type { Answerer, TargetTally } from './targets/answerer.js';
import { externalAnswerer } from './targets/external-answerer.js';
import { openGroundcheckTarget, type GroundcheckTarget } from './targets/groundcheck-target.js';
import { createHttpTarget } from './targets/http-target.js';
import { loadModuleTarget } from './targets/module-target.js';
import type { EvalTarget, TargetSpec } from './targets/types.js';
import { RESULTS_FORMAT_VERSION, type EvalResults, type QuestionResult, type RunSummary } from './types.js';

/** How answers are judged. */
export type JudgeConfig =
  /** The offline heuristic judges (default). */
  | 'heuristic'
  /**
   * The offline heuristic judges, the faithfulness judge with this sentence encoder
   * (`heuristic-v…+encoder-v2`; `loadSentenceEncoder()`) and/or this paraphrase model (`null`: none,
   * `+paraphrase-off`; a team's own fit from `npm run bench:paraphrase`, `+paraphrase-<hash>`).
   */
  | { heuristic: { encoder?: SentenceEncoder; paraphraseModel?: ParaphraseModel | null } }
  /** LLM judges on this chat model (its calls share the run's limiter, cache and ledger). */
  | { chat: ChatModel; maxAttempts?: number }
  /** Judges you built yourself (used as given: not cached, not limited). */
  | { faithfulness: FaithfulnessJudge; pairwise: PairwiseJudge };

export interface EvalConfig {
  /** A suite (from `loadSuite`) or the path of a suite `.json` or question `.jsonl` file. */
  suite: EvalSuite | string;
  /** Corpus folder when `suite` is a bare `.jsonl` path. [corpus='fixtures/corpus'] */
  corpus?: string;
  /**
   * What is evaluated: an {@link EvalTarget} you built, or a target spec. [target=the suite's
   * target, groundcheck's pipeline unless the suite names another]
   */
  target?: EvalTarget | TargetSpec;
  /** The generator under test (the groundcheck target only; required for it). */
  generator?: ChatModel;
  /** The embedder for the suite's index (the groundcheck target only; required for it). */
  embedder?: EmbeddingModel;
  /** Numeric options of groundcheck's pipeline (`PIPELINE_SETTINGS`; `--sweep` varies one). Override the suite's `topK` and `minSimilarity`. */
  pipeline?: PipelineSettings;
  /** The sentence the app refuses with, for refusal detection, the judges and groundcheck's prompt. [refusalSentence=the suite's `refusal`, else REFUSAL_SENTENCE] */
  refusalSentence?: string;
  /** Environment for `${NAME}` in an HTTP target's headers. [env=process.env] */
  env?: Record<string, string | undefined>;
  /** fetch for an HTTP target. [fetch=globalThis.fetch] */
  fetch?: typeof fetch;
  /** [judge='heuristic'] */
  judge?: JudgeConfig;
  /** Repetitions of the whole suite, each with its own seed (`seed + run index`). [runs=1] */
  runs?: number;
  /** Seed for answer orders and bootstrap intervals. [seed=1] */
  seed?: number;
  /**
   * Most model (and target) calls in flight at once, across the generator, the target and the
   * judge; also the number of questions worked on at once. [concurrency=4]
   */
  concurrency?: number;
  /** Judge each pair in both orders. [bothOrders=true] */
  bothOrders?: boolean;
  /**
   * Retries per model or target call on retryable errors, with exponential backoff. Retries belong to one
   * level only: the `openai` provider retries inside its SDK, so either create it with
   * `maxRetries: 0` and set this, or leave this at 0 (the CLI does the former). [maxRetries=0]
   */
  maxRetries?: number;
  /** First retry delay; doubles per retry, with jitter. [retryInitialDelayMs=500] */
  retryInitialDelayMs?: number;
  /** The LLM-call cache, which also keeps external targets' answers (by target, question, mode and run); `null` or absent: no cache. */
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
 * Run an eval suite against its target. For groundcheck's pipeline (the default): ingest the
 * corpus (incrementally) into the suite's index and check the questions' chunk ids, then retrieve
 * once per question. For an HTTP or module target: ask it. Then, per run and per question: answer
 * with and without retrieval, judge both answers' faithfulness against exactly the chunks the
 * target used and compare them blind, and aggregate metrics, spreads across runs and gates.
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
 * // any app: await runEval({ suite: 'my-suite.json', target: createHttpTarget(spec) })
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
  const settings = checkPipelineSettings({ topK: suite.topK, ...(suite.minSimilarity !== null ? { minSimilarity: suite.minSimilarity } : {}), ...config.pipeline });
  const refusalSentence = config.refusalSentence ?? suite.refusal ?? undefined;
  const started = performance.now();
  const startedAt = now().toISOString();
  const warnings: string[] = [];

  // What answers: groundcheck's pipeline on the suite's index, or an external target.
  const spec = config.target ?? suite.target;
  const external = 'answer' in spec ? spec : spec.kind === 'http' ? createHttpTarget(spec, { ...(config.env ? { env: config.env } : {}), ...(config.fetch ? { fetch: config.fetch } : {}) }) : spec.kind === 'module' ? await loadModuleTarget(spec) : null;
  let groundcheck: GroundcheckTarget | null = null;
  let indexPath: string | null = null;
  if (!external) {
    if (!config.generator || !config.embedder) throw new InvalidInputError('the groundcheck target needs options generator and embedder', { code: 'invalid_option' });
    indexPath = config.indexPath ?? join(cwd, '.groundcheck', `eval-${suite.name}-${slug(config.embedder.fingerprint)}.db`);
    groundcheck = await openGroundcheckTarget({
      suite,
      questionSet,
      embedder: config.embedder,
      indexPath,
      ownsIndex: config.indexPath === undefined,
      settings,
      now,
      ...(refusalSentence ? { refusalSentence } : {}),
      ...(suite.domain !== null ? { domain: suite.domain } : {}),
    });
  } else if (config.pipeline && Object.keys(config.pipeline).length > 0) {
    throw new InvalidInputError(`option pipeline sets groundcheck's pipeline; target ${external.name} answers with its own settings`, { code: 'invalid_option' });
  }
  try {
    // One limiter over every model and target call of the run; the ledger sees only calls that reach a model.
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
    const generatorBase = groundcheck && prepare(config.generator!, 'generator');
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
    const tally: TargetTally = { calls: 0, failedCalls: 0, cacheHits: 0 };
    const answererFor = (run: number): Answerer =>
      groundcheck
        ? groundcheck.forRun(maybeCache(generatorBase!, config.generator!, config.cacheNamespace?.generator, run))
        : externalAnswerer({ target: external!, run, cache: config.cache ?? null, limiter, retry: retryOptions, tally, ...(refusalSentence ? { refusalSentence } : {}) });

    const questionLimiter = createLimiter(concurrency);
    const runSeeds = Array.from({ length: runs }, (_, run) => (seed + run) >>> 0);
    const summaries: RunSummary[] = [];
    let faithfulnessInfo = null as FaithfulnessJudge['info'] | null;
    let pairwiseInfo = null as PairwiseJudge['info'] | null;
    for (let run = 0; run < runs; run++) {
      const runStarted = performance.now();
      const answerer = answererFor(run);
      const judges = buildJudges(judgeConfig, judgeBase && maybeCache(judgeBase, judgeChat!, config.cacheNamespace?.judge, run), refusalSentence, suite.domain);
      faithfulnessInfo = judges.faithfulness.info;
      pairwiseInfo = judges.pairwise.info;
      progress.start(runs > 1 ? `run ${run + 1}/${runs}` : 'questions', questionSet.questions.length);
      const results: QuestionResult[] = await Promise.all(
        questionSet.questions.map((question) =>
          questionLimiter(async () => {
            const result = await evaluateQuestion(question, {
              answerer,
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
    if (failedQuestions > 0) warnings.push(`${failedQuestions} question run(s) failed (a ${external ? 'target' : 'model'} call failed after retries); they are left out of every rate`);
    if (judgeChat && config.generator && judgeChat.provider === config.generator.provider && judgeChat.modelId === config.generator.modelId && groundcheck) {
      warnings.push(`the judge (${judgeChat.provider}:${judgeChat.modelId}) is the generator's own model: expect self-preference bias (see METHODOLOGY.md)`);
    }
    if (external) warnings.push(...targetWarnings(external, summaries));
    if (summaries.some((summary) => summary.questions.some((question) => question.norag?.trace.models.chat === `local:${MEMORY_CHAT_MODEL_ID}`))) {
      warnings.push(
        `RAG-off answers come from ${MEMORY_CHAT_MODEL_ID}, a simulation: a hand-written stale memory (fixtures/memory: the handbook as of 2024 plus generic UK-employer facts), not a language model; RAG-off figures and the pairwise win rate measure RAG against that simulation`,
      );
    }
    const models = ledger.snapshot();
    const cacheStats = config.cache
      ? cached.reduce(
          (sum, model) => ({ hits: sum.hits + model.stats.hits, misses: sum.misses + model.stats.misses, writes: sum.writes + model.stats.writes }),
          // An external target's answers are cached too: a hit is an answer not asked for again.
          { hits: tally.cacheHits, misses: tally.calls + tally.failedCalls, writes: tally.calls },
        )
      : null;

    return {
      format: RESULTS_FORMAT_VERSION,
      target: external ? { kind: external.kind, name: external.name, norag: external.norag } : { kind: 'groundcheck', name: 'groundcheck', norag: true },
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
        generator: external ? null : `${config.generator!.provider}:${config.generator!.modelId}`,
        embedder: external ? null : config.embedder!.fingerprint,
        pipeline: external ? {} : settings,
        refusalSentence: refusalSentence ?? null,
        evidencePolicy: `RAG-on answers are judged against exactly their trace chunks (${external ? "the target's own chunks" : 'the pipeline\'s retrieved chunks'}; for a refusal by the relevance gate, the chunks the gate withheld${external ? ', when the target returns them' : ''}); RAG-off answers and pairwise comparisons against the same chunks plus the reference answer (answerable questions only)`,
      },
      versions: {
        groundcheck: packageVersion(),
        ragPrompt: external ? null : PROMPT_VERSION,
        faithfulnessJudge: faithfulnessInfo!,
        pairwiseJudge: pairwiseInfo!,
        node: process.version,
      },
      runs: summaries,
      aggregate,
      gates: gateResults,
      passed: gateResults.every((gate) => gate.passed) && failedQuestions === 0,
      usage: { models, totalCostUsd: totalCost(models), cache: cacheStats, retries, target: external ? { ...tally } : null },
      warnings,
    };
  } finally {
    groundcheck?.close();
  }
}

/** What a reader of an external target's results should know: no RAG-off mode, chunk ids that never match. */
function targetWarnings(target: EvalTarget, summaries: RunSummary[]): string[] {
  const warnings: string[] = [];
  if (!target.norag) warnings.push(`target ${target.name} has no RAG-off mode: no RAG-off answers and no pairwise comparison (gates on them fail as not measured)`);
  const answered = summaries.flatMap((summary) => summary.questions).filter((question) => question.status === 'ok' && !question.mustRefuse && question.retrievedChunkIds.length > 0);
  if (answered.length > 0 && answered.every((question) => !question.relevantChunkIds.some((id) => question.retrievedChunkIds.includes(id)))) {
    warnings.push(`no relevantChunkIds ever appeared among target ${target.name}'s chunks: retrieval metrics compare the questions' ids with the target's own chunk ids (e.g. ${answered[0]!.retrievedChunkIds[0]}), so check that they name the same chunks`);
  }
  return warnings;
}

function buildJudges(config: JudgeConfig, judgeChat: ChatModel | null, refusalSentence: string | undefined, domain: string | null): { faithfulness: FaithfulnessJudge; pairwise: PairwiseJudge } {
  const refusal = refusalSentence ? { refusalSentence } : {};
  if (config === 'heuristic') return { faithfulness: createHeuristicFaithfulnessJudge(refusal), pairwise: createHeuristicPairwiseJudge(refusal) };
  if ('heuristic' in config) return { faithfulness: createHeuristicFaithfulnessJudge({ ...refusal, ...config.heuristic }), pairwise: createHeuristicPairwiseJudge(refusal) };
  if ('faithfulness' in config) return { faithfulness: config.faithfulness, pairwise: config.pairwise };
  const options = { chat: judgeChat!, ...refusal, ...(config.maxAttempts !== undefined ? { maxAttempts: config.maxAttempts } : {}), ...(domain !== null ? { domain } : {}) };
  return { faithfulness: createLlmFaithfulnessJudge(options), pairwise: createLlmPairwiseJudge(options) };
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
