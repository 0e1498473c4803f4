import type { Capture, StoredJudgment } from '../src/capture/types.js';

/**
 * What the chat page and the dashboard show for a capture:
 * - `pending`: a judge will look at it (after the settle delay);
 * - `faithful`: every checkable claim verified;
 * - `hallucinated`: at least one claim contradicted or absent from the sources;
 * - `correctly_refused`: nothing relevant in the sources, and the answer said so;
 * - `refused`: the answer refused although the sources seemed relevant;
 * - `undetermined`: no checkable claim;
 * - `judge_error`: the judge failed (its own outcome, never a pass);
 * - `not_judged`: no live judge, or the capture was cut by the size caps.
 */
export type Verdict = 'pending' | 'faithful' | 'hallucinated' | 'correctly_refused' | 'refused' | 'undetermined' | 'judge_error' | 'not_judged';

export function verdictOf(capture: Capture, judgment: StoredJudgment | null, judging: boolean): Verdict {
  if (!judgment) return judging && !capture.truncated ? 'pending' : 'not_judged';
  if (judgment.status === 'error' || !judgment.flags) return 'judge_error';
  const flags = judgment.flags;
  if (flags.refused) {
    if (flags.correctlyRefused === true) return 'correctly_refused';
    if (flags.hallucinated) return 'hallucinated';
    return 'refused';
  }
  if (flags.hallucinated) return 'hallucinated';
  if (flags.faithful === true) return 'faithful';
  return 'undetermined';
}
