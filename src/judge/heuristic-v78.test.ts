import { describe, expect, it } from 'vitest';
import { outcomeOf } from '../contract/outcome.js';
import { chunkPassage, okJudgment } from '../test-support/judgments.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';

// heuristic-v78: found on an energy supplier's pages written before the pipeline ran on them (fixtures/energy; METHODOLOGY.md changelog, 2026-12-05).
const judge = createHeuristicFaithfulnessJudge();
const evidence = [
  chunkPassage('billing#your-bill', { title: 'Bills and payments', section: 'Your bill', updated: '2026-10-01' }, 'We send your bill every month by email. It shows the energy you used, your standing charge and your unit rates.'),
];

describe('"how often" (heuristic-v78)', () => {
  it('is answered by a frequency in words ("every month")', async () => {
    // v77: `incomplete` (relevance `partial`): a quantity question wanted a figure.
    const judgment = okJudgment(await judge.judge({ question: 'how often do you send bills', evidence, answer: 'We send your bill every month by email.' }));
    expect(judgment.answerRelevance).toBe('answers');
    expect(outcomeOf(judgment)).toBe('correct');
  });

  it('an answer with no frequency still leaves it unanswered', async () => {
    const judgment = okJudgment(await judge.judge({ question: 'how often do you send bills', evidence, answer: 'It shows the energy you used, your standing charge and your unit rates.' }));
    expect(judgment.answerRelevance).not.toBe('answers');
  });
});
