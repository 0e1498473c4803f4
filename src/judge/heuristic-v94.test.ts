import { describe, expect, it } from 'vitest';
import { chunkPassage, claimVerdicts } from '../test-support/judgments.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';

// heuristic-v94: a day of the week the asker named outside the asking clause is their calendar.
const fitNotes = chunkPassage(
  'sickness-absence#self-certification-and-fit-notes',
  { title: 'Sickness Absence', section: 'Self-Certification and Fit Notes', updated: '2025-09-01' },
  'For sickness absence of up to 7 calendar days, you self-certify on MyHarbour on your return. From the 8th calendar day of absence, you need a fit note from a GP covering every day after day 7.',
);
const lunch = chunkPassage(
  'onboarding#your-first-day',
  { title: 'Onboarding', section: 'Your First Day', updated: '2025-03-01' },
  'On your first day your buddy takes you for a free team lunch.',
);
const judge = createHeuristicFaithfulnessJudge();
const verdicts = (question: string, evidence: ReturnType<typeof chunkPassage>[], answer: string) => claimVerdicts(judge, question, evidence, answer);

describe('heuristic-v94', () => {
  it("the asker's own Monday, restated beside the rule, is not looked for in the evidence", async () => {
    const question = 'been off sick since monday with flu and wont be back till wednesday next week. can i just self certify or do i need a sick note?';
    expect(await verdicts(question, [fitNotes], 'From the 8th calendar day, which for you is next Monday, you need a fit note from a GP covering every day after day 7.')).toEqual(['verified']);
  });

  it('a day the asking clause names is what is asked about: it must be found', async () => {
    expect(await verdicts('Do we get a free lunch on Fridays?', [lunch], "Yes, there's a free team lunch on Fridays.")).toEqual(['absent']);
  });
});
