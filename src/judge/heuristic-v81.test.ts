import { describe, expect, it } from 'vitest';
import { outcomeOf } from '../contract/outcome.js';
import { chunkPassage, okJudgment } from '../test-support/judgments.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';

// heuristic-v81: found on a public library's pages written before the pipeline ran on them (fixtures/library; METHODOLOGY.md changelog, 2026-12-05).
const judge = createHeuristicFaithfulnessJudge();
const meta = (title: string, section: string) => ({ title, section, updated: '2026-07-01' });
const computers = 'Computers, wifi and printing';
const evidence = [
  chunkPassage('computers-and-printing#wifi', meta(computers, 'Wifi'), 'Free wifi is available in every branch, and you do not need to be a member. Connect to the network LibraryFree and accept the terms.'),
  chunkPassage('computers-and-printing#public-computers', meta(computers, 'Public computers'), 'Members can use a public computer free for up to 2 hours a day. Visitors who are not members can buy a 1-hour guest pass for £1.50.'),
  chunkPassage('spaces-and-events#accessibility', meta('Spaces, visits and events', 'Accessibility'), 'All branches have step-free access and an accessible toilet. Assistance dogs are welcome in all branches; other dogs are not allowed.'),
];
const verdict = async (question: string, answer: string) => okJudgment(await judge.judge({ question, evidence, answer }));

describe('heuristic-v81', () => {
  it('"all" before a clause boundary speaks of every case even when "other" follows it: a verbatim quote is verified', async () => {
    // v80: `hallucinated`: "all branches; other dogs" was read as "all … other", a frequency like "every other week".
    const judgment = await verdict('are dogs allowed in the library', 'Assistance dogs are welcome in all branches; other dogs are not allowed.');
    expect(judgment.claims.map((claim) => claim.verdict)).toEqual(['verified', 'verified']);
    expect(outcomeOf(judgment)).toBe('correct');
  });

  it('the rest of the question answered while another passage answers the whole of it is off topic; a source citation is not what the answer says', async () => {
    // v80: `correct`: "members" was half the topic, and the citation's title held "wifi".
    const offTopic = await verdict('do i need to be a member to use the wifi', 'Members can use a public computer free for up to 2 hours a day. (Computers, wifi and printing, updated 2026-07-01)');
    expect(offTopic.answerRelevance).toBe('off_topic');
    expect(outcomeOf(offTopic)).toBe('off_topic');
    expect(outcomeOf(await verdict('do i need to be a member to use the wifi', 'Free wifi is available in every branch, and you do not need to be a member. (Computers, wifi and printing, updated 2026-07-01)'))).toBe('correct');
  });

  it('"when" after another question word states a condition, not a time asked for', async () => {
    // v80: `incomplete`: "when I cancel" made it a time question, which an answer without a date
    // or figure only half answers (a live answer had passed on its citation's "updated" date).
    const plans = [chunkPassage('plans-and-billing#cancelling', meta('Plans and Billing', 'Cancelling'), 'You can cancel at any time from Settings > Billing. Your plan stays active until the end of the current billing period.')];
    const judged = async (question: string, answer: string) => okJudgment(await judge.judge({ question, evidence: plans, answer }));
    expect(outcomeOf(await judged('what happens to my plan when i cancel', 'Your plan stays active until the end of the current billing period.'))).toBe('correct');
    // A sentence that starts with it, or a question about it, still asks for a time.
    expect((await judged('when does my plan end if i cancel', 'You can cancel at any time from Settings > Billing.')).answerRelevance).toBe('partial');
    expect((await judged('can you tell me when my plan ends if i cancel', 'You can cancel at any time from Settings > Billing.')).answerRelevance).toBe('partial');
  });
});
