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
    ['rose', 'The London cap went up from £160 to £190 on 1 September 2025.', true],
    ['increas', 'This replaces the previous allowance of £20 per month.', true],
    ['rose', 'From 1 October 2025, employees receive a home working allowance of £30 per month.', false],
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

describe('heuristic judge: claims about "it" and words of rising (heuristic-v9)', () => {
  const evidence: EvidencePassage[] = [
    {
      id: 'remote#home-working-allowance',
      kind: 'chunk',
      text: '[Source: Remote and Hybrid Working | Section: Home Working Allowance | Last updated: 2025-10-01]\nFrom 1 October 2025, employees on a hybrid or home-based contract receive a home working allowance of £30 per month, paid through payroll, towards heating, electricity and broadband. This replaces the previous allowance of £20 per month, which applied until 30 September 2025.',
    },
    {
      id: 'travel#hotel-caps',
      kind: 'chunk',
      text: '[Source: Travel and Expenses | Section: Hotel Nightly Caps | Last updated: 2025-09-01]\nThe London cap rose from £160 to £190 on 1 September 2025; all other caps are unchanged.',
    },
  ];
  const judge = createHeuristicFaithfulnessJudge();

  it.each([
    // v8: absent ("went" is not in the sentence, and "£30" was pinned by "went" alone).
    ['Is the home working allowance still £20 a month?', 'No, it went up to £30 a month from 1 October 2025.', ['verified']],
    ['What is the home working allowance now?', 'It rose to £30 a month from 1 October 2025.', ['verified']],
    // v8: absent.
    ['Has the London hotel cap changed?', 'Yes, it went up to £190 on 1 September 2025.', ['verified']],
    // A wrong figure is still flagged: absent, not contradicted, as the sentence without the one
    // after it ("This replaces the previous…") states no rise, so it does not cover the claim.
    ['Is the home working allowance still £20 a month?', 'No, it went up to £35 a month from 1 October 2025.', ['absent']],
    ['Has the London hotel cap changed?', 'Yes, it went down to £190 on 1 September 2025.', ['absent']],
    // Without the pronoun, the figure's own words still decide which figure it is.
    ['Has the London hotel cap changed?', 'Yes, the Paris cap went up to £190.', ['absent']],
  ])('%s / %s', async (question, answer, expected) => {
    const judgment = await judge.judge({ question, evidence, answer });
    if (judgment.status !== 'ok') throw new Error(judgment.error);
    expect(judgment.claims.map((claim) => claim.verdict)).toEqual(expected);
  });
});
