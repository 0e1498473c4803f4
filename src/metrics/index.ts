/**
 * Metrics: pure functions over chunk ids, answers and judgments. METHODOLOGY.md ("Metrics")
 * gives every formula.
 */
export { seededRng } from './random.js';
export { bootstrapMeanCi, quantile, type BootstrapOptions, type ConfidenceInterval } from './bootstrap.js';
export {
  DEFAULT_KS,
  aggregateRetrieval,
  hitAtK,
  ndcgAtK,
  precisionAtK,
  recallAtK,
  reciprocalRank,
  relevanceGrades,
  retrievalScores,
  topK,
  type Relevance,
  type RetrievalAggregate,
  type RetrievalItem,
  type RetrievalReport,
  type RetrievalScores,
} from './retrieval.js';
export { falseRefusalRate, refusalRate, type Rate, type RefusalItem } from './refusal.js';
export { contentWordOverlap, keywordHit, keywordHits, normalizeForMatch, unsupportedWords, verbosity, type KeywordResult } from './text.js';
