import { describe, expect, it } from 'vitest';
import { chunkPassage, okJudgment } from '../test-support/judgments.js';
import { analyze } from './heuristic-analysis.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';

// heuristic-v96: "a hundred", and the British "and" after hundreds or thousands.
const eyeTests = chunkPassage(
  'pension-and-benefits#eye-tests-and-glasses',
  { title: 'Pension and Benefits', section: 'Eye Tests and Glasses', updated: '2025-06-01' },
  'If the optician confirms you need glasses specifically for screen use, we will contribute up to £150 towards them.',
);
const judge = createHeuristicFaithfulnessJudge();

describe('heuristic-v96', () => {
  it('reads "a hundred and twenty quid" as £120 and "five hundred and sixty-two miles" as 562 miles', () => {
    const read = (text: string) => analyze(text).quantities.map(({ quantity }) => (quantity.kind === 'number' ? `${quantity.low} ${quantity.dimension}` : quantity.kind));
    expect(read('A hundred and twenty quid.')).toEqual(['120 GBP']);
    expect(read('five hundred and sixty-two miles')).toEqual(['562 mile']);
    expect(read('thirty-seven and a half hours')).toEqual(['37.5 hour']);
    expect(read('a hundred people and two dogs')).toEqual(['100 count', '2 count']);
  });

  it('"one hundred and fifty pounds" agrees with £150 instead of reading as £100 and £50', async () => {
    const judgment = okJudgment(await judge.judge({ question: 'how much do i get towards glasses for screen work?', evidence: [eyeTests], answer: "They'll put up to one hundred and fifty pounds towards your glasses." }));
    expect(judgment.claims.map((claim) => claim.verdict)).toEqual(['verified']);
  });
});
