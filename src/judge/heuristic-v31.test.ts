import { describe, expect, it } from 'vitest';
import { flagsOf, outcomeOf } from '../contract/outcome.js';
import { analyze } from './heuristic-analysis.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';
import { referenceClaims } from './heuristic-relevance.js';
import type { EvidencePassage } from './types.js';

// heuristic-v31: the question's words do not state a reference claim without figures (METHODOLOGY.md, "Changes in v31").
const judge = createHeuristicFaithfulnessJudge();

const question = 'Can I take my usual laptop on a trip to a high-risk country?';
const reference = 'No: trips to high-risk countries need a travel laptop from the equipment loan pool.';
const evidence: EvidencePassage[] = [
  {
    id: 'travel-and-expenses#travel-insurance-and-safety',
    kind: 'chunk',
    text: '[Source: Travel and Expenses | Section: Travel Insurance and Safety | Last updated: 2025-06-01]\nTrips to countries rated high risk need approval from the Head of IT Security and the Health and Safety manager, and you must take a travel laptop from the equipment loan pool rather than your usual laptop.',
  },
];

const stated = (answer: string) => referenceClaims(reference, answer, analyze(question).stemSet).map((claim) => claim.stated);

describe("a reference claim without figures needs the answer's own words for what the question did not say (heuristic-v31)", () => {
  it.each([
    // v30 counted "trips to high-risk countries need" (the question's topic) as half the claim stated.
    ['Trips to high-risk countries need approval from the Head of IT Security and the Health and Safety manager.', [false]],
    ['No. For a high-risk country you have to take a travel laptop from the equipment loan pool.', [true]],
    ['Take a travel laptop from the equipment loan pool instead.', [true]],
  ])('%s', (answer, expected) => {
    expect(stated(answer)).toEqual(expected);
  });

  it('a true sentence that echoes the question without answering it is not correct', async () => {
    const judgment = await judge.judge({ question, evidence, answer: 'Trips to high-risk countries need approval from the Head of IT Security and the Health and Safety manager.', reference });
    expect(outcomeOf(flagsOf(judgment))).not.toBe('correct');
  });

  it('the answer that states the reference is correct', async () => {
    const judgment = await judge.judge({ question, evidence, answer: 'No. For a high-risk country you must take a travel laptop from the equipment loan pool rather than your usual laptop.', reference });
    expect(outcomeOf(flagsOf(judgment))).toBe('correct');
  });
});
