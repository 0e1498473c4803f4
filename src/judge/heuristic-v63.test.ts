import { describe, expect, it } from 'vitest';
import { outcomeOf } from '../contract/outcome.js';
import { chunkPassage, okJudgment } from '../test-support/judgments.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';
import type { EvidencePassage } from './types.js';

// heuristic-v63: after a refusal, advice with no figure or name is no claim (METHODOLOGY.md, "Changes in v63").
const judge = createHeuristicFaithfulnessJudge();
const leave: EvidencePassage[] = [
  chunkPassage('leave-policy#annual-leave-entitlement', { title: 'Leave Policy', section: 'Annual Leave Entitlement', updated: '2026-01-12' }, 'Full-time employees receive 25 days of annual leave each year, plus the 8 bank holidays in England and Wales.'),
];
const judgeRefusal = async (answer: string) => okJudgment(await judge.judge({ question: 'Do we get our birthday off?', evidence: leave, answer }));

describe('advice beside a refusal (heuristic-v63)', () => {
  it('"You\'d normally just book annual leave for it" does not make the refusal hallucinated', async () => {
    const judgment = await judgeRefusal("Can't find anything on birthday leave. You'd normally just book annual leave for it.");
    // v62: one `absent` claim, so `hallucinated`.
    expect(judgment.refused).toBe(true);
    expect(judgment.claims).toEqual([]);
    expect(outcomeOf(judgment)).toBe('correct_refusal');
  });

  it('a figure slipped in beside a refusal is still checked', async () => {
    const judgment = await judgeRefusal("Can't find anything on birthday leave. You get 2 extra days for your birthday in your first year.");
    expect(judgment.claims.map((claim) => claim.verdict)).toEqual(['absent']);
    expect(outcomeOf(judgment)).toBe('hallucinated');
  });

  it('so is a name', async () => {
    const judgment = await judgeRefusal("Can't find anything on birthday leave. Birthday leave is handled by Northgate Health.");
    expect(judgment.claims.map((claim) => claim.verdict)).toEqual(['absent']);
    expect(outcomeOf(judgment)).toBe('hallucinated');
  });

  it('and in an answer that does not refuse, such a sentence is a claim as before', async () => {
    const judgment = okJudgment(await judge.judge({ question: 'Do we get our birthday off?', evidence: leave, answer: "Yes. You'd normally just book annual leave for it." }));
    expect(judgment.claims.map((claim) => claim.verdict)).toContain('absent');
  });
});

describe('what stays a claim beside a refusal (heuristic-v63)', () => {
  const party: EvidencePassage[] = [chunkPassage('code-of-conduct#dress-at-work', { title: 'Code of Conduct', section: 'Dress at Work', updated: '2025-03-01' }, 'There is no formal dress code in our offices.')];
  it.each(["I don't know, but I think it is black tie.", "I don't know, but it is black tie."])('"%s": a guess at what was asked', async (answer) => {
    const judgment = okJudgment(await judge.judge({ question: "What's the dress code for the Christmas party?", evidence: party, answer }));
    expect(judgment.refused).toBe(true);
    expect(outcomeOf(judgment)).toBe('hallucinated');
  });
});
