import { describe, expect, it } from 'vitest';
import { flagsOf, outcomeOf } from '../contract/outcome.js';
import { splitAnswer } from './claims.js';
import { chunkPassage } from '../test-support/judgments.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';
import type { EvidencePassage } from './types.js';

// heuristic-v47: answers formatted the way chat models write them (METHODOLOGY.md, "Changes in v47").
const judge = createHeuristicFaithfulnessJudge();
const evidence: EvidencePassage[] = [
  chunkPassage('leave-policy#parental-leave', { title: 'Leave Policy', section: 'Parental Leave', updated: '2026-01-12' }, 'From 1 January 2026, a birth parent or primary adopter (the primary carer) is entitled to 20 weeks of parental leave at full pay, followed by up to 19 weeks at the statutory rate and then 13 weeks unpaid: 52 weeks in total.'),
];
const question = 'How many weeks of full pay do I get on parental leave?';
const outcome = async (answer: string) => outcomeOf(flagsOf(await judge.judge({ question, evidence, answer, reference: null })));

describe('answers written the way chat models write them (heuristic-v47)', () => {
  // Each was `hallucinated` with v46: a marker read as the figure 1, a label or a sources line read
  // as a claim, "wks" as a word, a list item's figure matched by the question's words to 20 weeks.
  it.each([
    'You get 20 weeks at full pay [1], then up to 19 weeks at the statutory rate [1].',
    'You get 20 weeks at full pay [leave-policy#parental-leave].',
    'Short answer: 20 weeks at full pay.',
    'The handbook says: "a birth parent or primary adopter is entitled to 20 weeks of parental leave at full pay".',
    "Here's what the handbook says: you get 20 weeks at full pay, then up to 19 weeks at the statutory rate.",
    'I found this in the Leave Policy: you get 20 weeks at full pay.',
    'Great news - as the birth parent you get 20 weeks on full pay.',
    'You get 20 wks at full pay.',
    '- 20 weeks at full pay\n- then up to 19 weeks at the statutory rate\n- then 13 weeks unpaid',
    'You are entitled to the following:\n\n* 20 weeks at full pay\n* up to 19 weeks at the statutory rate\n* 13 weeks unpaid\n\nThat makes 52 weeks in total.',
    'You get 20 weeks at full pay.\n\nSources:\n[1] Leave Policy - Parental Leave',
  ])('correct: %j', async (answer) => {
    expect(await outcome(answer)).toBe('correct');
  });

  it.each([
    'You get 16 weeks at full pay [1].',
    'Short answer: 16 weeks at full pay.',
    '- 20 weeks at full pay\n- then 26 weeks unpaid',
    '1. 20 weeks at full pay\n2. 19 weeks unpaid',
    'You get 20 weeks at full pay. That makes 60 weeks in total.',
  ])('still hallucinated: %j', async (answer) => {
    expect(await outcome(answer)).toBe('hallucinated');
  });

  it('drops the markers and the footer, and keeps a claim the footer does not hold', () => {
    expect(splitAnswer('You get 20 weeks [1][2]. Then 19 weeks [1, 2].\n\nReferences:\n[1] Leave Policy').claims).toEqual(['You get 20 weeks.', 'Then 19 weeks.']);
  });
});
