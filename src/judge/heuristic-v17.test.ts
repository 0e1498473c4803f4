import { describe, expect, it } from 'vitest';
import { claimVerdicts, okJudgment } from '../test-support/judgments.js';
import { analyze } from './heuristic-analysis.js';
import { restatedCondition } from './heuristic-given.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';
import { referenceClaims } from './heuristic-relevance.js';
import { foundAsBound } from './heuristic-word-classes.js';
import type { EvidencePassage } from './types.js';

// heuristic-v17: more of a correct answer's own wording (METHODOLOGY.md, "Changes in v17").
const judge = createHeuristicFaithfulnessJudge();

const passwords: EvidencePassage[] = [
  {
    id: 'it#passwords',
    kind: 'chunk',
    text: '[Source: IT and Security | Section: Passwords and Passphrases | Last updated: 2025-07-14]\nPasswords for standard user accounts must be at least 14 characters long. We recommend a passphrase of three or more random words.',
  },
  {
    id: 'it#laptops',
    kind: 'chunk',
    text: '[Source: IT and Security | Section: Laptops | Last updated: 2025-07-14]\nLock your laptop screen whenever you leave your desk at work, whatever the length of your absence. Laptops are encrypted.',
  },
];
const appeals: EvidencePassage[] = [
  {
    id: 'performance#appeals',
    kind: 'chunk',
    text: "[Source: Performance Reviews | Section: Appealing a Rating | Last updated: 2025-03-01]\nTo appeal a rating, write to your manager's manager within 10 working days of receiving it. The decision is final.",
  },
];
const onCall: EvidencePassage[] = [
  {
    id: 'hours#on-call',
    kind: 'chunk',
    text: '[Source: Working Hours | Section: On-Call Allowance | Last updated: 2025-01-01]\nThe on-call allowance is £40 per weekday night, whether or not you are called out.',
  },
];

describe('bounds: "minimum" is "at least", "maximum" is "up to" (heuristic-v17)', () => {
  it.each([
    ['minimum', 'Passwords must be at least 14 characters long.', true],
    ['minimum', 'Passwords must be 14 characters long.', false],
    ['maximum', 'You can claim up to £2,500.', true],
    ['cap', 'Hotels must not exceed these caps:', true],
    ['maximum', 'You can claim £2,500.', false],
    ['password', 'Passwords must be at least 14 characters long.', false],
  ])('foundAsBound(%s, %s)', (stem, text, expected) => {
    expect(foundAsBound(stem, text)).toBe(expected);
  });

  it('lets the chunk stating the bound answer a question about the minimum, without a reference', async () => {
    const judgment = okJudgment(await judge.judge({ question: "What's the minimum length for my work password?", evidence: passwords, answer: "I don't know: the provided documents do not cover this." }));
    expect(judgment.contexts.find((context) => context.chunkId === 'it#passwords')?.verdict).toBe('answers');
    expect(judgment.refusalVerdict).toBe('over_refusal');
  });
});

describe('a condition restating the asker\'s situation (heuristic-v17)', () => {
  const question = 'Who sees my rating, and what can I do if I think it is unfair?';
  it.each([
    ['restated, then the rule', "If you think it's unfair, appeal in writing to your manager's manager within 10 working days.", ['verified']],
    ['the rule with a wrong figure', "If you think it's unfair, appeal in writing to your manager's manager within 20 working days.", ['contradicted']],
    // A condition of its own is a statement about the documents, and is looked for.
    ['a condition the question did not give', "If you are a new starter on probation, appeal in writing to your manager's manager within 10 working days.", ['absent']],
  ])('%s', async (_case, answer, verdicts) => {
    expect(await claimVerdicts(judge, question, appeals, answer)).toEqual(verdicts);
  });

  it.each([
    ["If you think it's unfair, appeal within 10 working days.", ['think', 'unfair']],
    ['Appeal within 10 working days, if you think it is unfair.', ['think', 'unfair']],
    ['If you are on probation, appeal within 10 working days.', []],
    ['If it is over 10 days, appeal.', []],
  ])('restatedCondition(%s)', (text, stems) => {
    expect(restatedCondition(text, analyze(question).stemSet, () => false)).toEqual(stems);
  });
});

describe('focus adverbs are light words (heuristic-v17)', () => {
  it('"even if nobody calls you out" needs no "even" in the sentence', async () => {
    expect(await claimVerdicts(judge, 'How much do I get for being on call on a weekday night?', onCall, 'You get £40 for each weekday night on call, even if nobody calls you out.')).toEqual(['verified']);
    expect(await claimVerdicts(judge, 'How much do I get for being on call on a weekday night?', onCall, 'You get £50 for each weekday night on call, even if nobody calls you out.')).toEqual(['contradicted']);
  });
});

describe('reference claims read an answer as a reply to the question (heuristic-v17)', () => {
  const reference = 'Standard user account passwords must be at least 14 characters long.';
  const question = analyze("What's the minimum length for my standard user account password?").stemSet;
  it('counts the question\'s words toward a reference claim whose figure the answer states', () => {
    expect(referenceClaims(reference, 'It has to be at least 14 characters.', question).map((claim) => claim.stated)).toEqual([true]);
    expect(referenceClaims(reference, 'It has to be at least 14 characters.').map((claim) => claim.stated)).toEqual([false]);
  });
  it('never states a figure the answer does not give, nor a claim without figures by the question alone', () => {
    expect(referenceClaims(reference, 'It has to be at least 12 characters.', question).map((claim) => claim.stated)).toEqual([false]);
    expect(referenceClaims('Standard user account passwords never expire.', 'No.', analyze('Do standard user account passwords expire?').stemSet).map((claim) => claim.stated)).toEqual([false]);
  });
});
