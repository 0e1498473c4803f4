import { JUDGMENT_FLAG_NAMES, type FaithfulnessJudgment, type JudgmentFlags } from './judgment.js';

/**
 * The one table that decides what a judgment counts as. `/metrics`, the dashboard, the chat
 * page's verdict and the eval reports all call {@link outcomeOf}; none keeps an `if` ladder of its
 * own, so they can never classify the same judgment differently.
 */

export type JudgmentOutcome =
  | 'judge_error'
  | 'correct_refusal'
  | 'over_refusal'
  | 'should_have_refused'
  | 'off_topic'
  | 'hallucinated'
  | 'incomplete'
  | 'correct'
  | 'undetermined';

export type OutcomeTone = 'pass' | 'fail' | 'warn' | 'neutral';

/** One row of the outcome table. */
export interface OutcomeRow {
  outcome: JudgmentOutcome;
  /** What a person reads (chat page, dashboard, reports). */
  label: string;
  /** Whether the outcome is a pass (`null`: neither, e.g. a judge error or nothing checkable). */
  pass: boolean | null;
  /** How a page colours it: `pass` green, `fail` red, `warn` amber, `neutral` grey. */
  tone: OutcomeTone;
  /** When it applies, in words (README, reports). */
  description: string;
  /** Whether the row applies to an ok judgment's flags; a judge error never reaches the rows. */
  applies(flags: JudgmentFlags): boolean;
}

/**
 * An answer that states less than this share of the reference answer's claims is `incomplete`
 * (offline evals, where a reference exists). [0.34]
 */
export const COMPLETE_REFERENCE_RECALL = 0.34;

/** Whether the answer is short of what the question asks: judged `partial`, or low reference recall. */
function incomplete(flags: JudgmentFlags): boolean {
  if (flags.answerRelevance === 'partial') return true;
  return typeof flags.referenceRecall === 'number' && flags.referenceRecall < COMPLETE_REFERENCE_RECALL;
}

/**
 * An off-topic answer with an unsupported claim, where no source answers, that made up what it
 * should have refused: `should_have_refused`, not `hallucinated`, when one of these tells so.
 * - The judge knew the reference answer (2026-12-05; METHODOLOGY.md, "Outcome table: invented
 *   off-topic answers"). Without one, "no source answers" rests on the question's words alone, and
 *   read unconditionally the rule turned the live judge's contradicted answers into
 *   `should_have_refused` whenever it missed the chunk that answers.
 * - The question asks for someone's personal or confidential data (2026-12-07): "What was wrong
 *   with him?" answered "He was off with a back injury"; the relevance reading calls an invented
 *   diagnosis the sources never mention off topic. A faithful quote of an unrelated rule stays
 *   `off_topic`.
 * - No claim meets any source (`restsOnNothing`: every claim `absent`, none verified, none
 *   contradicted; 2026-12-07 evening, live too; "Outcome table: answers that rest on nothing"):
 *   "free parking?" answered with a parking rule no retrieved sentence states. An answer with a
 *   contradicted claim met a source that says otherwise and stays `hallucinated` (where the live
 *   judge missed the chunk that answers, a wrong answer is usually contradicted by it).
 */
function inventedWhereRefusingWasRight(flags: JudgmentFlags): boolean {
  return flags.hallucinated && (typeof flags.referenceRecall === 'number' || flags.personalData === true || flags.restsOnNothing === true);
}

/**
 * The rows, first match wins. A judge error is its own outcome, decided before any row: never a
 * pass, never a zero. The order says what matters most:
 * - a refusal is judged as a refusal (right or wrong to refuse), unless it slips in an unsupported
 *   claim, which makes it `hallucinated`;
 * - an on-topic answer where refusing was right (no chunk answers, or personal data was asked for)
 *   is `should_have_refused`, whatever its claims, and so is an off-topic one with an unsupported
 *   claim when the judge knew the reference answer, the question asks for personal data, or no
 *   claim of it meets any source (every one absent), and any answer when there was no chunk at all
 *   (nothing to rest on: whether it is on topic does not matter);
 * - an answer with a contradicted or unsupported claim is `hallucinated`, on topic or not;
 * - a faithful answer that does not address the question is `off_topic`, so a faithful non-answer
 *   never shows as a pass;
 * - then completeness (`incomplete`), and `correct`.
 * Rows are plain objects on purpose: a test changes one and sees every reader change with it.
 */
export const OUTCOME_TABLE: OutcomeRow[] = [
  {
    outcome: 'correct_refusal',
    tone: 'pass',
    label: 'Correct refusal',
    pass: true,
    description: 'refused, and refusing was right: no source holds the answer, or the question asks for personal or confidential data',
    applies: (flags) => flags.refused && !flags.hallucinated && flags.refusalVerdict === 'correct_refusal',
  },
  {
    outcome: 'over_refusal',
    tone: 'fail',
    label: 'Over-refusal',
    pass: false,
    description: 'refused although a source holds the answer',
    applies: (flags) => flags.refused && !flags.hallucinated && flags.refusalVerdict === 'over_refusal',
  },
  {
    outcome: 'should_have_refused',
    tone: 'fail',
    label: 'Should have refused',
    pass: false,
    description: 'answered although no source holds the answer, or although the question asks for personal or confidential data',
    applies: (flags) => !flags.refused && flags.refusalVerdict === 'should_have_refused' && (flags.answerRelevance !== 'off_topic' || inventedWhereRefusingWasRight(flags) || flags.noEvidence === true),
  },
  {
    outcome: 'hallucinated',
    tone: 'fail',
    label: 'Hallucinated',
    pass: false,
    description: 'at least one claim contradicted by the sources, or absent from them',
    applies: (flags) => flags.hallucinated,
  },
  {
    outcome: 'off_topic',
    tone: 'fail',
    label: 'Off topic',
    pass: false,
    description: 'the answer does not address the question, however true its claims',
    applies: (flags) => !flags.refused && flags.answerRelevance === 'off_topic',
  },
  {
    outcome: 'incomplete',
    tone: 'warn',
    label: 'Incomplete',
    pass: false,
    description: 'faithful, but answers only part of the question or leaves out most of the reference answer',
    applies: (flags) => !flags.refused && flags.faithful === true && incomplete(flags),
  },
  {
    outcome: 'correct',
    tone: 'pass',
    label: 'Correct',
    pass: true,
    description: 'answers the question, and every checkable claim is verified by the sources',
    applies: (flags) => !flags.refused && flags.faithful === true && flags.answerRelevance === 'answers',
  },
  {
    outcome: 'undetermined',
    tone: 'neutral',
    label: 'Undetermined',
    pass: null,
    description: 'nothing to decide on: no checkable claim, or a judgment made before these verdicts existed',
    applies: () => true,
  },
];

/** The judge-error outcome's row (it has no predicate: a failed judgment has no flags). */
export const JUDGE_ERROR_ROW: Omit<OutcomeRow, 'applies'> = Object.freeze({
  outcome: 'judge_error',
  tone: 'warn',
  label: 'Judge error',
  pass: null,
  description: 'the judge failed (unusable reply or API error after retries); counted on its own',
});

/** Every outcome, in table order with `judge_error` first: for zero-initialised counters and legends. */
export function outcomeNames(): JudgmentOutcome[] {
  return [JUDGE_ERROR_ROW.outcome, ...OUTCOME_TABLE.map((row) => row.outcome)];
}

/**
 * The row for a judgment's flags (`null`: the judge failed).
 *
 * @example
 * outcomeRow(null).outcome // 'judge_error'
 */
export function outcomeRow(flags: JudgmentFlags | null): Omit<OutcomeRow, 'applies'> {
  if (flags === null) return JUDGE_ERROR_ROW;
  const row = OUTCOME_TABLE.find((candidate) => candidate.applies(flags));
  return row ?? OUTCOME_TABLE[OUTCOME_TABLE.length - 1]!;
}

/** The outcome of a judgment's flags (`null`: the judge failed). */
export function outcomeOf(flags: JudgmentFlags | null): JudgmentOutcome {
  return outcomeRow(flags).outcome;
}

/** The flags of a judge's result, `null` for a failure: what {@link outcomeOf} reads. */
export function flagsOf(judgment: FaithfulnessJudgment): JudgmentFlags | null {
  if (judgment.status === 'error') return null;
  const flags: Record<string, unknown> = {};
  for (const name of JUDGMENT_FLAG_NAMES) flags[name] = judgment[name];
  return flags as unknown as JudgmentFlags;
}
