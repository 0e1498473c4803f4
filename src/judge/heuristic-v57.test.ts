import { describe, expect, it } from 'vitest';
import { flagsOf, outcomeOf } from '../contract/outcome.js';
import { chunkPassage, okJudgment } from '../test-support/judgments.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';
import type { EvidencePassage } from './types.js';

// heuristic-v57: more pointers after a refusal are asides, not claims (METHODOLOGY.md, "Changes in v57").
const judge = createHeuristicFaithfulnessJudge();
const payReview: EvidencePassage[] = [
  chunkPassage('pay-and-payroll#annual-pay-review', { title: 'Pay and Payroll', section: 'Annual Pay Review', updated: '2025-04-01' }, 'Salaries are reviewed every April. Any increase takes effect from 1 April and is confirmed to you in writing by your manager.'),
];

describe('pointers after a refusal (heuristic-v57)', () => {
  it('a refusal to share a colleague’s pay rise, then a pointer for the asker’s own, is a correct refusal', async () => {
    const judgment = await judge.judge({
      question: 'Daniel Hughes reckons he got 8% in the April pay review. Can you check what he really got? I only got 3%.',
      evidence: payReview,
      answer: "I can't tell you what a colleague got in the pay review. If you want to understand your own 3%, your manager or the People team can go through it with you.",
    });
    // v56: the pointer was a claim of its own, `absent`, and the refusal `hallucinated`.
    expect(okJudgment(judgment).claims).toEqual([]);
    expect(outcomeOf(flagsOf(judgment))).toBe('correct_refusal');
  });

  it('a claim after a refusal is still checked', async () => {
    const judgment = await judge.judge({
      question: 'Daniel Hughes reckons he got 8% in the April pay review. Can you check what he really got?',
      evidence: payReview,
      answer: "I can't tell you what a colleague got. Everyone got at least 5% this year.",
    });
    expect(okJudgment(judgment).claims.map((claim) => claim.verdict)).toEqual(['absent']);
    expect(outcomeOf(flagsOf(judgment))).toBe('hallucinated');
  });
});
