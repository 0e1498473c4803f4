import { describe, expect, it } from 'vitest';
import { chunkPassage, okJudgment } from '../test-support/judgments.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';
import type { EvidencePassage } from './types.js';

// heuristic-v66: a question's acronym that the evidence spells out is read as those words (METHODOLOGY.md, "Changes in v66").
const judge = createHeuristicFaithfulnessJudge();
const evidence: EvidencePassage[] = [
  chunkPassage('leave-policy#shared-parental-leave', { title: 'Leave Policy', section: 'Shared Parental Leave', updated: '2026-01-12' }, 'Eligible parents can choose to share up to 50 weeks of leave between them. Shared parental leave is paid at the statutory rate.'),
  chunkPassage('leave-policy#compassionate-leave', { title: 'Leave Policy', section: 'Compassionate Leave', updated: '2026-01-12' }, 'If a close family member dies you may take up to 5 days of paid compassionate leave.'),
];

describe('acronyms the evidence spells out (heuristic-v66)', () => {
  it('"how much SPL can I take" is answered by the shared parental leave rule, live as with a reference', async () => {
    // Before, "SPL" was a topic word no passage holds: the right answer was off_topic.
    const judgment = okJudgment(await judge.judge({ question: 'how much SPL can I take', evidence, answer: 'Eligible parents can choose to share up to 50 weeks of leave between them.' }));
    expect(judgment.answerRelevance).toBe('answers');
    expect(judgment.contexts[0]).toMatchObject({ verdict: 'answers' });
  });

  it('reads the acronym exactly as the spelled-out question, for any answer', async () => {
    for (const answer of ['Eligible parents can choose to share up to 50 weeks of leave between them.', 'If a close family member dies you may take up to 5 days of paid compassionate leave.', 'No.']) {
      const short = okJudgment(await judge.judge({ question: 'how much SPL can I take', evidence, answer }));
      const long = okJudgment(await judge.judge({ question: 'how much shared parental leave can I take', evidence, answer }));
      expect({ relevance: short.answerRelevance, contexts: short.contexts.map((context) => context.verdict) }, answer).toEqual({ relevance: long.answerRelevance, contexts: long.contexts.map((context) => context.verdict) });
    }
    // An acronym the evidence does not spell out stays a word no passage holds.
    const unknown = okJudgment(await judge.judge({ question: 'how much DBS can I take', evidence, answer: 'Eligible parents can choose to share up to 50 weeks of leave between them.' }));
    expect(unknown.answerRelevance).not.toBe('answers');
  });
});
