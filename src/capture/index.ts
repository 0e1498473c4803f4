/**
 * Capture: Express middleware that records each answered question's trace, the capture store
 * (the `CaptureStore` interface and its SQLite implementation, a file separate from the index),
 * the live judge worker, drift checks and Prometheus metrics.
 */
export type { RagRequestContext } from './express-request.js';
export { captureRag, type CaptureRagOptions, type CaptureRagMiddleware, type CaptureHealth, type CaptureLogLevel } from './middleware.js';
export { CaptureStoreUnavailableError, isRetryableStoreError, STORE_HEALTH_REASONS, STORE_OK, type StoreHealth, type StoreHealthReason } from './store-health.js';
export { requestIdFor, SAFE_REQUEST_ID } from './request-id.js';
export { ragChatHandler, parseChatBody, type RagChatHandlerOptions } from './route.js';
export { streamRagAnswer, type StreamRagAnswerOptions, type RagAnswerStream, type StreamedRecord } from './stream.js';
export { HttpError, HTTP_ERROR_TYPES, groundcheckErrorHandler, routeNotFound, describeHttpError, type HttpErrorType, type HttpErrorBody, type ErrorHandlerOptions } from './errors.js';
export {
  openCaptureStore,
  openSqliteCaptureStore,
  connectCaptureStore,
  SqliteCaptureStore,
  CAPTURE_SCHEMA_VERSION,
  WRITER_THREAD_BY_DEFAULT,
  DEFAULT_CAPTURE_DB_PATH,
  PostgresCaptureStore,
  openPostgresCaptureStore,
  POSTGRES_CAPTURE_SCHEMA_VERSION,
  isPostgresUrl,
  type OpenCaptureStoreOptions,
  type OpenPostgresCaptureStoreOptions,
  type PostgresUrl,
} from './store.js';
export type {
  CaptureStore,
  CaptureLog,
  CaptureListing,
  JudgeQueue,
  DriftQueries,
  CaptureRecord,
  CaptureWithJudgment,
  ListedCapture,
  ListCapturesOptions,
  CaptureFilter,
  OutcomeCountsOptions,
  OutcomeBucket,
  ClaimOptions,
  EvidenceReference,
  ReclaimedLeases,
} from './capture-store.js';
export { OUTCOME_BUCKET_MS, MAX_OUTCOME_BUCKETS } from './capture-store.js';
export * from './dashboard/index.js';
export { liveJudgeFromEnv, loadLiveJudge, type LiveJudgeKind } from './judge-config.js';
export { createJudgeWorker, type JudgeWorker, type JudgeWorkerOptions, type JudgeWorkerStats } from './worker.js';
export { findDrift, chunkDrift, type DriftReport, type DriftedJudgment, type DriftedChunk } from './drift.js';
export { createCaptureMetrics, metricsHandler, type CaptureMetrics } from './metrics.js';
export * from './otel/index.js';
export { verdictOf, CAPTURE_STATES, type CaptureState, type CaptureVerdict, type VerdictView } from './verdict.js';
export { createLogger, httpLogger, scrubUrl, REDACTED_LOG_PATHS } from './logging.js';
export { createRedactor, redactText, redactPersonalData, REDACTION_MARKS, type Redactor, type RedactionKind } from './redact.js';
export { isSampled, samplePosition } from './sampling.js';
export { captureFromTrace, applyLimits, DEFAULT_CAPTURE_LIMITS, type CaptureLimits, type CaptureHttpFacts, type HttpFacts } from './to-capture.js';
export { judgeVersionOf, type Capture, type CapturedChunk, type CaptureSink, type StoredJudgment, type JudgmentFlags } from './types.js';
