import { describe, expect, it } from 'vitest';
import { chunkPassage, okJudgment } from '../test-support/judgments.js';
import { flagsOf, outcomeOf } from '../contract/outcome.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';

// heuristic-v100: a word the term-coverage gate reads as generic ("stuff", "loads", "gone") weighs
// in the question's topic as a word the evidence holds, not double where no passage has it.
const judge = createHeuristicFaithfulnessJudge();
const source = { title: 'IT and Security', updated: '2025-07-14' };
const evidence = [
  chunkPassage('it-and-security#locking-your-screen', { ...source, section: 'Locking Your Screen' }, 'Lock your screen whenever you leave your device, even for a moment (Windows key + L, or Control + Command + Q on a Mac). Devices lock automatically after 5 minutes without activity.'),
  chunkPassage('it-and-security#passwords-and-passphrases', { ...source, section: 'Passwords and Passphrases' }, 'Passwords for standard user accounts must be at least 14 characters long. Do not reuse a password you use anywhere else.'),
];
const answer = 'Devices lock automatically after 5 minutes without activity.';

describe('heuristic-v100', () => {
  it('fillers no passage holds ("ugh", "seriously") do not leave the chunk that answers unrelated (live, no reference)', async () => {
    // v99 weighed each filler double, as the thing an unanswerable question asks about: the chunk
    // covered 33% of the topic (unrelated); now 50%. Found on handbook-fresh13 (l214, l216).
    const judgment = okJudgment(await judge.judge({ question: 'ugh seriously, how long before my screen locks?', evidence, answer }));
    expect(judgment.contexts.find((context) => context.chunkId === 'it-and-security#locking-your-screen')?.verdict).not.toBe('unrelated');
    expect(judgment.contexts.find((context) => context.chunkId === 'it-and-security#passwords-and-passphrases')?.verdict).toBe('unrelated');
  });

  it('a word no passage holds that is not generic still weighs double: a refusal to an unanswerable question stays a correct refusal', async () => {
    const judgment = okJudgment(await judge.judge({ question: 'can i get my laptop insured on the company policy when i take it on holiday?', evidence, answer: "I don't know: the provided documents do not cover this." }));
    expect(outcomeOf(flagsOf(judgment))).toBe('correct_refusal');
  });
});
