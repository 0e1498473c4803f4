import { describe, expect, it } from 'vitest';
import { chunkPassage, okJudgment } from '../test-support/judgments.js';
import { analyze } from './heuristic-analysis.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';

// heuristic-v95: bare figures of a written-out sum or difference take the result's unit.
// (Without a reference the worked claim is still `absent`: no sentence of this chunk says "each way",
// and against the policy's worked example its 40 miles reads as another figure for the same thing.)
const commuting = chunkPassage(
  'travel-and-expenses#commuting-and-business-journeys',
  { title: 'Travel and Expenses', section: 'Commuting and Business Journeys', updated: '2025-10-01' },
  'If you travel directly from home to another location for work, such as a customer site, you can claim the business mileage minus the distance of your normal commute.',
);
const judge = createHeuristicFaithfulnessJudge();

describe('heuristic-v95', () => {
  it('reads "50 - 15 = 35 miles" as miles throughout, and not a range or a list of counts', () => {
    const units = (text: string) => analyze(text).quantities.map(({ quantity }) => (quantity.kind === 'number' ? quantity.dimension : quantity.kind));
    expect(units("That's 50 - 15 = 35 miles each way.")).toEqual(['mile', 'mile', 'mile']);
    expect(units('You get 5 - 7 days.')).toEqual(['day']);
    expect(units('Grades 1 and 2 get 4 days.')).not.toContain('mile');
  });

  it("with a reference working the same sum, the asker's worked mileage states it (offline evals)", async () => {
    const question = 'my office is 15 miles from home. on tuesday im driving straight from home to a customer 50 miles away. how much mileage can i claim';
    const reference = 'You can claim the business mileage minus the distance of your normal commute: 50 - 15 = 35 miles each way.';
    const judgment = okJudgment(await judge.judge({ question, evidence: [commuting], answer: "You claim the business mileage minus your normal commute: that's 50 - 15 = 35 miles each way.", reference }));
    expect(judgment.claims.map((claim) => claim.verdict)).toEqual(['verified', 'verified']);
  });
});
