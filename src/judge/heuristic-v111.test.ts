import { describe, expect, it } from 'vitest';
import { flagsOf, outcomeOf } from '../contract/outcome.js';
import { chunkPassage, okJudgment } from '../test-support/judgments.js';
import { collocationBound, heldOnlyInTerm } from './heuristic-collocations.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';

// heuristic-v111: a word written only as the head of a two-word term ("bank holiday") does not hold the question's word ("holiday").
const judge = createHeuristicFaithfulnessJudge();
const leave = { title: 'Leave Policy', section: '', updated: '2026-01-12' };
const bankHolidays = chunkPassage(
  'leave-policy#bank-holidays',
  { ...leave, section: 'Bank Holidays' },
  'If you are asked to work on a bank holiday, you may take another day off instead, within 3 months. Part-time employees receive a pro rata bank holiday entitlement.',
);
const carryOver = chunkPassage(
  'leave-policy#carrying-over-annual-leave',
  { ...leave, section: 'Carrying Over Annual Leave' },
  'You may carry up to 5 days of unused annual leave into the next leave year. Carried-over days must be taken by 31 March, or they are lost.',
);
const entitlement = chunkPassage(
  'leave-policy#annual-leave-entitlement',
  { ...leave, section: 'Annual Leave Entitlement' },
  'Full-time employees receive 25 days of annual leave each year, plus the 8 bank holidays in England and Wales.',
);

const outcome = async (question: string, answer: string) => outcomeOf(flagsOf(okJudgment(await judge.judge({ question, evidence: [bankHolidays, carryOver, entitlement], answer }))));

describe('heuristic-v111: a word inside a two-word term', () => {
  it('reads the head of a term WordNet lists as bound to its first word, and the first word as its own', () => {
    const bound = collocationBound('If you are asked to work on a bank holiday, you may take another day off instead.');
    expect([...bound.keys()].sort()).toEqual(['holidai', 'off']);
    expect([...bound.get('holidai')!]).toEqual(['bank']);
    // Used on its own anywhere in the text, a word is free.
    expect(collocationBound('A bank holiday is a holiday.').has('holidai')).toBe(false);
    expect(collocationBound('Offices close between Christmas Day and New Year\'s Day.').has('christma')).toBe(false);
    expect(heldOnlyInTerm('work on a bank holiday', 'holidai', new Set(['holidai', 'dai']))).toBe(true);
    expect(heldOnlyInTerm('work on a bank holiday', 'holidai', new Set(['bank', 'holidai']))).toBe(false);
  });

  it('the bank-holiday rule does not answer a question about holiday, as it did (judged correct on the README walk)', async () => {
    expect(await outcome('Can I carry over holiday?', 'If you are asked to work on a bank holiday, you may take another day off instead, within 3 months.')).toBe('off_topic');
    // The bank-holiday sentence no longer holds the question's "holiday": it covers "days" alone.
    const judgment = okJudgment(await judge.judge({ question: 'How many days holiday do I get?', evidence: [bankHolidays], answer: 'If you are asked to work on a bank holiday, you may take another day off instead.' }));
    expect(judgment.contexts[0]!.note).toMatch(/covers 50% of the question's topic/);
  });

  it('still answers a question that names the term itself, and an answer from the right sentence', async () => {
    expect(await outcome('What happens if I work on a bank holiday?', 'If you are asked to work on a bank holiday, you may take another day off instead, within 3 months.')).toBe('correct');
    expect(await outcome('How many days of annual leave do I get?', 'Full-time employees receive 25 days of annual leave each year, plus the 8 bank holidays in England and Wales.')).toBe('correct');
  });
});
