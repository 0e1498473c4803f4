import { describe, expect, it } from 'vitest';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';
import { foundByClass } from './heuristic-word-classes.js';
import type { EvidencePassage } from './types.js';

describe('foundByClass', () => {
  it.each([
    ['need', 'You may claim £25 per night with no receipt required.', true],
    ['need', 'Hotels must be booked through the travel desk.', true],
    ['requir', 'You need a fit note from the 8th day.', true],
    ['need', 'You may claim £25 per night.', false],
    ['compani', 'If you use a screen for work, Harbourline will reimburse an eye test.', true],
    ['compani', 'We pay 6% of your basic salary.', true],
    ['compani', 'You must not accept gifts from an organisation in a tender with us.', true],
    ['compani', 'Screen users can claim an eye test.', false],
    ['receipt', 'No receipt required.', false],
  ])('%s in "%s": %s', (stem, text, expected) => {
    expect(foundByClass(stem, text)).toBe(expected);
  });
});

describe('heuristic judge: word classes (heuristic-v8)', () => {
  const evidence: EvidencePassage[] = [
    {
      id: 'travel#hotels',
      kind: 'chunk',
      text: "Staying above a cap needs your budget holder's approval before booking. If you stay with friends or family instead of a hotel, you may claim £25 per night with no receipt required.",
    },
    { id: 'benefits#eye-tests', kind: 'chunk', text: 'If you regularly use a screen for work, Harbourline will reimburse the cost of an eye test up to £25.' },
  ];
  const judge = createHeuristicFaithfulnessJudge();

  it.each([
    // v7: absent, since the passage uses "need" itself, so the WordNet synonym did not apply.
    ['"need" where the sentence says "required"', "If you stay with family, you don't need a receipt.", ['verified']],
    ['the negation is still compared', 'If you stay with family, you need a receipt.', ['contradicted']],
    // v7: absent ("company" is not in the sentence).
    ['"the company" where the sentence names it', 'The company will reimburse eye tests.', ['verified']],
    ['the class stands in for that word only', 'The company will reimburse glasses.', ['absent']],
  ])('%s', async (_case, answer, expected) => {
    const judgment = await judge.judge({ question: 'What can I claim?', evidence, answer });
    if (judgment.status !== 'ok') throw new Error(judgment.error);
    expect(judgment.claims.map((claim) => claim.verdict)).toEqual(expected);
  });
});
