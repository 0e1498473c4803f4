import { describe, expect, it } from 'vitest';
import { chunkPassage, okJudgment } from '../test-support/judgments.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';
import type { EvidencePassage } from './types.js';

// heuristic-v58: a clause of light words only ("Probably yes.", "Maybe.") states nothing (METHODOLOGY.md, "Changes in v58").
const judge = createHeuristicFaithfulnessJudge();
const partner: EvidencePassage[] = [
  chunkPassage('leave-policy#partner-leave', { title: 'Leave Policy', section: 'Partner Leave', updated: '2026-01-12' }, 'The partner of a birth parent is entitled to 4 weeks of partner leave at full pay. It can be taken as one block of 4 weeks or two blocks of 2 weeks.'),
];
const question = 'Can I take partner leave in two blocks?';

describe('clauses that state nothing (heuristic-v58)', () => {
  it.each(['Probably yes.', 'Maybe.', 'Yes, probably.'])('"%s" is no claim, like a bare "Yes."', async (answer) => {
    // v57: `verified`, "the answer appears in leave-policy#partner-leave": every one of its words is light, so "found" anywhere.
    expect(okJudgment(await judge.judge({ question, evidence: partner, answer })).claims).toEqual([]);
  });

  it('a reference answer\'s "Probably yes" grounds no chunk: a refusal against a chunk that does not hold the answer stays correct', async () => {
    const parental: EvidencePassage = chunkPassage('leave-policy#parental-leave', { title: 'Leave Policy', section: 'Parental Leave', updated: '2026-01-12' }, 'A birth parent is entitled to 20 weeks of parental leave at full pay, followed by up to 19 weeks at the statutory rate.');
    const judged = okJudgment(await judge.judge({ question, evidence: [parental], answer: "I don't know.", reference: 'Probably yes.' }));
    // v57: the chunk "stated the reference answer's claim "Probably yes."" and answered, so the refusal was an over-refusal.
    expect(judged.contexts.map((context) => context.verdict)).toEqual(['unrelated']);
    expect(judged.refusalVerdict).toBe('correct_refusal');
  });
});
