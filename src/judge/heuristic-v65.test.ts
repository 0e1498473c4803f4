import { describe, expect, it } from 'vitest';
import { chunkPassage, okJudgment } from '../test-support/judgments.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';
import type { EvidencePassage } from './types.js';

// heuristic-v65: words for the documents and for comparing say how a question is asked, not what about (METHODOLOGY.md, "Changes in v65").
const judge = createHeuristicFaithfulnessJudge();
const returns: EvidencePassage[] = [
  chunkPassage('returns#returning-an-item', { title: 'Returns and Refunds', section: 'Returning an item', updated: '2026-09-01' }, 'You can return any item within 30 days of delivery for a full refund. Items must be unused and in their original packaging.'),
  chunkPassage('contact#customer-care', { title: 'Contact Us', section: 'Customer Care', updated: '2026-06-30' }, 'Customer Care is open Monday to Friday 8am to 8pm.'),
];

describe('words about the documents, not the topic (heuristic-v65)', () => {
  it('"what\'s your returns policy?" is answered by the returns rule, though no passage says "policy"', async () => {
    // Live (no reference): before, "policy" was a topic word the answer never held, so the answer was off_topic.
    const judgment = okJudgment(await judge.judge({ question: "what's your returns policy?", evidence: returns, answer: 'You can return any item within 30 days of delivery for a full refund.' }));
    expect(judgment.answerRelevance).toBe('answers');
    expect(judgment.contexts[0]).toMatchObject({ chunkId: 'returns#returning-an-item', verdict: 'answers' });
  });

  it('an answer about another topic is still off topic', async () => {
    const judgment = okJudgment(await judge.judge({ question: "what's your returns policy?", evidence: returns, answer: 'Customer Care is open Monday to Friday 8am to 8pm.' }));
    expect(judgment.answerRelevance).toBe('off_topic');
  });
});
