/**
 * groundcheck: grounded answers from your documents, and proof that they stay grounded.
 * Layers point down: providers → rag → judge/metrics → eval/capture.
 */
export * from './errors.js';
export type * from './providers/spec.js';
export { EMPTY_USAGE } from './providers/spec.js';
export { createOpenAI, detectEmbeddingDimensions, type OpenAIProvider, type OpenAIProviderSettings, type OpenAIChatSettings, type OpenAIEmbeddingSettings } from './providers/openai.js';
export { createLocalEmbedder, LocalEmbedder, type LocalEmbedderOptions } from './providers/local/embedder.js';
export { createLocalChatModel, type LocalChatModelOptions } from './providers/local/generator.js';
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
export { openIndex, GroundcheckIndex, SCHEMA_VERSION, type OpenIndexOptions, type StoredChunk, type StoredDocument } from './rag/store.js';
export { ingestDirectory, formatIngestSummary, type IngestOptions, type IngestSummary } from './rag/ingest.js';
export { parseDocument, chunkDocument, slugify, type Chunk, type ChunkOptions, type ParsedDocument } from './rag/chunk.js';
export { retrieve, buildMatchQuery, validateQuery, orderByEdges, MAX_QUERY_LENGTH, type RetrieveOptions, type RetrievalResult } from './rag/retrieve.js';
export { createRagPipeline, type RagPipeline, type RagPipelineOptions, type AskOptions } from './rag/pipeline.js';
export { buildMessages, groundedSystemPrompt, closedBookSystemPrompt, promptDocuments, PROMPT_VERSION, type PromptOptions } from './rag/prompt.js';
export { REFUSAL_SENTENCE, isRefusal } from './contract/refusal.js';
export { toAnswerPayload, type AnswerPayload, type AnswerSource } from './rag/sources.js';
export type { RagTrace, RagMode, RetrievedChunk } from './contract/trace.js';
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
  type HeuristicFaithfulnessJudgeOptions,
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
