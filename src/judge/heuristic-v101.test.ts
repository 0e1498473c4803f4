import { describe, expect, it } from 'vitest';
import { chunkPassage, okJudgment } from '../test-support/judgments.js';
import { flagsOf, outcomeOf } from '../contract/outcome.js';
import { questionParts } from './heuristic-context.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';

// heuristic-v101: a question typed without its "?" after one typed with it is a part of its own.
const judge = createHeuristicFaithfulnessJudge();
const source = { title: 'Remote and Hybrid Working', updated: '2025-10-01' };
const evidence = [
  chunkPassage('remote-and-hybrid-working#hybrid-working-pattern', { ...source, section: 'Hybrid Working Pattern' }, 'If your role is hybrid, you are expected to work from your base office for at least 2 days each week. Your team agrees which days.'),
  chunkPassage('travel-and-expenses#commuting-and-business-journeys', { title: 'Travel and Expenses', section: 'Commuting and Business Journeys', updated: '2025-09-01' }, 'Travel between your home and your base office is commuting and cannot be claimed, even if you are hybrid and only attend some days.'),
];
const question = 'how many days a week do i have to be in the office on a hybrid contract? and can i claim my train fare for the days i go in';

describe('heuristic-v101', () => {
  it('the trailing question without "?" is read as a second part', () => {
    expect(questionParts(question)).toEqual(['how many days a week do i have to be in the office on a hybrid contract?', 'and can i claim my train fare for the days i go in']);
    // A statement after the question is still no part; a question with no "?" at all is one part.
    expect(questionParts('can i work from home on fridays? my manager said so')).toEqual(['can i work from home on fridays?']);
    expect(questionParts('can i work from home on fridays')).toEqual(['can i work from home on fridays']);
  });

  it('so an answer to the first part is incomplete, not off topic, and a refusal is an over-refusal (live, no reference)', async () => {
    // v100 read both questions as one topic: no chunk covered enough of it, the quote of the right
    // sentence was off topic and a refusal was credited. Found on handbook-fresh13 (l217).
    const answer = 'If your role is hybrid, you are expected to work from your base office for at least 2 days each week.';
    const answered = okJudgment(await judge.judge({ question, evidence, answer }));
    expect(answered.answerRelevance).toBe('partial');
    expect(outcomeOf(flagsOf(answered))).toBe('incomplete');
    const refused = okJudgment(await judge.judge({ question, evidence, answer: "I don't know: the provided documents do not cover this." }));
    expect(outcomeOf(flagsOf(refused))).toBe('over_refusal');
  });
});
