import { beforeAll, describe, expect, it } from 'vitest';
import { flagsOf, outcomeOf } from '../contract/outcome.js';
import { handbookPassages } from '../test-support/fixtures.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';
import type { EvidencePassage } from './types.js';

// heuristic-v56: an answer naming a word of the question that no passage holds is not off topic
// (METHODOLOGY.md, "Changes in v56").
let chunk: (id: string) => EvidencePassage;
beforeAll(async () => {
  chunk = await handbookPassages();
});

const judge = createHeuristicFaithfulnessJudge();

describe('answers that name what no passage holds (heuristic-v56)', () => {
  it('an invented answer about the canteen the question asks for should have been a refusal', async () => {
    const evidence = [chunk('pay-and-payroll#pay-day'), chunk('it-and-security#password-changes')];
    const judgment = await judge.judge({
      question: 'Is there a canteen at the Bristol office, or should I bring my own lunch?',
      evidence,
      answer: "There's no canteen, but the kitchen on each floor has fridges and microwaves, so bring your own.",
    });
    // v55: `off_topic` relevance (the answer's words cover too little of the question), so the
    // outcome fell through to `hallucinated`; nothing answers, so answering was the failure.
    expect(judgment).toMatchObject({ status: 'ok', contextSufficient: false, answerRelevance: 'partial' });
    expect(outcomeOf(flagsOf(judgment))).toBe('should_have_refused');
  });

  it('a faithful answer about something else stays off topic: it holds no word the passages lack', async () => {
    const evidence = [chunk('leave-policy#antenatal-and-adoption-appointments'), chunk('pay-and-payroll#pay-day')];
    const judgment = await judge.judge({
      question: 'Can I get paid in bitcoin?',
      evidence,
      answer: 'Pregnant employees may take paid time off for antenatal appointments, including antenatal classes recommended by a doctor or midwife.',
    });
    expect(judgment).toMatchObject({ status: 'ok', answerRelevance: 'off_topic' });
    expect(outcomeOf(flagsOf(judgment))).toBe('off_topic');
  });
});
