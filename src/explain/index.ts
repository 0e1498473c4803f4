/**
 * explainErrors: a development error handler that explains unhandled errors with RAG over the
 * app's own source, and the pieces it is built from (stack reading and trimming, source maps, the
 * source index, the offline explainer). Every explanation is a `RagTrace`.
 */
export { explainErrors, type ExplainErrorsMiddleware, type ExplainErrorsOptions } from './middleware.js';
export { explainError, statusOf, type Explanation, type ExplainerSettings, type ExplainCallOptions } from './explain.js';
export { parseStack, classifyFrame, relativizeHeader, type StackFrame, type ParsedStack } from './frames.js';
export { truncateFrames, collapseRepeats, type TruncationStrategy, type TruncateOptions } from './truncate.js';
export { createSourceMapResolver, type SourceMapResolver, type SourceMapResolverOptions } from './source-maps.js';
export { redactSecrets, SECRET_MARK } from './redact-secrets.js';
export { sourceUnits, unitAt, type SourceUnit, type UnitKind, type ParsedSource } from './source-units.js';
export { chunkSourceFile, SOURCE_CHUNK_VERSION, type SourceChunk, type SourceChunkOptions } from './source-chunks.js';
export { listSourceFiles, EXCLUDED_FOLDERS, SOURCE_EXTENSIONS, type SourceFile } from './source-files.js';
export { indexSource, type IndexSourceOptions } from './source-index.js';
export { retrieveSource, explainQuery, type SourceRetrievalOptions } from './retrieve-source.js';
export { buildExplainMessages, explainSystemPrompt, EXPLAIN_PROMPT_VERSION, type FailedRequest } from './prompt.js';
export { createLocalExplainer, LOCAL_EXPLAINER_ID, BASELINE_NOTE } from './local-explainer.js';
export { renderMarkdown, escapeHtml } from './markdown.js';
export { ERROR_PAGE_CSP, explanationJson, renderExplanationHtml, renderExplanationText, type ExplanationPayload } from './render.js';
