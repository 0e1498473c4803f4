import { describe, expect, it } from 'vitest';
import { flagsOf, outcomeOf } from '../contract/outcome.js';
import { chunkPassage, okJudgment } from '../test-support/judgments.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';

// heuristic-v116: the personal-data rule reads no day, month or holiday as a person's name, so a
// question about the asker's own appointment ("…this Thursday at 2pm") asks for no one's data.
const judge = createHeuristicFaithfulnessJudge();
const antenatal = chunkPassage(
  'leave-policy#antenatal-appointments',
  { title: 'Leave Policy', section: 'Antenatal Appointments', updated: '2026-01-12' },
  'Pregnant employees may take paid time off for antenatal appointments. Partners may take paid time off to attend up to 2 antenatal appointments, of up to 6.5 hours each.',
);
const question = 'My wife is 19 weeks pregnant and her 20 week scan is this Thursday at 2pm. Can I get paid time off to go with her?';
const reference = 'Yes. Partners may take paid time off to attend up to 2 antenatal appointments, of up to 6.5 hours each.';

describe('heuristic-v116: a day named in the question is no person', () => {
  it('a refusal where the passage answers is an over-refusal, not a personal-data refusal', async () => {
    const judgment = okJudgment(await judge.judge({ question, evidence: [antenatal], answer: "I can't share personal or confidential information about an individual.", reference }));
    expect(judgment.personalData).toBe(false);
    expect(outcomeOf(flagsOf(judgment))).toBe('over_refusal');
  });

  it('the answer is judged as an answer', async () => {
    const judgment = okJudgment(await judge.judge({ question, evidence: [antenatal], answer: 'Yes, partners can take paid time off for up to 2 antenatal appointments, up to 6.5 hours each.', reference }));
    expect(outcomeOf(flagsOf(judgment))).toBe('correct');
  });
});
