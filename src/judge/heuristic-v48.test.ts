import { describe, expect, it } from 'vitest';
import { chunkPassage, claimVerdicts } from '../test-support/judgments.js';
import { splitAnswer } from './claims.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';
import type { EvidencePassage } from './types.js';

// heuristic-v48: a purpose is not negated with its verb; chat yes/no; attitude words (METHODOLOGY.md, "Changes in v48").
const judge = createHeuristicFaithfulnessJudge();
const training: EvidencePassage[] = [
  chunkPassage('training-and-development#training-costing-1-000-or-more', { title: 'Training and Development', section: 'Training Costing £1,000 or More', updated: '2025-09-01' }, 'Training that costs £1,000 or more in total, including VAT and exam fees, needs written approval from your manager before you book or commit to it. You must not split a course into smaller bookings to stay under the £1,000 threshold.'),
];
const question = 'Do I need my manager to approve a £1,200 course?';

describe('a purpose after a negated verb (heuristic-v48)', () => {
  it('"to stay under the threshold" is not negated: a claim about the threshold is not the opposite of the rule', async () => {
    // v47: contradicted ("the evidence negates threshold, the claim does not").
    expect(await claimVerdicts(judge, question, training, "It's over the £1,000 threshold.")).not.toContain('contradicted');
  });

  it('what the negation rules out still contradicts', async () => {
    expect(await claimVerdicts(judge, question, training, 'You can split a course into smaller bookings to stay under the £1,000 threshold.')).toEqual(['contradicted']);
  });
});

describe('chat yes and no, and the speaker\'s attitude (heuristic-v48)', () => {
  it('reads "Yep"/"Nope" as "Yes"/"No"', () => {
    expect(splitAnswer('Yep, you need written approval. Nope, not by phone.').claims).toEqual(['Yes, you need written approval.', 'No, not by phone.']);
    expect(splitAnswer('The yeah-sayers win.').claims).toEqual(['The yeah-sayers win.']);
  });

  it('an attitude word is not looked for in the evidence', async () => {
    // v47: absent ("lacks: Unfortunately").
    expect(await claimVerdicts(judge, question, training, 'Unfortunately it needs written approval.')).toEqual(['verified']);
  });
});
