import { describe, expect, it } from 'vitest';
import { chunkPassage, okJudgment } from '../test-support/judgments.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';
import type { EvidencePassage } from './types.js';

// heuristic-v74: a cross-reference names where to read more, not what an answer says (METHODOLOGY.md changelog, 2026-12-05).
const judge = createHeuristicFaithfulnessJudge();
const evidence: EvidencePassage[] = [
  chunkPassage('equipment#equipment-loan-pool', { title: 'Equipment', section: 'Equipment Loan Pool', updated: '2025-05-19' }, 'A travel laptop must be used for trips to countries rated high risk (see Travel and Expenses). Book loan items through the Service Desk.'),
  chunkPassage('performance-reviews#confidentiality-of-ratings', { title: 'Performance Reviews', section: 'Confidentiality of Ratings', updated: '2025-09-01' }, 'Your performance rating is seen only by you, your manager, their manager and the People team.'),
];

describe('cross-references in answers (heuristic-v74)', () => {
  it('"(see Travel and Expenses)" does not make an answer about travel laptops answer "who sees my performance rating"', async () => {
    // v73: "see" from the cross-reference and "rated" covered two of the question's three topic words: `answers`, outcome `correct`.
    const judgment = okJudgment(await judge.judge({ question: 'who sees my performance rating', evidence, answer: 'A travel laptop must be used for trips to countries rated high risk (see Travel and Expenses).' }));
    expect(judgment.answerRelevance).toBe('off_topic');
  });

  it('the right answer still answers, and the quote with its cross-reference is still verified', async () => {
    const right = okJudgment(await judge.judge({ question: 'who sees my performance rating', evidence, answer: 'Your performance rating is seen only by you, your manager, their manager and the People team.' }));
    expect(right.answerRelevance).toBe('answers');
    const quoted = okJudgment(await judge.judge({ question: 'do i need a special laptop for a trip to a high risk country', evidence, answer: 'A travel laptop must be used for trips to countries rated high risk (see Travel and Expenses).' }));
    expect(quoted.claims.every((claim) => claim.verdict === 'verified')).toBe(true);
    expect(quoted.answerRelevance).not.toBe('off_topic');
  });
});
