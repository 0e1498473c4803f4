import { describe, expect, it } from 'vitest';
import { flagsOf, outcomeOf } from '../contract/outcome.js';
import { chunkPassage } from '../test-support/judgments.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';
import type { EvidencePassage } from './types.js';

// heuristic-v46: refusals in chat wording, and more pointers after a refusal (METHODOLOGY.md, "Changes in v46").
const judge = createHeuristicFaithfulnessJudge();
const outcome = async (question: string, evidence: EvidencePassage[], answer: string) => outcomeOf(flagsOf(await judge.judge({ question, evidence, answer, reference: null })));

const sickPay: EvidencePassage[] = [
  chunkPassage('sickness-absence#company-sick-pay', { title: 'Sickness Absence', section: 'Company Sick Pay', updated: '2025-01-15' }, 'After probation you receive full pay for up to 8 weeks of sickness absence in any rolling 12 months, then half pay for a further 8 weeks.'),
];

describe('refusals in chat wording (heuristic-v46)', () => {
  it('a refusal with a pointer, when nothing retrieved answers, is a correct refusal', async () => {
    // v45: `hallucinated` (neither sentence was read as a refusal or a pointer, so both were claims).
    expect(await outcome('Is there a prayer room in the Leeds office?', [], "I can't see anything about that in the docs. Worth asking the office manager.")).toBe('correct_refusal');
    expect(await outcome('Is there a prayer room in the Leeds office?', [], "The handbook is silent on this, I'm afraid - I'd ask Facilities.")).toBe('correct_refusal');
  });

  it('the same wording, when a retrieved chunk answers, is an over-refusal', async () => {
    expect(await outcome('How long do I get full sick pay for?', sickPay, "No idea, sorry. HR would be the people to ask.")).toBe('over_refusal');
  });

  it('a pointer that states a rule is still a claim', async () => {
    expect(await outcome('How long do I get full sick pay for?', sickPay, 'You get full pay for 12 weeks; worth asking HR for the form.')).toBe('hallucinated');
  });
});
