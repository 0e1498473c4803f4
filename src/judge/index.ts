/**
 * Judges: claim-level faithfulness (heuristic offline, or an LLM) and, alongside, pairwise
 * comparison. Scores are computed in code from claim verdicts (`deriveFaithfulness`), never asked
 * of a judge.
 */
export * from './types.js';
export { createHeuristicFaithfulnessJudge, HEURISTIC_JUDGE_VERSION, type HeuristicFaithfulnessJudgeOptions } from './heuristic-judge.js';
export { ENCODER_THRESHOLDS, type SentenceEncoder } from './heuristic-encoder.js';
export { DEFAULT_PARAPHRASE_MODEL, PARAPHRASE_FEATURES, type ParaphraseModel } from './heuristic-paraphrase.js';
export { createLlmFaithfulnessJudge, type LlmFaithfulnessJudgeOptions } from './llm-judge.js';
export { FAITHFULNESS_PROMPT_VERSION, buildFaithfulnessMessages, FAITHFULNESS_REPLY_SCHEMA } from './llm-prompt.js';
export { evidenceFromTrace, parsePassage, type ParsedPassage } from './evidence.js';
export { judgeTrace } from './faithfulness-trace.js';
export { contextPrecision, deriveFaithfulness, resolvePolicy, DEFAULT_FAITHFULNESS_POLICY, type DerivedFaithfulness, type JudgeFindings } from './faithfulness-score.js';
export { quoteInPassage } from './quote-check.js';
export { splitAnswer, type Citation, type SplitAnswer } from './claims.js';
