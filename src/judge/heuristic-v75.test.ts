import { describe, expect, it } from 'vitest';
import { outcomeOf } from '../contract/outcome.js';
import { chunkPassage, okJudgment } from '../test-support/judgments.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';
import type { EvidencePassage } from './types.js';

// heuristic-v75: found on a hotel's guest pages written before the pipeline ran on them (fixtures/hotel; METHODOLOGY.md changelog, 2026-12-05).
const judge = createHeuristicFaithfulnessJudge();
const meta = (section: string) => ({ title: 'Facilities', section, updated: '2026-09-01' });
const evidence: EvidencePassage[] = [
  chunkPassage('facilities#wi-fi', meta('Wi-Fi'), 'Free Wi-Fi covers the whole building. Join the network "Harbour-Guest"; the password is printed on your key card wallet.'),
  chunkPassage('facilities#breakfast', meta('Breakfast'), 'Breakfast is served in the Garden Room from 7am to 10:30am on weekdays and from 8am to 11am at weekends.'),
  chunkPassage('facilities#parking', meta('Parking'), 'The hotel car park has 40 spaces and costs £18 per 24 hours. Two bays have electric vehicle chargers.'),
  chunkPassage('facilities#room-service', meta('Room service'), 'Room service runs from 6pm to 11pm. A tray charge of £3 is added to each order.'),
];
const verdict = async (question: string, answer: string) => okJudgment(await judge.judge({ question, evidence, answer }));

describe('heuristic-v75', () => {
  it('"wifi" is held by a section headed "Wi-Fi": the password answer answers', async () => {
    // v74: "wifi" was held nowhere, so the chunk did not answer and the answer was `should_have_refused` (before: `off_topic`, half of "wifi password").
    const judgment = await verdict('whats the wifi password', 'Join the network "Harbour-Guest"; the password is printed on your key card wallet.');
    expect(judgment.contextSufficient).toBe(true);
    expect(judgment.answerRelevance).toBe('answers');
    expect(outcomeOf(judgment)).toBe('correct');
  });

  it('"Saturday" is held by "weekends", and "finish" after the subject is how the time is asked', async () => {
    // v74: `off_topic`: neither "saturday" nor "finish" was held, and each weighed double (found nowhere in the evidence).
    const judgment = await verdict('what time does breakfast finish on a saturday', 'Breakfast is served from 8am to 11am at weekends.');
    expect(judgment.answerRelevance).toBe('answers');
    expect(outcomeOf(judgment)).toBe('correct');
  });

  it('"somewhere" is no topic word: the chargers chunk answers the question', async () => {
    // v74: `should_have_refused`: "somewhere" weighed double and no chunk covered the question.
    const judgment = await verdict('is there somewhere to charge my electric car', 'Two bays have electric vehicle chargers.');
    expect(judgment.contextSufficient).toBe(true);
    expect(outcomeOf(judgment)).toBe('correct');
  });

  it('a figure coordinated by "and" shares what is said before the first: the weekend hours are not contradicted by the weekday ones', async () => {
    const claimVerdict = async (answer: string) => (await verdict('what time does breakfast finish on a saturday', answer)).claims.map((claim) => claim.verdict);
    // v74: "breakfast is served" described only 7am, so 8am was compared with it: contradicted.
    expect(await claimVerdict('Breakfast is served from 8am to 11am at weekends.')).toEqual(['verified']);
    // The words after the first figure ("on weekdays") still tell the two apart.
    expect(await claimVerdict('Breakfast is served from 8am to 11am on weekdays.')).toEqual(['contradicted']);
    expect(await claimVerdict('Breakfast is served from 7am to 11am at weekends.')).toEqual(['contradicted']);
  });

  it('an answer about something else is still off topic', async () => {
    expect((await verdict('whats the wifi password', 'Room service runs from 6pm to 11pm.')).answerRelevance).toBe('off_topic');
    expect((await verdict('what time does breakfast finish on a saturday', 'A tray charge of £3 is added to each order.')).answerRelevance).toBe('off_topic');
  });
});
