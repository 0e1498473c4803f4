/**
 * Blind pairwise judging of RAG-on against RAG-off answers: the judges (heuristic offline, LLM
 * with a key), the both-orders protocol and its summary. METHODOLOGY.md ("Pairwise").
 */
export { createHeuristicPairwiseJudge, HEURISTIC_PAIRWISE_VERSION, type HeuristicPairwiseJudgeOptions } from './pairwise-heuristic.js';
export {
  createLlmPairwiseJudge,
  formatPairwisePrompt,
  LLM_PAIRWISE_PROMPT_VERSION,
  PAIRWISE_RESPONSE_FORMAT,
  PAIRWISE_SYSTEM_PROMPT,
  type LlmPairwiseJudgeOptions,
  type LlmPairwiseOk,
} from './pairwise-llm.js';
export {
  CRITERIA_KEYS,
  DEFAULT_CRITERIA_WEIGHTS,
  criteriaScore,
  noFabrication,
  winnerByCriteria,
  type CriteriaWeights,
} from './pairwise-criteria.js';
export {
  judgePair,
  summarizePairwise,
  type JudgePairArgs,
  type PairwiseOrder,
  type PairwiseOutcome,
  type PairwiseSide,
  type PairwiseSides,
  type PairwiseSummary,
  type PairwiseTrialResult,
} from './pairwise-protocol.js';
export { scrubModeWords, type ScrubOptions } from './pairwise-scrub.js';
export { seededRng } from '../metrics/random.js';
