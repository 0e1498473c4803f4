/**
 * Evals: run a suite of questions through the RAG pipeline with and without retrieval, judge
 * faithfulness and blind pairwise preference, aggregate metrics and gates, write reports.
 * METHODOLOGY.md ("Eval rules") defines every rate.
 */
export { runEval, packageVersion, type EvalConfig, type JudgeConfig } from './runner.js';
export { evaluateQuestion, referencePassageId, storeTrace, type QuestionContext } from './evaluate-question.js';
export { summarizeRun, summarizeFaithfulness, spreadAcrossRuns } from './summarize.js';
export { loadSuite, DEFAULT_CORPUS_DIR, DEFAULT_TOP_K, type EvalSuite, type LoadSuiteOptions } from './suite.js';
export { loadQuestionSet, parseQuestionSet, checkChunkIds, questionSchema, QUESTION_CATEGORIES, type EvalQuestion, type QuestionCategory, type QuestionSet } from './questions.js';
export { evaluateGates, mergeGates, parseGateConfig, parseGateExpression, GATE_METRICS, type Gate, type GateOperator, type GateResult } from './gates.js';
export { openLlmCache, withCache, cacheKey, DEFAULT_CACHE_PATH, type LlmCache, type CachedChatModel, type CacheStats, type OpenLlmCacheOptions, type WithCacheOptions } from './cache.js';
export { createLimiter, withLimiter, type Limiter } from './limiter.js';
export { withRetry, type RetryOptions } from './retry.js';
export { UsageLedger, totalCost, type ModelTotals } from './ledger.js';
export { createProgress, silentProgress, type Progress, type ProgressOptions, type ProgressStream } from './progress.js';
export { evalModelsFromEnv, type EvalEnv, type EvalModels, type EvalModelOptions } from './models.js';
export { writeReports, type ReportPaths } from './write-reports.js';
export { markdownSummary } from './report-markdown.js';
export { htmlReport } from './report-html.js';
export { spotCheck, claimTokens, containsVerbatim, readResults, formatSpotCheck, type SpotCheckItem, type SpotToken, type TokenKind } from './spotcheck.js';
export { RESULTS_FORMAT_VERSION } from './types.js';
export type * from './types.js';
