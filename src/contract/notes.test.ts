import { describe, expect, it } from 'vitest';
import { answerForJudging, HANDBOOK_OUTDATED_NOTE, OUTDATED_NOTE, parseAnswerNotes, renderAnswerWithNotes } from './notes.js';

describe('answer notes: render/parse pair', () => {
  it.each([
    ['one note', 'Twenty weeks (Leave Policy, updated 2025-01-12).', [OUTDATED_NOTE]],
    ['two notes', 'A.\n- item', ['Note: first.', 'Note: second.']],
    ['no note', 'Just an answer.', []],
    ['an answer that mentions the note wording mid-text is left alone', `Quoting "${OUTDATED_NOTE}" here.`, []],
  ])('%s round-trips', (_name, answer, notes) => {
    const rendered = renderAnswerWithNotes(answer, notes);
    expect(parseAnswerNotes(rendered, notes.length > 0 ? notes : [OUTDATED_NOTE])).toEqual({ answer, notes });
  });

  it('reads the default note, and a custom wording only when told it', () => {
    expect(parseAnswerNotes(`X.\n\n${OUTDATED_NOTE}`)).toEqual({ answer: 'X.', notes: [OUTDATED_NOTE] });
    expect(parseAnswerNotes('X.\n\nCheck with Payroll.')).toEqual({ answer: 'X.\n\nCheck with Payroll.', notes: [] });
    expect(parseAnswerNotes('X.\n\nCheck with Payroll.', ['Check with Payroll.'])).toEqual({ answer: 'X.', notes: ['Check with Payroll.'] });
  });

  it('a note glued to the last sentence is not a note (only a paragraph of its own is)', () => {
    expect(parseAnswerNotes(`X. ${OUTDATED_NOTE}`).notes).toEqual([]);
  });

  it('answerForJudging takes off the notes a trace records, else the default note', () => {
    expect(answerForJudging({ answer: 'X.\n\nCustom.', notes: ['Custom.'] })).toBe('X.');
    expect(answerForJudging({ answer: `X.\n\n${OUTDATED_NOTE}` })).toBe('X.');
    expect(answerForJudging({ answer: 'X.' })).toBe('X.');
  });

  it('the default note names no domain, and the earlier default (HR) is still taken off before judging', () => {
    // Before 2026-12-05 every corpus's answers were told to "verify with HR".
    expect(OUTDATED_NOTE).not.toMatch(/\b(?:HR|policy|employee|handbook)\b/i);
    expect(answerForJudging({ answer: `X.\n\n${HANDBOOK_OUTDATED_NOTE}` })).toBe('X.');
    expect(parseAnswerNotes(`X.\n\n${HANDBOOK_OUTDATED_NOTE}`).notes).toEqual([HANDBOOK_OUTDATED_NOTE]);
  });
});
