import { describe, expect, it } from 'vitest';
import { OUTDATED_NOTE, renderAnswerWithNotes } from '../contract/notes.js';
import { MockChatModel } from '../testing/index.js';
import { chunkPassage, okJudgment } from '../test-support/judgments.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';
import { createLlmFaithfulnessJudge } from './llm-judge.js';

// heuristic-v85: a direct call with a trace's answer, outdated-document note included (the stop-32 note's "noticed").
const evidence = [chunkPassage('leave-policy#parental-leave', { title: 'Leave Policy', section: 'Parental Leave', updated: '2024-01-12' }, 'A birth parent is entitled to 20 weeks of parental leave at full pay.')];
const question = 'How many weeks of parental leave at full pay?';
const answer = renderAnswerWithNotes('A birth parent is entitled to 20 weeks of parental leave at full pay. (Leave Policy, updated 2024-01-12)', [OUTDATED_NOTE]);

describe('heuristic-v85', () => {
  it('the heuristic judge takes the default outdated-document note off: it is no claim', async () => {
    // v84: the note was a claim no passage states (`absent`), so the right answer was `hallucinated`.
    const judgment = okJudgment(await createHeuristicFaithfulnessJudge().judge({ question, evidence, answer }));
    expect(judgment.claims.map((claim) => claim.verdict)).toEqual(['verified']);
    expect(judgment.hallucinated).toBe(false);
  });

  it('the LLM judge is not shown the note either', async () => {
    const chat = new MockChatModel({ text: '{}' });
    await createLlmFaithfulnessJudge({ chat, maxAttempts: 1 }).judge({ question, evidence, answer });
    const prompt = chat.calls[0]!.messages.map((message) => message.content).join('\n');
    expect(prompt).toContain('20 weeks of parental leave at full pay');
    expect(prompt).not.toContain('may be outdated');
  });
});
