/**
 * The live judge's kinds, in a module of their own so the CLI can check `--judge` before it loads
 * any judge: `heuristic`, the heuristic judge with the sentence encoder, or the LLM judge.
 */
export const LIVE_JUDGE_KINDS = ['heuristic', 'heuristic-encoder', 'llm'] as const;

/** The kinds as an error message names them: "heuristic, heuristic-encoder or llm". */
export const LIVE_JUDGE_KINDS_IN_WORDS = `${LIVE_JUDGE_KINDS.slice(0, -1).join(', ')} or ${LIVE_JUDGE_KINDS.at(-1)}`;

export type LiveJudgeKind = (typeof LIVE_JUDGE_KINDS)[number];

export function isLiveJudgeKind(value: unknown): value is LiveJudgeKind {
  return (LIVE_JUDGE_KINDS as readonly unknown[]).includes(value);
}
