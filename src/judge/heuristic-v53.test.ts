import { describe, expect, it } from 'vitest';
import { chunkPassage, claimVerdicts } from '../test-support/judgments.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';
import type { EvidencePassage } from './types.js';

// heuristic-v53: a short instruction is a claim of its own, not a bare answer (METHODOLOGY.md, "Changes in v53").
const judge = createHeuristicFaithfulnessJudge();
const breach: EvidencePassage[] = [
  chunkPassage('data-protection#reporting-a-data-breach', { title: 'Data Protection', section: 'Reporting a Data Breach', updated: '2025-03-01' }, 'A personal data breach includes sending personal data to the wrong person, losing a device or paper file, or unauthorised access to a system. Report any suspected breach to the Privacy team within 1 hour of discovering it, using privacy@harbourline.co.uk.'),
];
// A scenario question whose words the policy states generically: the passage does not look "about" it.
const question = 'I accidentally emailed a payslip to the wrong person. What should I do?';

describe('short instructions (heuristic-v53)', () => {
  it.each(['Email privacy@harbourline.co.uk within 1 hour.', 'Tell the Privacy team within 1 hour.'])('"%s" is verified by the sentence that states it', async (answer) => {
    // v52: a bare answer (no verb in the list), `absent`: "the answer does not appear in a passage about the question".
    expect(await claimVerdicts(judge, question, breach, answer)).toEqual(['verified']);
  });

  it('a wrong deadline is still contradicted', async () => {
    expect(await claimVerdicts(judge, question, breach, 'Email privacy@harbourline.co.uk within 2 hours.')).toEqual(['contradicted']);
  });
});
