import { describe, expect, it } from 'vitest';
import { chunkPassage, claimReadings, okJudgment } from '../test-support/judgments.js';
import { analyze } from './heuristic-analysis.js';
import { claimedComparisons, situatedFigure } from './heuristic-arithmetic.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';

// heuristic-v108: the asker's own figures. A figure the question gave, restated in the answer as the
// asker's situation ("at 8 months you don't meet that yet") needs no sentence; restated as what the
// rules give ("Yes, you get 16 weeks") it still does. A comparison the claim makes between two of
// its figures ("£80 is over the £50 …") is checked as arithmetic: when it holds, the asker's figure
// is theirs and the bound is the rules' figure; when it does not ("£80 is under the £50 limit"), the
// claim is contradicted, whatever sentences state each figure.
const judge = createHeuristicFaithfulnessJudge();
const gifts = chunkPassage(
  'gifts#giving',
  { title: 'Gifts and Hospitality', section: 'Giving Gifts and Hospitality', updated: '2025-01-01' },
  'You may give gifts worth up to £50 per person to customers or partners without approval. Larger gifts need your director\'s approval in advance and must be registered.',
);
const parental = chunkPassage(
  'leave#parental',
  { title: 'Leave Policy', section: 'Parental Leave', updated: '2026-01-12' },
  'Birth parents may take up to 20 weeks of parental leave at full pay for children born on or after 1 January 2026.',
);

describe('heuristic-v108: the asker\'s figure, restated as theirs', () => {
  it('needs no sentence of the evidence', async () => {
    const question = 'Want to send a customer a christmas gift worth about £80. Do I need anyone to ok it first?';
    expect(await claimReadings(judge, question, [gifts], "Yes, your £80 gift needs your director's approval in advance.")).toEqual(["verified: Yes, your £80 gift needs your director's approval in advance."]);
    // Stated as what the rules allow, the asker's figure is still compared with the rules' figure.
    expect(await claimReadings(judge, question, [gifts], 'No, you may give gifts worth up to £80 without approval.')).toEqual(['contradicted: No, you may give gifts worth up to £80 without approval.']);
  });

  it('is not verified by the question when the answer states it as the rules\' figure', async () => {
    const [verdict] = await claimReadings(judge, 'A colleague told me Harbourline gives 16 weeks of parental leave at full pay. Is that still right?', [parental], 'Yes, birth parents get 16 weeks of parental leave at full pay.');
    expect(verdict).not.toMatch(/^verified/);
    // "your 16 weeks" is the asker's own only where no sentence gives another figure for it.
    const [yours] = await claimReadings(judge, 'A colleague told me Harbourline gives 16 weeks of parental leave at full pay. Is that still right?', [parental], 'Yes, your 16 weeks of parental leave are at full pay.');
    expect(yours).not.toMatch(/^verified/);
  });

  it('reads the words right before the figure, in its own clause', () => {
    const figure = (text: string, written: string) => analyze(text).quantities.map((entry) => entry.quantity).find((quantity) => quantity.text === written)!;
    const cases: [string, string, string | null][] = [
      ['at 8 months you don\'t meet that yet', '8 months', 'situation'],
      ['With 6 years\' service they\'d have to give you 6 weeks', '6 years', 'situation'],
      ['If you put in 6%, the company puts in 8%', '6%', 'situation'],
      ['as you\'ve been off two months, you\'ll agree a plan', 'two months', 'situation'],
      ['like your £80 one', '£80', 'situation'],
      ['you get 16 weeks at full pay', '16 weeks', null],
      ['the company puts in 8%', '8%', null],
    ];
    for (const [text, written, expected] of cases) {
      const quantity = figure(text, written);
      expect(situatedFigure(text, quantity, claimedComparisons(text, [quantity])), text).toBe(expected);
    }
  });
});

describe('heuristic-v108: a comparison between two of the claim\'s figures', () => {
  const question = 'Want to send a customer a christmas gift worth about £80. Do I need anyone to ok it first?';

  it('when it holds, the asker\'s figure is theirs and the bound agrees as itself or as the number it names', async () => {
    expect(await claimReadings(judge, question, [gifts], 'Yes, £80 is over the £50 you can give without approval.')).toEqual(['verified: Yes, £80 is over the £50 you can give without approval.']);
    const register = chunkPassage('gifts#receiving', { title: 'Gifts and Hospitality', section: 'Receiving Gifts', updated: '2025-01-01' }, 'Any gift worth more than £50 must be recorded in the Gifts Register within 5 working days.');
    expect(await claimReadings(judge, 'A supplier sent me wine worth about £80. Do I have to record it?', [register], 'Yes, £80 is over £50, so it must be recorded in the Gifts Register within 5 working days.')).toEqual([
      'verified: Yes, £80 is over £50',
      'verified: it must be recorded in the Gifts Register within 5 working days.',
    ]);
  });

  it('when it does not hold, the claim is contradicted', async () => {
    const judgment = okJudgment(await judge.judge({ question, evidence: [gifts], answer: 'No, £80 is under the £50 you can give without approval.' }));
    expect(judgment.claims[0]).toMatchObject({ verdict: 'contradicted', evidenceChunkId: 'gifts#giving' });
    expect(judgment.claims[0]!.note).toContain('£80 is not under the £50');
    // A wrong bound is not verified either.
    expect(await claimReadings(judge, question, [gifts], 'Yes, £80 is over the £60 you can give without approval.')).not.toEqual(['verified: Yes, £80 is over the £60 you can give without approval.']);
  });

  it('compares only figures of one dimension, with the bound\'s own inclusivity', () => {
    const comparisons = (text: string) => claimedComparisons(text, analyze(text).quantities.map((entry) => entry.quantity)).map((comparison) => [comparison.figure.text, comparison.bound.text, comparison.holds]);
    expect(comparisons('£80 is over the £50 limit')).toEqual([['£80', 'over the £50', true]]);
    expect(comparisons('£40 is over the £50 limit')).toEqual([['£40', 'over the £50', false]]);
    expect(comparisons('£80 is within the £100 limit')).toEqual([['£80', 'within the £100', true]]);
    expect(comparisons('£50 is under £50')).toEqual([['£50', 'under £50', false]]);
    // Weeks against working days: not the claim's arithmetic to check.
    expect(comparisons('Three weeks is more than 10 working days')).toEqual([]);
    // Two figures side by side without "is": no comparison.
    expect(comparisons('You get £80 and up to £50 more')).toEqual([]);
  });
});
