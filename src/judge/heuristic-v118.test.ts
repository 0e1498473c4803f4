import { describe, expect, it } from 'vitest';
import { flagsOf, outcomeOf } from '../contract/outcome.js';
import { chunkPassage, okJudgment } from '../test-support/judgments.js';
import { splitAnswer } from './claims.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';

// heuristic-v118: sympathy that is a whole clause ("sorry, that's rough") and a hedged verdict on
// the asker's premise standing alone ("Not quite: …") are no claims, like "Sorry to hear that" and
// a bare "No".
const judge = createHeuristicFaithfulnessJudge();
const pip = chunkPassage(
  'performance-reviews#performance-improvement-plans',
  { title: 'Performance Reviews', section: 'Performance Improvement Plans', updated: '2025-06-02' },
  'A performance improvement plan normally lasts 8 weeks, with a check-in every week. It can be extended once by up to 4 weeks.',
);
const question = 'my manager says im going on a PIP :( how long is it for?';

describe('heuristic-v118: sympathy and hedged verdicts are no claims', () => {
  it('drops the whole-clause remark and keeps what follows it', () => {
    expect(splitAnswer("sorry, that's rough. it's normally 8 weeks with a check-in every week.").claims).toEqual(["it's normally 8 weeks with a check-in every week."]);
    expect(splitAnswer('That must be really stressful. It normally lasts 8 weeks.').claims).toEqual(['It normally lasts 8 weeks.']);
    expect(splitAnswer('Not quite: the plan lasts 8 weeks.').claims).toEqual(['the plan lasts 8 weeks.']);
    expect(splitAnswer('Partly.').claims).toEqual([]);
    expect(splitAnswer('What a pain! It normally lasts 8 weeks.').claims).toEqual(['It normally lasts 8 weeks.']);
  });

  it('keeps a clause that goes on after the remark words, and a sympathy that states a figure', () => {
    expect(splitAnswer("That's hard to get extended past 4 weeks.").claims).toEqual(["That's hard to get extended past 4 weeks."]);
    expect(splitAnswer('Not quite 8 weeks.').claims).toEqual(['Not quite 8 weeks.']);
  });

  it('a correct answer opening with sympathy is correct; a made-up one is still caught', async () => {
    const kind = okJudgment(await judge.judge({ question, evidence: [pip], answer: "sorry, that's rough. it's normally 8 weeks with a check-in every week, and it can be extended once by up to 4 more weeks." }));
    expect(outcomeOf(flagsOf(kind))).toBe('correct');
    const wrong = okJudgment(await judge.judge({ question, evidence: [pip], answer: "sorry, that's rough. it's normally 12 weeks with a check-in every month." }));
    expect(outcomeOf(flagsOf(wrong))).toBe('hallucinated');
  });
});
