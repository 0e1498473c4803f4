import { describe, expect, it } from 'vitest';
import { claimVerdicts } from '../test-support/judgments.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';
import type { EvidencePassage } from './types.js';

// heuristic-v43: two dates without a year are read in one year; "mid" adds nothing to check (METHODOLOGY.md, "Changes in v43").
const judge = createHeuristicFaithfulnessJudge();

const reviews: EvidencePassage[] = [
  {
    id: 'performance-reviews#review-cycle',
    kind: 'chunk',
    text: '[Source: Performance Reviews | Section: Review Cycle | Last updated: 2024-12-09]\nEmployees who joined after 1 October take part in the review cycle but do not receive a rating for that year.',
  },
];
const question = 'I joined in mid-November. Am I going to get a performance rating this year?';

describe('yearless dates against a yearly bound (heuristic-v43)', () => {
  it('"mid-November" is after "1 October"', async () => {
    // v42: "says 1 October, not November" (contradicted): without a year neither date had a span.
    expect(await claimVerdicts(judge, question, reviews, "No, you won't get a rating that year, and mid-November is after that.")).toEqual(['verified']);
  });

  it('"mid-September" is not', async () => {
    expect(await claimVerdicts(judge, question, reviews, 'Yes: you joined in mid-September, which is after 1 October.')).toContain('contradicted');
  });
});
