import { describe, expect, it } from 'vitest';
import { chunkPassage, claimVerdicts } from '../test-support/judgments.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';
import type { EvidencePassage } from './types.js';

// heuristic-v70: a short sentence whose verb is not in the judge's verb list is no bare answer (METHODOLOGY.md changelog, 2026-12-05).
const judge = createHeuristicFaithfulnessJudge();
const lockers: EvidencePassage[] = [
  chunkPassage('club-rules#lockers-and-towels', { title: 'Club Rules and Facilities', section: 'Lockers and Towels', updated: '2026-07-01' }, 'Day lockers are free and need a £1 coin, which is returned. Bring your own padlock for the open lockers. Towels are not provided; towel hire costs £2 at reception.'),
];
const complaints: EvidencePassage[] = [
  chunkPassage('payments#complaints', { title: 'Payments and Account', section: 'Complaints', updated: '2026-09-01' }, 'If you are unhappy, speak to the club manager first. If it is not resolved, email complaints@pulsefit.example within 28 days; we reply within 10 working days.'),
];

describe('short statements are claims of their own (heuristic-v70)', () => {
  it('a word in -s before a figure: "towel hire costs £2 at reception" is verified by the sentence that states it', async () => {
    // v69: no verb from the list, so a bare answer to "do you give out towels", `absent`: a verbatim quote judged hallucinated.
    expect(await claimVerdicts(judge, 'do you give out towels', lockers, 'Towels are not provided; towel hire costs £2 at reception.')).toEqual(['verified', 'verified']);
    expect(await claimVerdicts(judge, 'do you give out towels', lockers, 'Towels are not provided; towel hire costs £3 at reception.')).toEqual(['verified', 'contradicted']);
  });

  it('a subject pronoun and its verb: "we reply within 10 working days"', async () => {
    expect(await claimVerdicts(judge, 'how do i complain', complaints, 'Email complaints@pulsefit.example within 28 days; we reply within 10 working days.')).toEqual(['verified', 'verified']);
    expect(await claimVerdicts(judge, 'how do i complain', complaints, 'Email complaints@pulsefit.example within 28 days; we reply within 5 working days.')).toEqual(['verified', 'contradicted']);
  });

  it('a bare answer is still read against the question', async () => {
    // "£2" alone, to a question the passage does not answer, stays a bare answer.
    expect(await claimVerdicts(judge, 'how much is a day pass', lockers, '£2.')).not.toEqual(['verified']);
  });
});
