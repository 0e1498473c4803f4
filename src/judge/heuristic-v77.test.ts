import { describe, expect, it } from 'vitest';
import { outcomeOf } from '../contract/outcome.js';
import { chunkPassage, okJudgment } from '../test-support/judgments.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';
import type { EvidencePassage } from './types.js';

// heuristic-v77: found on a car hire company's terms written before the pipeline ran on them (fixtures/carhire; METHODOLOGY.md changelog, 2026-12-05).
const judge = createHeuristicFaithfulnessJudge();
const meta = (title: string, section: string) => ({ title, section, updated: '2026-08-12' });
const evidence: EvidencePassage[] = [
  chunkPassage('on-the-road#mileage', meta('On the road', 'Mileage'), 'Rentals include 200 miles per day. Extra miles cost 25p per mile. Weekly rentals of 7 days or more have unlimited mileage.'),
  chunkPassage('on-the-road#breakdowns-and-accidents', meta('On the road', 'Breakdowns and accidents'), 'All rentals include 24-hour breakdown cover. In an accident, call the police if anyone is injured.'),
  chunkPassage('on-the-road#fuel-policy', meta('On the road', 'Fuel policy'), 'Cars are supplied with a full tank and must be returned full.'),
  chunkPassage('bins#replacement-bins', meta('Bins and Recycling', 'Replacement bins'), 'A replacement for a lost, stolen or damaged bin costs £25, including delivery.'),
];
const verdict = async (question: string, answer: string) => okJudgment(await judge.judge({ question, evidence, answer }));

describe('heuristic-v77', () => {
  it('a short sentence with a plural subject and its verb is a statement, not a bare answer', async () => {
    // v76: "include" and "cost" are not in the verb list, so each was read as a bare answer, and
    // `absent`: "the answer does not appear in a passage about the question" (verbatim quotes).
    expect((await verdict('im 23, do i pay extra', 'Extra miles cost 25p per mile.')).claims.map((claim) => claim.verdict)).toEqual(['verified']);
    expect((await verdict('the car broke down what do i do', 'All rentals include 24-hour breakdown cover.')).claims.map((claim) => claim.verdict)).toEqual(['verified']);
  });

  it('"broke down" is read as the evidence\'s "breakdown"', async () => {
    // v76: `off_topic`: "broke" and "down" were topic words no passage holds.
    const judgment = await verdict('the car broke down what do i do', 'All rentals include 24-hour breakdown cover.');
    expect(judgment.answerRelevance).toBe('answers');
    expect(outcomeOf(judgment)).toBe('correct');
  });

  it('"limit" and "new" that no passage holds are how the question is asked; a passive\'s "got" is no topic word', async () => {
    // v76: `off_topic` both.
    expect(outcomeOf(await verdict('is there a mileage limit', 'Rentals include 200 miles per day.'))).toBe('correct');
    expect(outcomeOf(await verdict('my bin got nicked, how much for a new one', 'A replacement for a lost, stolen or damaged bin costs £25, including delivery.'))).toBe('correct');
  });

  it('an answer about something else is still off topic', async () => {
    expect((await verdict('is there a mileage limit', 'A replacement for a lost, stolen or damaged bin costs £25, including delivery.')).answerRelevance).toBe('off_topic');
    expect((await verdict('the car broke down what do i do', 'Extra miles cost 25p per mile.')).answerRelevance).toBe('off_topic');
  });
});
