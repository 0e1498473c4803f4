/**
 * groundcheck: grounded answers from your documents, and proof that they stay grounded.
 * Layers point down: errors and the contract (shapes and text formats every layer agrees on) →
 * text utilities → providers → rag → judge and metrics → eval and capture; the CLI and the demo
 * app compose them.
 */
export * from './errors.js';
export * from './contract/index.js';
export type * from './providers/spec.js';
export { EMPTY_USAGE } from './providers/spec.js';
export { streamChat, streamFromGenerate, splitPieces } from './providers/stream.js';
export { createOpenAI, detectEmbeddingDimensions, type OpenAIProvider, type OpenAIProviderSettings, type OpenAIChatSettings, type OpenAIEmbeddingSettings } from './providers/openai.js';
export { createLocalEmbedder, LocalEmbedder, type LocalEmbedderOptions } from './providers/local/embedder.js';
export { createLocalChatModel, type LocalChatModelOptions } from './providers/local/generator.js';
export { createMemoryChatModel, MEMORY_CHAT_MODEL_ID, type MemoryChatModelOptions } from './providers/local/memory-model.js';
export { loadMemorySnapshot, DEFAULT_MEMORY_DIR } from './providers/local/memory-snapshot.js';
export {
  loadSentenceEncoder,
  sentenceEncoderFingerprint,
  cosineSimilarity,
  SENTENCE_ENCODER_MODEL_ID,
  type SentenceEncoder,
  type SentenceEmbedOptions,
  type RankedText,
  type LongTextMode,
} from './providers/local/sentence-encoder.js';
export {
  createSentenceEncoderEmbedder,
  SentenceEncoderEmbedder,
  SENTENCE_ENCODER_MIN_SIMILARITY,
  type SentenceEncoderEmbedderOptions,
} from './providers/local/sentence-embedder.js';
export { modelsFromEnv, openaiFromEnv, embedProviderName, type GroundcheckEnv, type ModelSelection, type EmbedProviderName } from './providers/config.js';
export { extractJsonObject, type JsonExtraction } from './providers/json.js';
export { PRICES, priceOf, costOf, type ModelPrice } from './providers/prices.js';
export { openIndex, GroundcheckIndex, SCHEMA_VERSION, type OpenIndexOptions, type StoredChunk, type StoredDocument, type StoredPage, type PageSource } from './rag/store.js';
export { ingestDirectory, formatIngestSummary, type IngestOptions, type IngestSummary } from './rag/ingest.js';
export { watchDirectory, type WatchOptions, type DirectoryWatcher } from './rag/watch.js';
export {
  ingestSite,
  formatSiteIngestSummary,
  crawlSite,
  extractHtml,
  CrawlError,
  DEFAULT_USER_AGENT,
  ROBOTS_TOKEN,
  type SiteIngestOptions,
  type SiteIngestSummary,
  type SitePageEvent,
  type CrawlOptions,
  type CrawlEvent,
  type CrawlClock,
  type ExtractedPage,
} from './crawl/index.js';
export { parseDocument, chunkDocument, slugify, type Chunk, type ChunkOptions, type ParsedDocument } from './rag/chunk.js';
export { retrieve, buildMatchQuery, validateQuery, orderByEdges, MAX_QUERY_LENGTH, DEFAULT_TOP_K, type RetrieveOptions, type RetrievalResult } from './rag/retrieve.js';
export { checkTermCoverage, type MeaningMatcher, type TermCoverageOptions } from './rag/term-coverage.js';
export { type OutdatedNoteOptions } from './rag/outdated-note.js';
export { createRagPipeline, type RagPipeline, type RagPipelineOptions, type AskOptions } from './rag/pipeline.js';
export { buildMessages, groundedSystemPrompt, closedBookSystemPrompt, promptDocuments, PROMPT_VERSION, type PromptOptions } from './rag/prompt.js';
export { toAnswerPayload, type AnswerPayload, type AnswerPayloadOptions, type AnswerSource } from './rag/sources.js';
export * from './capture/index.js';
export {
  runEval,
  loadSuite,
  loadQuestionSet,
  parseQuestionSet,
  checkChunkIds,
  evaluateGates,
  parseGateExpression,
  parseGateConfig,
  mergeGates,
  GATE_METRICS,
  openLlmCache,
  withCache,
  withRetry,
  createLimiter,
  withLimiter,
  UsageLedger,
  evalModelsFromEnv,
  writeReports,
  markdownSummary,
  htmlReport,
  spotCheck,
  readResults,
  QUESTION_CATEGORIES,
  junitReport,
  questionChecks,
  isCorrectAnswer,
  runSweep,
  writeSweepReports,
  PIPELINE_SETTINGS,
  createHttpTarget,
  loadModuleTarget,
  parseTargetField,
  type EvalTarget,
  type TargetCallOptions,
  type TargetSpec,
  type HttpTargetSpec,
  type ModuleTargetSpec,
  type QuestionCheck,
  type PipelineSettings,
  type SweepConfig,
  type SweepPoint,
  type SweepResults,
  type EvalConfig,
  type JudgeConfig,
  type EvalSuite,
  type EvalQuestion,
  type EvalResults,
  type RunSummary,
  type QuestionResult,
  type Gate,
  type GateResult,
  type LlmCache,
  type CachedChatModel,
  type RetryOptions,
  type Limiter,
  type ModelTotals,
  type SpotCheckItem,
} from './eval/index.js';
export type * from './judge/types.js';
export {
  createHeuristicFaithfulnessJudge,
  createLlmFaithfulnessJudge,
  evidenceFromTrace,
  judgeTrace,
  deriveFaithfulness,
  resolvePolicy,
  splitAnswer,
  buildFaithfulnessMessages,
  DEFAULT_FAITHFULNESS_POLICY,
  HEURISTIC_JUDGE_VERSION,
  FAITHFULNESS_PROMPT_VERSION,
  FAITHFULNESS_REPLY_SCHEMA,
  ENCODER_THRESHOLDS,
  DEFAULT_PARAPHRASE_MODEL,
  PARAPHRASE_FEATURES,
  contextPrecision,
  quoteInPassage,
  type JudgeFindings,
  type HeuristicFaithfulnessJudgeOptions,
  type ParaphraseModel,
  type LlmFaithfulnessJudgeOptions,
  type DerivedFaithfulness,
  type Citation,
  type SplitAnswer,
} from './judge/index.js';
export * from './judge/pairwise.js';
export {
  bootstrapMeanCi,
  quantile,
  recallAtK,
  precisionAtK,
  hitAtK,
  reciprocalRank,
  ndcgAtK,
  retrievalScores,
  aggregateRetrieval,
  refusalRate,
  falseRefusalRate,
  keywordHit,
  keywordHits,
  normalizeForMatch,
  contentWordOverlap,
  unsupportedWords,
  verbosity,
  type BootstrapOptions,
  type ConfidenceInterval,
  type Rate,
  type RefusalItem,
  type KeywordResult,
  type Relevance,
  type RetrievalAggregate,
  type RetrievalItem,
  type RetrievalReport,
  type RetrievalScores,
} from './metrics/index.js';
export * from './explain/index.js';
export {
  DEFAULT_EXPLANATION_WEIGHTS,
  explanationWinner,
  explanationScore,
  statesCodeSpecifics,
  type ExplanationCriteria,
  type ExplanationReference,
  type ExplanationPairwiseOk,
  type ExplanationWeights,
} from './judge/explanation-criteria.js';
export { createCodeClaimsJudge, requireClaimsForCodeSpecifics, CODE_CLAIMS_JUDGE_VERSION } from './judge/code-claims.js';
export { createHeuristicExplanationJudge, HEURISTIC_EXPLANATION_VERSION, type HeuristicExplanationJudgeOptions } from './judge/explanation-heuristic.js';
export { createLlmExplanationJudge, LLM_EXPLANATION_PROMPT_VERSION, type LlmExplanationJudgeOptions } from './judge/explanation-llm.js';
export { runExplainEval, type ExplainEvalConfig, type ExplainEvalResults, type FailureResult } from './eval/explain-runner.js';
export { loadExplainSuite, EXPLAIN_GATE_METRICS, type ExplainSuite, type ExplainFailure } from './eval/explain-suite.js';
export { writeExplainReports, explainMarkdown } from './eval/explain-report.js';
