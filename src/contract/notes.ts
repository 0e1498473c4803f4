/**
 * Notes appended to an answer after generation (the outdated-document note): a render/parse pair,
 * so the pipeline writes a note one way and every judge takes it off again before judging. A note
 * is advice to the reader about the sources, not a claim about the question, and must never be
 * checked as one.
 */

/**
 * The default outdated-document note, in no domain's words (2026-12-05: it said "please verify with
 * HR" on every corpus, a council's or a shop's too). An app sets its own wording with the
 * pipeline's `outdatedNote.text` (the demo, an employee handbook: {@link HANDBOOK_OUTDATED_NOTE}).
 */
export const OUTDATED_NOTE = 'Note: this document may be outdated — please check that it is still current.';

/** The outdated-document note for an employee handbook (the demo's), and the default before 2026-12-05. */
export const HANDBOOK_OUTDATED_NOTE = 'Note: this policy document may be outdated — please verify with HR.';

/** Notes a trace without its own `notes` may end with: the default, and the earlier default. */
const DEFAULT_NOTES: readonly string[] = [OUTDATED_NOTE, HANDBOOK_OUTDATED_NOTE];

/** Separates an answer from its notes: a blank line. */
const NOTE_SEPARATOR = '\n\n';

/**
 * An answer with notes after it, each in a paragraph of its own.
 *
 * @example
 * renderAnswerWithNotes('20 weeks (Leave Policy, updated 2025-01-12).', [OUTDATED_NOTE])
 * // '20 weeks (Leave Policy, updated 2025-01-12).\n\nNote: this document may be outdated — please check that it is still current.'
 */
export function renderAnswerWithNotes(answer: string, notes: readonly string[]): string {
  return notes.length === 0 ? answer : [answer, ...notes.map((note) => note.trim())].join(NOTE_SEPARATOR);
}

/**
 * Split an answer written by {@link renderAnswerWithNotes} back into the answer and the notes
 * found at its end. `notes` are the notes that may be there (a trace's `notes`; by default the
 * {@link OUTDATED_NOTE} and the earlier default, {@link HANDBOOK_OUTDATED_NOTE}); anything else is answer.
 *
 * @example
 * parseAnswerNotes('20 weeks.\n\n' + OUTDATED_NOTE) // { answer: '20 weeks.', notes: [OUTDATED_NOTE] }
 */
export function parseAnswerNotes(text: string, notes: readonly string[] = DEFAULT_NOTES): { answer: string; notes: string[] } {
  let answer = text.trimEnd();
  const found: string[] = [];
  let changed = true;
  while (changed) {
    changed = false;
    for (const note of notes) {
      const trimmed = note.trim();
      if (trimmed === '' || !answer.endsWith(trimmed)) continue;
      const before = answer.slice(0, answer.length - trimmed.length);
      if (before !== '' && !before.endsWith(NOTE_SEPARATOR)) continue;
      found.unshift(trimmed);
      answer = before.trimEnd();
      changed = true;
    }
  }
  return { answer, notes: found };
}

/** The part of a trace's answer a judge checks: the answer without the notes the pipeline appended. */
export function answerForJudging(trace: { answer: string; notes?: readonly string[] }): string {
  return parseAnswerNotes(trace.answer, trace.notes && trace.notes.length > 0 ? trace.notes : DEFAULT_NOTES).answer;
}
