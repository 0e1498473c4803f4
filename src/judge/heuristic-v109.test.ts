import { describe, expect, it } from 'vitest';
import { chunkPassage, claimReadings } from '../test-support/judgments.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';

// heuristic-v109: the pronoun "one" in a negated condition ("if you do not have one") stands for
// the noun phrase before it, which the condition negates.
const judge = createHeuristicFaithfulnessJudge();
const mfa = chunkPassage(
  'it#mfa',
  { title: 'IT and Security', section: 'Multi-Factor Authentication', updated: '2025-07-14' },
  'Multi-factor authentication (MFA) is required on all company systems. Use the authenticator app on your company phone or, if you do not have one, on your personal phone. Text message codes are allowed only as a backup method.',
);
const question = "Don't have a work phone. Do I really have to put the authenticator app on my personal phone?";

const verdicts = (answer: string) => claimReadings(judge, question, [mfa], answer);

describe('heuristic-v109: "if you do not have one"', () => {
  it('negates the phrase "one" stands for: a claim negating that phrase states the condition', async () => {
    expect(await verdicts("If you don't have a company phone, you use the authenticator app on your personal phone.")).toEqual([
      "verified: If you don't have a company phone, you use the authenticator app on your personal phone.",
    ]);
  });

  it('a claim stating the opposite is still not verified', async () => {
    const [verdict] = await verdicts("If you don't have a company phone, you can't use the authenticator app.");
    expect(verdict).not.toMatch(/^verified/);
  });

  it('in a contrast, "one" is not read as the whole phrase before it', async () => {
    expect(await verdicts('Text message codes are allowed only as a backup method, not as your main one.')).toEqual([
      'verified: Text message codes are allowed only as a backup method, not as your main one.',
    ]);
  });
});
