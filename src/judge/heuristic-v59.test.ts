import { describe, expect, it } from 'vitest';
import { chunkPassage, okJudgment } from '../test-support/judgments.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';
import type { EvidencePassage } from './types.js';

// heuristic-v59: a sentence naming a claim's group as a whole backs "All <group> …" (METHODOLOGY.md, "Changes in v59").
const judge = createHeuristicFaithfulnessJudge();
const phones: EvidencePassage[] = [
  chunkPassage('equipment#mobile-phones', { title: 'Equipment', section: 'Mobile Phones', updated: '2025-05-19' }, 'Company mobile phones are provided to employees on an on-call rota, field engineers and members of the Sales team. Reasonable personal use is allowed.'),
];
const verdicts = async (answer: string) => okJudgment(await judge.judge({ question: 'Who gets a company mobile phone?', evidence: phones, answer })).claims.map((claim) => claim.verdict);

describe('a group named as a whole (heuristic-v59)', () => {
  it.each(['All field engineers get a company mobile phone.', 'All members of the Sales team get a company mobile phone.'])('"%s" is verified by a sentence listing that group', async (answer) => {
    // v58: `absent`, "the claim speaks of every case": the sentence had no "every" or "each".
    expect(await verdicts(answer)).toEqual(['verified']);
  });

  it('a group the sentence narrows ("employees on an on-call rota") still does not back "every employee"', async () => {
    expect(await verdicts('Every employee gets a company mobile phone.')).toEqual(['absent']);
  });
});
