import { InvalidInputError } from '../errors.js';
import { createHeuristicFaithfulnessJudge, createLlmFaithfulnessJudge } from '../judge/index.js';
import { judgeChatFromEnv, type JudgeEnv } from '../providers/config.js';
import type { FaithfulnessJudge } from '../judge/types.js';
import type { SentenceEncoder } from '../judge/heuristic-encoder.js';

import { isLiveJudgeKind, LIVE_JUDGE_KINDS_IN_WORDS, type LiveJudgeKind } from './judge-kinds.js';

export type { LiveJudgeKind } from './judge-kinds.js';

/**
 * The live judge of a kind, loading what it needs: `heuristic-encoder` loads the offline sentence
 * encoder (USE-lite, about 1 s; the better live judge without an API key: METHODOLOGY.md, "The
 * optional sentence encoder"). Otherwise as {@link liveJudgeFromEnv}. The encoder computes on the
 * calling thread (tfjs wasm): give that judge to a worker in a process of its own (`groundcheck
 * judge-worker --judge heuristic-encoder`), not to one inside a serving app.
 *
 * @example
 * const { judge } = await loadLiveJudge(process.env, 'heuristic-encoder');
 */
export async function loadLiveJudge(env: JudgeEnv, kind?: LiveJudgeKind): Promise<{ judge: FaithfulnessJudge; description: string }> {
  if (kind !== 'heuristic-encoder') return liveJudgeFromEnv(env, kind);
  const { loadSentenceEncoder } = await import('../providers/local/sentence-encoder.js');
  return liveJudgeFromEnv(env, kind, { encoder: await loadSentenceEncoder() });
}

/**
 * The live judge from the environment, built with the same factories and the same judge settings
 * as the evals (`GROUNDCHECK_JUDGE_MODEL`, `GROUNDCHECK_JUDGE_BASE_URL`, `GROUNDCHECK_JUDGE_API_KEY`,
 * falling back to `GROUNDCHECK_CHAT_MODEL`, `OPENAI_BASE_URL`, `OPENAI_API_KEY`).
 * Default: the LLM judge when a key is set, else the offline heuristic judge. `heuristic-encoder`
 * (the heuristic judge with the sentence encoder) needs `options.encoder`, or {@link loadLiveJudge}.
 *
 * @example
 * const { judge, description } = liveJudgeFromEnv(process.env);
 */
export function liveJudgeFromEnv(env: JudgeEnv, kind?: LiveJudgeKind, options: { encoder?: SentenceEncoder } = {}): { judge: FaithfulnessJudge; description: string } {
  const chosen = kind ?? (env.GROUNDCHECK_JUDGE_API_KEY || env.OPENAI_API_KEY ? 'llm' : 'heuristic');
  if (!isLiveJudgeKind(chosen)) {
    throw new InvalidInputError(`judge kind ${String(chosen)} is invalid: use ${LIVE_JUDGE_KINDS_IN_WORDS}`, { code: 'invalid_config' });
  }
  if (chosen === 'heuristic-encoder' && options.encoder === undefined) {
    throw new InvalidInputError('judge kind heuristic-encoder needs the sentence encoder: use loadLiveJudge(), or pass { encoder: await loadSentenceEncoder() }', { code: 'invalid_config' });
  }
  if (chosen === 'heuristic' || chosen === 'heuristic-encoder') {
    const judge = createHeuristicFaithfulnessJudge(chosen === 'heuristic-encoder' ? { encoder: options.encoder! } : {});
    return { judge, description: `heuristic (offline, ${judge.info.promptVersion})` };
  }
  // The SDK does not retry: the worker retries a failed judgment itself, with backoff.
  const { chat } = judgeChatFromEnv(env, { maxRetries: 0 });
  const judge = createLlmFaithfulnessJudge({ chat });
  return { judge, description: `llm ${judge.info.model} (${judge.info.promptVersion})` };
}
