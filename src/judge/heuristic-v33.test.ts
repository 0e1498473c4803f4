import { describe, expect, it } from 'vitest';
import { flagsOf, outcomeOf } from '../contract/outcome.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';
import type { EvidencePassage } from './types.js';

// heuristic-v33: an answer about another rank than the asker's (METHODOLOGY.md, "Changes in v33").
const judge = createHeuristicFaithfulnessJudge();

const evidence: EvidencePassage[] = [
  {
    id: 'working-hours#paid-overtime-for-grades-1-to-3',
    kind: 'chunk',
    text: '[Source: Working Hours | Section: Paid Overtime for Grades 1 to 3 | Last updated: 2025-01-01]\nEmployees in grades 1 to 3 are paid for overtime that their manager has approved in advance. Overtime on Sundays is paid at 2 times your hourly rate.',
  },
  {
    id: 'working-hours#toil-for-grades-4-and-above',
    kind: 'chunk',
    text: '[Source: Working Hours | Section: Time Off in Lieu for Grades 4 and Above | Last updated: 2025-01-01]\nEmployees in grade 4 and above do not receive paid overtime. They may agree time off in lieu with their manager.',
  },
];

async function outcome(question: string, answer: string) {
  return outcomeOf(flagsOf(await judge.judge({ question, evidence, answer })));
}

describe('an answer about another rank than the asker says they hold (heuristic-v33)', () => {
  it('is off topic for a question asking what applies to them', async () => {
    // v32 read it as answering: its sentence holds the question's words.
    expect(await outcome('I worked 4 hours on a Sunday as a grade 2. What rate is overtime paid at?', 'Employees in grade 4 and above do not receive paid overtime.')).toBe('off_topic');
  });

  it('answers when it speaks of a range that takes the asker in', async () => {
    expect(await outcome('I worked 4 hours on a Sunday as a grade 2. What rate is overtime paid at?', 'Employees in grades 1 to 3 are paid overtime on Sundays at 2 times your hourly rate.')).toBe('correct');
  });

  it('is not applied to a yes/no question, where leaving the asker out is the answer', async () => {
    expect(await outcome("I'm grade 2. Do I get time off in lieu for overtime?", 'No: employees in grade 4 and above do not receive paid overtime and may agree time off in lieu instead.')).not.toBe('off_topic');
  });
});
