import { describe, expect, it } from 'vitest';
import { flagsOf, outcomeOf } from '../contract/outcome.js';
import { chunkPassage, okJudgment } from '../test-support/judgments.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';

// heuristic-v89: after a refusal, pointing the asker to someone who may know is advice, not a claim,
// even when it names them (found on handbook-fresh8.jsonl, l113 and l114; METHODOLOGY.md changelog).
const leave = chunkPassage(
  'leave-policy#annual-leave-entitlement',
  { title: 'Leave Policy', section: 'Annual Leave Entitlement', updated: '2026-01-12' },
  'Full-time employees receive 25 days of annual leave each year, plus the 8 bank holidays in England and Wales.',
);
const question = 'a mate on the support team has a really ill wife and he has used up all his holiday. can i give him some of my annual leave days?';
const judge = createHeuristicFaithfulnessJudge();

describe('heuristic-v89', () => {
  it('a refusal that points to the People team is a correct refusal', async () => {
    const judgment = okJudgment(
      await judge.judge({ question, evidence: [leave], answer: "The handbook doesn't cover giving or donating annual leave to a colleague, so I can't say whether that's possible. It'd be worth asking the People team." }),
    );
    expect(judgment.refused).toBe(true);
    expect(judgment.claims).toEqual([]);
    expect(outcomeOf(flagsOf(judgment))).toBe('correct_refusal');
  });

  it('a figure or a phone number beside the refusal is still a claim', async () => {
    const withFigure = okJudgment(
      await judge.judge({ question, evidence: [leave], answer: "The handbook doesn't cover giving annual leave to a colleague. It'd be worth asking the People team, who allow up to 5 days." }),
    );
    expect(withFigure.claims.map((claim) => claim.verdict)).toEqual(['absent']);
    expect(outcomeOf(flagsOf(withFigure))).toBe('hallucinated');
    const withPhone = okJudgment(
      await judge.judge({ question, evidence: [leave], answer: "The handbook doesn't cover giving annual leave to a colleague. It'd be worth asking the People team on 0117 496 0000." }),
    );
    expect(withPhone.claims.map((claim) => claim.verdict)).toEqual(['absent']);
  });

  it('a sentence naming a team that points nowhere is still a claim', async () => {
    const judgment = okJudgment(
      await judge.judge({ question, evidence: [leave], answer: "The handbook doesn't cover giving annual leave to a colleague. The People team approves leave swaps between colleagues." }),
    );
    expect(judgment.claims.map((claim) => claim.verdict)).toEqual(['absent']);
  });
});
