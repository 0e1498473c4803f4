import { describe, expect, it } from 'vitest';
import { chunkPassage, claimVerdicts } from '../test-support/judgments.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';
import type { EvidencePassage } from './types.js';

// heuristic-v55: a claim about every case needs a sentence about every case (METHODOLOGY.md, "Changes in v55").
const judge = createHeuristicFaithfulnessJudge();
const passage = (id: string, section: string, body: string): EvidencePassage[] => [chunkPassage(id, { title: 'Handbook', section, updated: '2025-11-03' }, body)];
const verdicts = (question: string, evidence: EvidencePassage[], answer: string) => claimVerdicts(judge, question, evidence, answer);

const training = passage('training-and-development#training-costing-1-000-or-more', 'Training Costing £1,000 or More', 'Training costing £1,000 or more needs written approval from your manager before you book it.');
const passwords = passage(
  'it-and-security#password-changes',
  'Password Changes',
  'Passwords for standard user accounts do not expire on a fixed schedule. Privileged accounts, such as administrator and production access accounts, are treated differently. Their passwords must be at least 20 characters long and are rotated every 90 days through the privileged access vault.',
);
const buddies = passage('onboarding#buddy-scheme', 'Buddy Scheme', 'Each new starter is paired with a buddy from a different team for their first 3 months.');

describe('claims about every case (heuristic-v55)', () => {
  it('"every course needs written approval" is not stated by the rule for courses of £1,000 or more', async () => {
    // v54: `verified` (every word and no figure to compare), so the answer passed as correct.
    expect(await verdicts('Do I need my manager’s approval for every training course?', training, 'Yes, every course needs your manager’s written approval before you book it.')).toEqual(['absent']);
    expect(await verdicts('Do I have to change my password every 90 days?', passwords, 'Yes, all passwords must be changed every 90 days.')).toEqual(['absent']);
  });

  it('keeps "every" that says how often, the same condition restated, and a sentence that speaks of each case', async () => {
    expect(await verdicts('Do I need approval for training?', training, 'Every course costing £1,000 or more needs written approval from your manager.')).toEqual(['verified']);
    expect(await verdicts('How often are admin passwords rotated?', passwords, 'Privileged account passwords are rotated every 90 days.')).toEqual(['verified']);
    expect(await verdicts('Do new starters get a buddy?', buddies, 'Yes, every new starter gets a buddy from a different team for their first 3 months.')).toEqual(['verified']);
  });
});
