import { describe, expect, it } from 'vitest';
import { flagsOf, outcomeOf } from '../contract/outcome.js';
import { withoutPersonalDetails } from './heuristic-context.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';
import { judgeTrace } from './faithfulness-trace.js';
import { createLocalChatModel } from '../providers/local/generator.js';
import { createRagPipeline } from '../rag/pipeline.js';
import { handbookIndex } from '../test-support/fixtures.js';

// heuristic-v103: a sentence that only gives a redacted personal detail says who asks, not what.
// Found by probing v102 with details appended to the handbook questions (METHODOLOGY, 2026-12-06).
const judge = createHeuristicFaithfulnessJudge();
describe('heuristic-v103', () => {
  it.each([
    ['What is the mileage rate for a car? My email is [email:0f3e2a1b].', 'What is the mileage rate for a car?'],
    ['What is the mileage rate for a car? call me on [phone:c2a8283c]', 'What is the mileage rate for a car?'],
    ['Hi, this is Jo ([email:fe0a1b2c]). What is the mileage rate for a car?', 'What is the mileage rate for a car?'],
    // A sentence that asks keeps its words; only the placeholder goes.
    ['Can you email the mileage rates to [email:fe0a1b2c]?', 'Can you email the mileage rates to  ?'],
    // Nothing but details: the question is kept, without its placeholders.
    ['My number is [phone:c2a8283c].', 'My number is  .'],
    // No placeholder: as it is.
    ['What is the mileage rate? My email is below.', 'What is the mileage rate? My email is below.'],
  ])('withoutPersonalDetails(%j) → %j', (question, expected) => {
    expect(withoutPersonalDetails(question)).toBe(expected);
  });

  it.each([
    ["What's the minimum length for my work password?", "What's the minimum length for my work password? My email is [email:973d10ff]."],
    ["What's the minimum length for my work password?", "What's the minimum length for my work password? thanks, jo - [phone:09bacdfc]"],
    ["What's the motorbike mileage rate?", "What's the motorbike mileage rate? My email is [email:973d10ff]."],
    ['How much life insurance cover do I get through work?', 'How much life insurance cover do I get through work? thanks, jo - [phone:09bacdfc]'],
  ])('the offline pipeline\'s answer to %j, asked as %j (as the capture stores it), is judged the same: correct (v102: off_topic)', async (question, asked) => {
    const trace = await createRagPipeline({ index: await handbookIndex(), chat: createLocalChatModel() }).ask(question);
    const plain = await judgeTrace(judge, trace);
    const detailed = await judgeTrace(judge, { ...trace, query: asked });
    expect(outcomeOf(flagsOf(plain))).toBe('correct');
    expect(outcomeOf(flagsOf(detailed))).toBe('correct');
  });
});
