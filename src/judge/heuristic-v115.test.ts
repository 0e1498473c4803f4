import { describe, expect, it } from 'vitest';
import { flagsOf, outcomeOf } from '../contract/outcome.js';
import { chunkPassage, okJudgment } from '../test-support/judgments.js';
import { splitAnswer } from './claims.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';

// heuristic-v115: a condition after its main clause, behind a comma ("…, as long as …", "…,
// provided …"), is a claim of its own, so each half is checked against the sentence that states it.
const judge = createHeuristicFaithfulnessJudge();
const abroad = chunkPassage(
  'remote-working#working-abroad',
  { title: 'Remote Working', section: 'Working From Abroad', updated: '2025-10-01' },
  'You may work from outside the UK for up to 20 working days in total in each calendar year. Only days on which you work count; days of holiday abroad do not.\n\nEvery period of working abroad must be approved in advance by both your line manager and the People team.',
);
const question = 'how long can i work abroad for?';

describe('heuristic-v115: a condition after its main clause', () => {
  it('splits "…, as long as …" and "…, provided …" in answers, not in reference answers', () => {
    expect(splitAnswer('You can work abroad for 20 days a year, as long as your manager agrees.').claims).toEqual(['You can work abroad for 20 days a year', 'your manager agrees.']);
    expect(splitAnswer('You can claim it, provided that you keep the receipt.').claims).toEqual(['You can claim it', 'you keep the receipt.']);
    expect(splitAnswer('You can work abroad for 20 days a year, as long as your manager agrees.', { subjectClauses: false }).claims).toHaveLength(1);
    // "as long as" without its comma opens no claim of its own.
    expect(splitAnswer('You can stay as long as you like.').claims).toHaveLength(1);
  });

  it('verifies a limit and its approval that the passage states in sentences apart', async () => {
    const judgment = okJudgment(await judge.judge({ question, evidence: [abroad], answer: 'Yes, for up to 20 working days a year in total, as long as your manager and the People team both approve it in advance.' }));
    expect(judgment.claims.map((claim) => claim.verdict)).toEqual(['verified', 'verified']);
    expect(outcomeOf(flagsOf(judgment))).toBe('correct');
  });

  it('still finds a made-up condition and a wrong limit', async () => {
    const madeUp = okJudgment(await judge.judge({ question, evidence: [abroad], answer: 'Yes, for up to 20 working days a year in total, as long as you email the finance director a week before.' }));
    expect(madeUp.claims.map((claim) => claim.verdict)).toEqual(['verified', 'absent']);
    expect(outcomeOf(flagsOf(madeUp))).toBe('hallucinated');
    const wrongLimit = okJudgment(await judge.judge({ question, evidence: [abroad], answer: 'Yes, for up to 40 working days a year in total, as long as your manager and the People team both approve it in advance.' }));
    expect(wrongLimit.claims[0]!.verdict).toBe('contradicted');
    expect(outcomeOf(flagsOf(wrongLimit))).toBe('hallucinated');
  });
});
