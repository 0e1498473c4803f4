import { describe, expect, it } from 'vitest';
import { chunkPassage, okJudgment } from '../test-support/judgments.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';
import { join } from 'node:path';
import { flagsOf, outcomeOf } from '../contract/outcome.js';
import { loadLabelFile } from '../../bench/lib/judge-labels.js';
import { labelEvidence } from '../../bench/lib/judge-label-bench.js';

// heuristic-v87: an answer in the user's words is verified through the reference answer that a
// person wrote from the same sources (offline evals), with guards; words of certainty must be found.
const passwords = chunkPassage(
  'it-and-security#password-changes',
  { title: 'IT and Security', section: 'Password Changes', updated: '2025-07-14' },
  'Passwords for standard user accounts do not expire on a fixed schedule. You must change your password immediately if you think someone else may know it, if you entered it on a suspicious website, or if IT asks you to.\n\nPrivileged accounts, such as administrator and production access accounts, are treated differently. Their passwords must be at least 20 characters long and are rotated every 90 days through the privileged access vault.',
);
const question = 'Do I have to change my laptop password every 90 days?';
const reference =
  'No. Standard user account passwords do not expire on a fixed schedule; you change them only if you think they are compromised or IT asks. The 90-day rotation applies only to privileged accounts such as administrator and production access accounts.';
const answer = "No, normal account passwords don't expire on a schedule; you only change it if you think it's been compromised or IT asks. The 90-day rotation is just for privileged accounts.";

describe('heuristic-v87', () => {
  it('verifies a claim in the user\'s words through the reference claim a retrieved chunk states', async () => {
    const judge = createHeuristicFaithfulnessJudge();
    // Without the reference (the live judge), "compromised" is in no sentence: the claim is absent.
    const live = okJudgment(await judge.judge({ question, evidence: [passwords], answer }));
    expect(live.claims.map((claim) => claim.verdict)).toEqual(['verified', 'absent', 'verified']);
    const offline = okJudgment(await judge.judge({ question, evidence: [passwords], answer, reference }));
    expect(offline.claims.map((claim) => claim.verdict)).toEqual(['verified', 'verified', 'verified']);
    expect(offline.claims[1]!.evidenceChunkId).toBe('it-and-security#password-changes');
    expect(offline.claims[1]!.note).toContain('reference answer');
    expect(offline.hallucinated).toBe(false);
  });

  it('does not verify an answer that opens with the opposite of the reference', async () => {
    const judgment = okJudgment(
      await createHeuristicFaithfulnessJudge().judge({ question, evidence: [passwords], answer: "Yes, you only change it if you think it's been compromised or IT asks.", reference }),
    );
    expect(judgment.claims.map((claim) => claim.verdict)).toEqual(['absent']);
    expect(judgment.hallucinated).toBe(true);
  });

  it('does not verify a claim that another claim of the reference disagrees with', async () => {
    const allowance = chunkPassage(
      'remote-and-hybrid-working#home-working-allowance',
      { title: 'Remote and Hybrid Working', section: 'Home Working Allowance', updated: '2025-10-01' },
      'From 1 October 2025, employees on a hybrid or home-based contract receive a home working allowance of £30 per month, paid through payroll, towards heating, electricity and broadband. This replaces the previous allowance of £20 per month, which applied until 30 September 2025.',
    );
    const judgment = okJudgment(
      await createHeuristicFaithfulnessJudge().judge({
        question: "I'm checking an old payslip: what was the home working allowance in August 2025?",
        evidence: [allowance],
        answer: 'In August 2025 it was £30 a month.',
        reference: 'In August 2025 the allowance was £20 per month. It rose to £30 per month from 1 October 2025 (the £20 rate applied until 30 September 2025).',
      }),
    );
    expect(judgment.claims[0]!.verdict).not.toBe('verified');
    expect(judgment.hallucinated).toBe(true);
  });

  it('does not verify through a reference claim grounded only in a chunk the question is not about', async () => {
    // Retrieval missed the dependant-leave section (the item's note says so); the reference-recall
    // measure alone grounds the reference's claim in a section the question's words do not reach.
    const item = loadLabelFile(join(import.meta.dirname, '../../fixtures/judge-labels/handbook-fresh2.jsonl')).items.find((entry) => entry.id === 'l009-should_have_refused-1')!;
    const judgment = okJudgment(await createHeuristicFaithfulnessJudge().judge({ question: item.question, evidence: labelEvidence(item), answer: item.answer, reference: item.referenceAnswer }));
    expect(judgment.claims.map((claim) => claim.verdict)).toEqual(['absent']);
    expect(outcomeOf(flagsOf(judgment))).toBe('hallucinated');
  });

  it('a word of certainty the sentence does not hold leaves the claim unverified', async () => {
    const pip = chunkPassage(
      'performance-reviews#performance-improvement-plans',
      { title: 'Performance Reviews', section: 'Performance Improvement Plans', updated: '2024-12-09' },
      'If you receive a rating of 1, or there are serious concerns about your performance during the year, your manager may put you on a performance improvement plan (PIP).',
    );
    const judge = createHeuristicFaithfulnessJudge();
    const question = 'What happens if I get a 1 in my review?';
    const certain = okJudgment(await judge.judge({ question, evidence: [pip], answer: 'A rating of 1 automatically puts you on a performance improvement plan.' }));
    expect(certain.claims.map((claim) => claim.verdict)).toEqual(['absent']);
    const may = okJudgment(await judge.judge({ question, evidence: [pip], answer: 'With a rating of 1 your manager may put you on a performance improvement plan.' }));
    expect(may.claims.map((claim) => claim.verdict)).toEqual(['verified']);
  });
});
