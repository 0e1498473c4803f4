import type { FaithfulnessJudgment, JudgmentFlags } from './judgment.js';

/**
 * The one table that decides what a judgment counts as. `/metrics`, the dashboard, the chat
 * page's verdict and the eval reports all call {@link outcomeOf}; none keeps an `if` ladder of its
 * own, so they can never classify the same judgment differently.
 */

export type JudgmentOutcome = 'judge_error' | 'correct_refusal' | 'hallucinated' | 'refused' | 'faithful' | 'undetermined';

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
 * The rows, first match wins. A judge error is its own outcome, decided before any row: never a
 * pass, never a zero. A refusal that still slips in an unsupported claim is `hallucinated`.
 * Rows are plain objects on purpose: a test changes one and sees every reader change with it.
 */
export const OUTCOME_TABLE: OutcomeRow[] = [
  {
    outcome: 'correct_refusal',
    tone: 'pass',
    label: 'Correct refusal',
    pass: true,
    description: 'nothing relevant in the sources, and the answer refused without asserting anything',
    applies: (flags) => flags.refused && flags.correctlyRefused === true,
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
    outcome: 'refused',
    tone: 'warn',
    label: 'Refused',
    pass: false,
    description: 'the answer refused although the sources seemed relevant',
    applies: (flags) => flags.refused,
  },
  {
    outcome: 'faithful',
    tone: 'pass',
    label: 'Faithful',
    pass: true,
    description: 'every checkable claim verified by the sources',
    applies: (flags) => flags.faithful === true,
  },
  {
    outcome: 'undetermined',
    tone: 'neutral',
    label: 'Undetermined',
    pass: null,
    description: 'the answer made no checkable claim',
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
  const { faithful, hallucinated, refused, evidenceRelevant, correctlyRefused, undetermined } = judgment;
  return { faithful, hallucinated, refused, evidenceRelevant, correctlyRefused, undetermined };
}
