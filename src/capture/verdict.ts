import { outcomeRow, type JudgmentOutcome, type OutcomeTone } from '../contract/outcome.js';
import type { Capture, StoredJudgment } from './types.js';

/**
 * What a page shows for a capture: the outcome of its judgment from the contract's one outcome
 * table (`src/contract/outcome.ts`), or a state of the capture itself while there is none:
 * - `aborted`: the client hung up before the answer finished; what it received is stored, and it
 *   is never judged (a partial answer is not a complete one), whatever judgment there may be;
 * - `pending`: a judge will look at it (after the settle delay);
 * - `not_judged`: no live judge, or the capture was cut by the size caps.
 */
export type CaptureState = 'aborted' | 'pending' | 'not_judged';
export type CaptureVerdict = JudgmentOutcome | CaptureState;

export interface VerdictView {
  verdict: CaptureVerdict;
  /** The outcome's label (`Faithful`, `Hallucinated`…), as every page and report shows it. */
  label: string;
  /** One sentence for a person: the label, what it means, and how many claims were checked. */
  text: string;
  tone: OutcomeTone;
}

/** The capture states' words, in the order pages list them (after the outcome table's rows). */
export const CAPTURE_STATES: Readonly<Record<CaptureState, Omit<VerdictView, 'verdict'>>> = {
  aborted: { label: 'Aborted', text: 'Aborted: the client hung up before the answer finished; not judged', tone: 'neutral' },
  pending: { label: 'Pending', text: 'Checking the answer against its sources…', tone: 'neutral' },
  not_judged: { label: 'Not judged', text: 'Not checked by a judge (no live judge, or the capture hit the size caps)', tone: 'neutral' },
};

/**
 * The verdict of a capture given its judgment (of the judge that matters to the caller).
 *
 * @example
 * verdictOf(capture, judgment, true).verdict // 'correct' | 'hallucinated' | … | 'pending'
 */
export function verdictOf(capture: Pick<Capture, 'truncated' | 'aborted'>, judgment: StoredJudgment | null, judging: boolean): VerdictView {
  if (capture.aborted) return { verdict: 'aborted', ...CAPTURE_STATES.aborted };
  if (!judgment) {
    const state = judging && !capture.truncated ? 'pending' : 'not_judged';
    return { verdict: state, ...CAPTURE_STATES[state] };
  }
  const row = outcomeRow(judgment.status === 'ok' ? judgment.flags : null);
  const checked = judgment.counts.verified + judgment.counts.contradicted + judgment.counts.absent;
  const unsupported = judgment.counts.contradicted + judgment.counts.absent;
  const detail = row.outcome === 'hallucinated' ? ` (${unsupported} of ${plural(checked, 'claim')} not supported)` : checked > 0 && row.outcome !== 'judge_error' ? ` (${plural(checked, 'claim')} checked)` : '';
  return { verdict: row.outcome, label: row.label, text: `${row.label}: ${row.description}${detail}`, tone: row.tone };
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}
