import { InvalidInputError } from '../errors.js';
import { createHeuristicFaithfulnessJudge, createLlmFaithfulnessJudge } from '../judge/index.js';
import { judgeChatFromEnv, type JudgeEnv } from '../providers/config.js';
import type { FaithfulnessJudge } from '../judge/types.js';

export type LiveJudgeKind = 'heuristic' | 'llm';

/**
 * The live judge from the environment, built with the same factories and the same judge settings
 * as the evals (`GROUNDCHECK_JUDGE_MODEL`, `GROUNDCHECK_JUDGE_BASE_URL`, `GROUNDCHECK_JUDGE_API_KEY`,
 * falling back to `GROUNDCHECK_CHAT_MODEL`, `OPENAI_BASE_URL`, `OPENAI_API_KEY`).
 * Default: the LLM judge when a key is set, else the offline heuristic judge.
 *
 * @example
 * const { judge, description } = liveJudgeFromEnv(process.env);
 */
export function liveJudgeFromEnv(env: JudgeEnv, kind?: LiveJudgeKind): { judge: FaithfulnessJudge; description: string } {
  const chosen = kind ?? (env.GROUNDCHECK_JUDGE_API_KEY || env.OPENAI_API_KEY ? 'llm' : 'heuristic');
  if (chosen !== 'heuristic' && chosen !== 'llm') {
    throw new InvalidInputError(`judge kind ${String(chosen)} is invalid: use heuristic or llm`, { code: 'invalid_config' });
  }
  if (chosen === 'heuristic') {
    const judge = createHeuristicFaithfulnessJudge();
    return { judge, description: `heuristic (offline, ${judge.info.promptVersion})` };
  }
  // The SDK does not retry: the worker retries a failed judgment itself, with backoff.
  const { chat } = judgeChatFromEnv(env, { maxRetries: 0 });
  const judge = createLlmFaithfulnessJudge({ chat });
  return { judge, description: `llm ${judge.info.model} (${judge.info.promptVersion})` };
}
