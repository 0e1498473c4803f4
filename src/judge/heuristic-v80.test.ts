import { describe, expect, it } from 'vitest';
import { outcomeOf } from '../contract/outcome.js';
import { chunkPassage, okJudgment } from '../test-support/judgments.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';

// heuristic-v80: found on a university's IT pages written before the pipeline ran on them (fixtures/campus-it; METHODOLOGY.md changelog, 2026-12-05).
const judge = createHeuristicFaithfulnessJudge();
const meta = (title: string, section: string) => ({ title, section, updated: '2026-09-15' });
const evidence = [
  chunkPassage('wifi-and-printing#printing', meta('Wi-Fi and printing', 'Printing'), 'Printing costs 5p per black and white page and 20p per colour page, paid from your print credit.'),
  chunkPassage('wifi-and-printing#scanning', meta('Wi-Fi and printing', 'Scanning'), 'Scanning on campus printers is free. Scans are sent to your university email address.'),
  chunkPassage('accounts#activating-your-account', meta('Your university account', 'Activating your account'), 'New students activate their account with their student number. Activation links expire after 14 days.'),
];
const verdict = async (question: string, answer: string) => okJudgment(await judge.judge({ question, evidence, answer }));

describe('heuristic-v80', () => {
  it('the subject of the asked verb must be there: what printing costs does not answer "does scanning cost anything"', async () => {
    // v79: `correct`: "cost" was half the topic, and half was enough.
    expect((await verdict('does scanning cost anything', 'Printing costs 5p per black and white page and 20p per colour page.')).answerRelevance).toBe('off_topic');
    expect(outcomeOf(await verdict('does scanning cost anything', 'Scanning on campus printers is free.'))).toBe('correct');
  });

  it('"anymore" is how a question is asked', async () => {
    // v79: `off_topic`: "anymore" weighed as a topic word no passage holds.
    expect(outcomeOf(await verdict('my activation link doesnt work anymore', 'Activation links expire after 14 days.'))).toBe('correct');
  });
});
