import type { Usage } from './messages.js';

/**
 * The judgment record: what every judge (heuristic or LLM, offline eval or live) produces, what
 * the capture store keeps, and what `/metrics`, the dashboard, the chat page and the eval reports
 * read. Judges fill it; scores and outcomes are derived from it in code (`outcome.ts`).
 */

export type ClaimVerdict = 'verified' | 'contradicted' | 'absent';

/** One atomic claim from an answer, with the judge's verdict against the evidence. */
export interface JudgedClaim {
  text: string;
  verdict: ClaimVerdict;
  /** The evidence passage that verifies or contradicts the claim; `null` for `absent`. */
  evidenceChunkId: string | null;
  /** Why, in a few words (which number or negation disagreed, which words were missing…). */
  note: string;
  /**
   * The words of the deciding passage the verdict rests on, verbatim (LLM judges: checked in code
   * against the passage). `null` for `absent`; absent on records made before judgment v2.
   */
  quote?: string | null;
}

/**
 * What one retrieved chunk holds for the question: `answers` (it states what the question asks),
 * `related` (same subject, not the answer) or `unrelated`.
 */
export type ContextVerdict = 'answers' | 'related' | 'unrelated';

/** The context verdict of one chunk, in prompt order. */
export interface JudgedContext {
  chunkId: string;
  verdict: ContextVerdict;
  note: string;
}

/**
 * Whether the answer addresses the question, asked explicitly: `answers`, `partial` (some of what
 * is asked), `off_topic` (about something else, however true) or `refusal` (set in code).
 */
export type AnswerRelevance = 'answers' | 'partial' | 'off_topic' | 'refusal';

/**
 * Refusal correctness, derived in code from the context verdicts:
 * - `correct_refusal`: refused, and no chunk answers (or the question asks for personal data);
 * - `over_refusal`: refused although a chunk answers;
 * - `should_have_refused`: answered although no chunk answers (or the question asks for personal data);
 * - `not_applicable`: answered, with a chunk that answers.
 */
export type RefusalVerdict = 'correct_refusal' | 'over_refusal' | 'should_have_refused' | 'not_applicable';

/** One claim of the reference answer, and whether the judged answer states it. */
export interface ReferenceClaim {
  text: string;
  stated: boolean;
  note: string;
}

/** Who judged: stored with every judgment so results from different judges are never mixed. */
export interface JudgeInfo {
  kind: 'heuristic' | 'llm' | 'mock';
  /** `heuristic` or `provider:model`. */
  model: string;
  /** Version of the judge prompt or heuristic; changes whenever judgments could change. */
  promptVersion: string;
}

export interface VerdictCounts {
  verified: number;
  contradicted: number;
  absent: number;
}

export interface FaithfulnessOk {
  status: 'ok';
  judge: JudgeInfo;
  claims: JudgedClaim[];
  /** Derived in code from the claims, never asked of the judge directly. */
  counts: VerdictCounts;
  /**
   * No contradicted claim (and, under the default policy, no absent claim), and at least one
   * checkable claim. `null` when the answer is a refusal or has no checkable claim.
   */
  faithful: boolean | null;
  /** At least one contradicted claim (or absent, under the default policy). */
  hallucinated: boolean;
  /** The answer is a refusal (exact sentence or a common paraphrase). */
  refused: boolean;
  /** The answer makes no checkable claim (and is not a refusal). */
  undetermined: boolean;
  /** One verdict per evidence chunk (reference passages excluded), in prompt order. */
  contexts: JudgedContext[];
  /** Some chunk `answers` the question (derived from `contexts`). */
  contextSufficient: boolean;
  /** Some chunk `answers` or is `related` (derived from `contexts`). */
  evidenceRelevant: boolean;
  /**
   * The judge was given no chunk at all (derived from `contexts`): the generator saw nothing, so an
   * answer rests on nothing. Absent from judgments stored before 2026-12-07 (read as unknown).
   */
  noEvidence?: boolean;
  /**
   * The answer makes checkable claims and no chunk verifies or contradicts any of them (every claim
   * `absent`): nothing retrieved bears on what it says. Absent from judgments stored before
   * 2026-12-07 evening (read as unknown).
   */
  restsOnNothing?: boolean;
  /**
   * Rank-weighted context precision over the chunks: the mean, over the ranks k holding an
   * `answers` chunk, of the share of `answers` chunks in the top k. `null` with no chunk.
   */
  contextPrecision: number | null;
  /** Ids of `answers` chunks that no verified or contradicted claim rests on (all of them for a refusal). */
  ignoredChunks: string[];
  /** Whether the answer addresses the question (`refusal` for a refusal, set in code). */
  answerRelevance: AnswerRelevance;
  /** The question asks for someone's personal or confidential data (told by the caller, or judged). */
  personalData: boolean;
  /** Derived in code from `refused`, `contextSufficient` and `personalData`. */
  refusalVerdict: RefusalVerdict;
  /** `true` correct refusal, `false` over-refusal or should have refused, `null` not applicable. */
  refusalCorrect: boolean | null;
  /** The reference answer's claims (offline evals); `null` without a reference or for a refusal. */
  referenceClaims: ReferenceClaim[] | null;
  /** Share of `referenceClaims` the answer states; `null` without them. */
  referenceRecall: number | null;
  usage: Usage;
  costUsd: number | null;
  durationMs: number;
}

/**
 * The judge could not produce a usable verdict (unparseable reply after retries, API failure).
 * Counted and reported on its own; excluded from rates; never a pass, never a zero.
 */
export interface JudgeFailure {
  status: 'error';
  judge: JudgeInfo;
  error: string;
  /** The last raw reply, when there was one. */
  rawReply: string | null;
  attempts: number;
  /** True when the failure was an authentication or billing problem (live workers pause on it). */
  authError: boolean;
  usage: Usage;
  costUsd: number | null;
  durationMs: number;
}

export type FaithfulnessJudgment = FaithfulnessOk | JudgeFailure;

/** The explicit questions the pairwise judge answers for each side. */
export interface PairwiseCriteria {
  /**
   * Answers the question correctly: the side's faithfulness outcome is `correct`, or
   * `correct_refusal` (a refusal where refusing is right). Taken from the verdicts, not asked.
   */
  answersCorrectly: boolean;
  /** Points to the right policy and section. */
  citesRightSource: boolean;
  /** States every condition and exception the evidence attaches. */
  statesConditions: boolean;
  /** No fabrication: taken from the side's claim verdicts, not asked as a bare yes/no. */
  noFabrication: boolean;
}

export interface PairwiseOk {
  status: 'ok';
  judge: JudgeInfo;
  a: PairwiseCriteria;
  b: PairwiseCriteria;
  winner: 'A' | 'B' | 'tie';
  reason: string;
  usage: Usage;
  costUsd: number | null;
  durationMs: number;
}

export type PairwiseJudgment = PairwiseOk | JudgeFailure;


/**
 * The flags of an ok judgment that decide its outcome (see `outcome.ts`); stored with every
 * judgment the capture store keeps, as JSON. Flags stored before judgment v2 lack the fields
 * after `undetermined`; the outcome table reads them as unknown.
 */
export type JudgmentFlags = Pick<FaithfulnessOk, 'faithful' | 'hallucinated' | 'refused' | 'undetermined'> &
  Partial<Pick<FaithfulnessOk, 'evidenceRelevant' | 'contextSufficient' | 'answerRelevance' | 'personalData' | 'refusalVerdict' | 'refusalCorrect' | 'referenceRecall' | 'noEvidence' | 'restsOnNothing'>>;

/** The flag names {@link JudgmentFlags} holds, in order: what `flagsOf` copies from a judgment. */
export const JUDGMENT_FLAG_NAMES = [
  'faithful',
  'hallucinated',
  'refused',
  'undetermined',
  'evidenceRelevant',
  'contextSufficient',
  'answerRelevance',
  'personalData',
  'refusalVerdict',
  'refusalCorrect',
  'referenceRecall',
  'noEvidence',
  'restsOnNothing',
] as const satisfies readonly (keyof JudgmentFlags)[];

/** The string that identifies a judge in stored judgments: `kind:model:promptVersion`. */
export function judgeVersionOf(info: JudgeInfo): string {
  return `${info.kind}:${info.model}:${info.promptVersion}`;
}

/**
 * The judge of a version string from {@link judgeVersionOf}, or `null` when it has fewer than three
 * parts or an unknown kind. The kind and the prompt version never hold a colon; the model may
 * (`llm:openai:gpt-4o-mini:faithfulness-v3`).
 */
export function parseJudgeVersion(version: string): JudgeInfo | null {
  const first = version.indexOf(':');
  const last = version.lastIndexOf(':');
  if (first <= 0 || last === first || last === version.length - 1) return null;
  const kind = version.slice(0, first);
  if (kind !== 'heuristic' && kind !== 'llm' && kind !== 'mock') return null;
  return { kind, model: version.slice(first + 1, last), promptVersion: version.slice(last + 1) };
}
