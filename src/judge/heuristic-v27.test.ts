import { describe, expect, it } from 'vitest';
import { okJudgment } from '../test-support/judgments.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';
import type { EvidencePassage } from './types.js';

// heuristic-v27: a bare answer written as a code of single letters (METHODOLOGY.md, "Changes in v27").
const judge = createHeuristicFaithfulnessJudge();

const knowledge: EvidencePassage[] = [
  {
    id: 'knowledge',
    kind: 'chunk',
    text: 'F.E.A.R. is a 2005 first-person shooter published by Sierra Entertainment. Annet Artani said the song Everytime was inspired by R&B ballads. The A.B.C. Trust funds it.',
  },
];

async function outcome(question: string, answer: string) {
  const judgment = okJudgment(await judge.judge({ question, evidence: knowledge, answer }));
  return { verdicts: judgment.claims.map((claim) => claim.verdict), undetermined: judgment.undetermined, hallucinated: judgment.hallucinated };
}

describe('letter codes as bare answers (heuristic-v27)', () => {
  it.each([
    ['What game did Sierra Entertainment publish?', 'F.E.A.R.'],
    ['What game did Sierra Entertainment publish?', 'F.E.A.R'],
    ['What genre inspired the song Everytime?', 'R&B'],
    ['What genre inspired the song Everytime?', 'r&b.'],
  ])('%s "%s" is verified where the passage writes it', async (question, answer) => {
    expect(await outcome(question, answer)).toEqual({ verdicts: ['verified'], undetermined: false, hallucinated: false });
  });

  it.each([
    // Part of a longer code, or not written at all: still unchecked, never a fabrication.
    ['What game did Sierra Entertainment publish?', 'E.A.R.'],
    ['What game did Sierra Entertainment publish?', 'A.B.'],
    ['What genre inspired the song Everytime?', 'U.S.'],
    // Written in the passage, but the passage is not about the question.
    ['What is the capital of Peru?', 'R&B'],
    // Not a letter code: nothing to check, as before.
    ['Did Sierra Entertainment publish it?', 'Yes.'],
  ])('%s "%s" stays undetermined', async (question, answer) => {
    expect(await outcome(question, answer)).toEqual({ verdicts: [], undetermined: true, hallucinated: false });
  });
});
