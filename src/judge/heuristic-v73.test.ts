import { describe, expect, it } from 'vitest';
import { chunkPassage, okJudgment } from '../test-support/judgments.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';
import { openingSubject } from './heuristic-subject.js';
import type { EvidencePassage } from './types.js';

// heuristic-v73: an aside in brackets after a claim's opening phrase names the same thing (METHODOLOGY.md changelog, 2026-12-05).
const judge = createHeuristicFaithfulnessJudge();
const evidence: EvidencePassage[] = [
  chunkPassage('bins#garden-waste', { title: 'Bins and Recycling', section: 'Garden Waste', updated: '2026-06-01' }, 'Garden waste (green bin) is collected fortnightly from March to November. It is an opt-in service costing £48 a year per bin.'),
];

describe('an opening phrase with an aside in brackets (heuristic-v73)', () => {
  it('"how much is the green bin" is answered by "Garden waste (green bin) … costing £48 a year"', async () => {
    // v72: the claim opened with "Garden waste", the heading of its chunk, a phrase the question does not name: another section's figure, off topic.
    const judgment = okJudgment(await judge.judge({ question: 'how much is the green bin', evidence, answer: 'Garden waste (green bin) is collected fortnightly from March to November. It is an opt-in service costing £48 a year per bin.' }));
    expect(judgment.answerRelevance).toBe('answers');
  });

  it('reads the aside only right after the phrase', () => {
    expect(openingSubject('Garden waste (green bin) is collected fortnightly.')?.written).toEqual(['Garden', 'waste', 'green', 'bin']);
    expect(openingSubject('Garden waste is collected (by the green bin crew) fortnightly.')?.written).toEqual(['Garden', 'waste']);
  });
});
