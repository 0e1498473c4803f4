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
export { junitReport } from './report-junit.js';
export { openResultsFolder, offlineRunOf, type ResultsFolder, type OfflineRun, type SkippedResultsFile } from './results-folder.js';
export { questionChecks, isCorrectAnswer, correctAnswerRate, type QuestionCheck, type CheckName } from './question-checks.js';
export { PIPELINE_SETTINGS, checkPipelineSetting, checkPipelineSettings, pipelineOptions, type PipelineSettings, type PipelineSettingName } from './pipeline-settings.js';
export { runSweep, parseSweepFlag, markPareto, sweepPoint, SWEEP_FORMAT_VERSION, type SweepConfig, type SweepPoint, type SweepResults } from './sweep.js';
export { writeSweepReports, sweepHtml, sweepMarkdown, sweepPlot } from './report-sweep.js';
export { createHttpTarget, readPath, fillTemplate, type HttpTargetOptions } from './targets/http-target.js';
export { loadModuleTarget } from './targets/module-target.js';
export { parseTargetField, overrideTarget, describeTargetSpec, DEFAULT_HTTP_BODY, DEFAULT_RESPONSE_MAPPING } from './targets/target-spec.js';
export type { EvalTarget, TargetCallOptions, TargetSpec, HttpTargetSpec, ModuleTargetSpec, GroundcheckTargetSpec, ResponseMapping } from './targets/types.js';
export { RESULTS_FORMAT_VERSION } from './types.js';
export type * from './types.js';
