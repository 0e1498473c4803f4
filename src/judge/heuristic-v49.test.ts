import { describe, expect, it } from 'vitest';
import { chunkPassage } from '../test-support/judgments.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';
import type { EvidencePassage } from './types.js';

// heuristic-v49: "today", "tomorrow" … are no topic words of a question (METHODOLOGY.md, "Changes in v49").
const judge = createHeuristicFaithfulnessJudge();
const sickness: EvidencePassage[] = [
  chunkPassage('sickness-absence#reporting-sickness', { title: 'Sickness Absence', section: 'Reporting Sickness', updated: '2025-01-15' }, 'If you are too ill to work, phone your line manager by 09:30 on your first day of absence, or within 1 hour of your usual start time if you start later.'),
];

describe('words of when the asker asks (heuristic-v49)', () => {
  it.each(["I'm sick today, by when do I need to tell my manager?", 'Off sick tomorrow - by when do I need to tell my manager?'])('the chunk answers "%s", and the answer is on topic', async (question) => {
    // v48: the chunk `unrelated` ("today", nowhere in the evidence, weighed double) and the answer `off_topic`.
    const judgment = await judge.judge({ question, evidence: sickness, answer: 'Phone your line manager by 09:30 on your first day off.', reference: null });
    if (judgment.status !== 'ok') throw new Error('judge error');
    expect(judgment.contexts.map((context) => context.verdict)).toEqual(['answers']);
    expect(judgment.answerRelevance).toBe('answers');
  });

  it('a question about something the evidence never names is still read so', async () => {
    const judgment = await judge.judge({ question: 'Is the canteen open today?', evidence: sickness, answer: 'Phone your line manager by 09:30 on your first day off.', reference: null });
    if (judgment.status !== 'ok') throw new Error('judge error');
    expect(judgment.contexts.map((context) => context.verdict)).not.toContain('answers');
  });
});
