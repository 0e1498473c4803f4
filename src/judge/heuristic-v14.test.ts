import { describe, expect, it } from 'vitest';
import { okJudgment } from '../test-support/judgments.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';
import type { EvidencePassage } from './types.js';

// heuristic-v14: a quantity question's answer must hold a figure that can be the one asked for
// (METHODOLOGY.md, "Changes in v14"). The live judge (no reference answer) took faithful quotes of a
// neighbouring sentence for answers.
const judge = createHeuristicFaithfulnessJudge();


const travel: EvidencePassage[] = [
  {
    id: 'travel#mileage-rates',
    kind: 'chunk',
    text: [
      '[Source: Travel and Expenses | Section: Mileage Rates | Last updated: 2025-09-01]',
      'If you use your own car for work trips, you may claim mileage at these rates:',
      '',
      '| Vehicle | First 10,000 business miles in the tax year | Over 10,000 miles |',
      '| --- | --- | --- |',
      '| Car or van | 45p per mile | 25p per mile |',
      '| Motorcycle | 24p per mile | 24p per mile |',
    ].join('\n'),
  },
  {
    id: 'travel#long-journeys',
    kind: 'chunk',
    text: '[Source: Travel and Expenses | Section: Long Journeys and Hire Cars | Last updated: 2025-09-01]\nFor a work trip of more than 200 miles in your own car, book rail travel or a hire car through the travel desk instead.',
  },
];

const homeWorking: EvidencePassage[] = [
  {
    id: 'remote#home-working-allowance',
    kind: 'chunk',
    text: '[Source: Remote and Hybrid Working | Section: Home Working Allowance | Last updated: 2025-10-01]\nHybrid and home-based employees receive a home working allowance of £30 per month, paid through payroll.',
  },
  {
    id: 'equipment#home-office-equipment-allowance',
    kind: 'chunk',
    text: '[Source: Equipment | Section: Home Office Equipment Allowance | Last updated: 2025-10-01]\nIn addition to the monthly home working allowance, hybrid and home-based employees may claim a one-off allowance of up to £300 for home office furniture.',
  },
];

const mileage = "What's the mileage rate if I use my own car for work trips?";
const allowance = 'How much is the monthly home working allowance at the moment?';

describe('heuristic judge: the figure a quantity question asks for (heuristic-v14)', () => {
  it.each([
    // v13: 'answers' (the quote shares the question's words and holds a number), so `correct`.
    // v81: `off_topic`, no longer `partial`: it speaks of the situation ("your own car", "work
    // trips") while the rates passage holds the whole question, "mileage" included.
    ['a distance quoted for a rate', mileage, travel, 'For a work trip of more than 200 miles in your own car, book rail travel or a hire car through the travel desk instead.', 'off_topic'],
    ['a one-off amount quoted for a monthly one', allowance, homeWorking, 'Hybrid and home-based employees may claim a one-off allowance of up to £300 for home office furniture.', 'partial'],
    // The answers themselves still answer.
    ['the rate', mileage, travel, "It's 45p per mile for the first 10,000 business miles, then 25p per mile.", 'answers'],
    ['the monthly amount', allowance, homeWorking, "It's £30 per month, paid through payroll.", 'answers'],
    ['the amount without its period', allowance, homeWorking, 'Hybrid and home-based employees receive a home working allowance of £30, paid through payroll.', 'answers'],
  ])('%s', async (_case, question, evidence, answer, relevance) => {
    const judgment = okJudgment(await judge.judge({ question, evidence, answer }));
    expect({ relevance: judgment.answerRelevance, verified: judgment.claims.every((claim) => claim.verdict === 'verified') }).toEqual({ relevance, verified: true });
  });
});
