import { describe, expect, it } from 'vitest';
import { outcomeOf } from '../contract/outcome.js';
import { chunkPassage, okJudgment } from '../test-support/judgments.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';

// heuristic-v79: found on a dental practice's pages written before the pipeline ran on them (fixtures/dental; METHODOLOGY.md changelog, 2026-12-05).
const judge = createHeuristicFaithfulnessJudge();
const evidence = [
  chunkPassage('appointments#booking', { title: 'Appointments', section: 'Booking', updated: '2026-07-20' }, 'Book a check-up online, by phone on 0161 496 0500, or at reception. Phone lines are open 8:30am to 5pm, Monday to Friday.'),
  chunkPassage('appointments#reminders', { title: 'Appointments', section: 'Reminders', updated: '2026-07-20' }, 'We send a text reminder 2 days before your appointment.'),
];

describe('"number" that no passage holds (heuristic-v79)', () => {
  it('is the value asked for: "whats your phone number" is answered by the number', async () => {
    // v78: `off_topic`: "number" weighed double, found nowhere in the evidence.
    const judgment = okJudgment(await judge.judge({ question: 'whats your phone number', evidence, answer: 'Book a check-up online, by phone on 0161 496 0500, or at reception.' }));
    expect(judgment.answerRelevance).toBe('answers');
    expect(outcomeOf(judgment)).toBe('correct');
  });

  it('an answer without the phone is still off topic', async () => {
    const judgment = okJudgment(await judge.judge({ question: 'whats your phone number', evidence, answer: 'We send a text reminder 2 days before your appointment.' }));
    expect(judgment.answerRelevance).toBe('off_topic');
  });
});
