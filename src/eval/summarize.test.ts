import { describe, expect, it } from 'vitest';
import { REFUSAL_SENTENCE } from '../contract/refusal.js';
import { judgmentFrom } from '../test-support/judgments.js';
import { summarizeAnswerQuality } from './summarize.js';
import type { QuestionResult } from './types.js';

/** A question whose RAG-on side has this answer, judged as the heuristic judge would (contexts as given). */
function question(id: string, mustRefuse: boolean, answer: string, contexts: 'none' | 'answers'): QuestionResult {
  const claims = answer === REFUSAL_SENTENCE ? [] : [{ text: answer, verdict: 'verified' as const, evidenceChunkId: 'c1', note: '' }];
  const judgment = judgmentFrom(answer, claims, { contexts: contexts === 'none' ? [] : [{ chunkId: 'c1', verdict: 'answers', note: '' }] })!;
  return {
    id, category: mustRefuse ? 'unanswerable' : 'single-chunk', question: `question ${id}`, mustRefuse, relevantChunkIds: mustRefuse ? [] : ['c1'], keywords: [], referenceAnswer: '',
    status: 'ok', error: null, retrievedChunkIds: [], retrieval: null, evidence: [],
    rag: { answer, refused: answer === REFUSAL_SENTENCE, judgment } as unknown as QuestionResult['rag'],
    norag: null, pairwise: null, durationMs: 0,
  } as QuestionResult;
}

describe('summarizeAnswerQuality: right outcomes', () => {
  it('a refusal of an answerable question is no right outcome, though the judge, shown no chunks (gated), calls it a correct refusal', () => {
    const gatedAnswerable = question('a1', false, REFUSAL_SENTENCE, 'none');
    const refusedMustRefuse = question('m1', true, REFUSAL_SENTENCE, 'none');
    const answered = question('a2', false, 'You get 25 days.', 'answers');
    // The judge sees the evidence the generator saw: nothing, so both refusals are correct refusals to it.
    for (const entry of [gatedAnswerable, refusedMustRefuse]) expect(entry.rag!.judgment).toMatchObject({ status: 'ok', refusalVerdict: 'correct_refusal' });
    const rates = summarizeAnswerQuality([gatedAnswerable, refusedMustRefuse, answered]).rates;
    expect(rates.rightOutcomeRate).toEqual({ rate: 2 / 3, count: 2, n: 3 });
    expect(rates.correctAnswerRate).toEqual({ rate: 1 / 2, count: 1, n: 2 });
  });

  it('an answer to a must-refuse question is no right outcome, though the judge, finding its words in a chunk, calls it correct', () => {
    const answeredMustRefuse = question('m2', true, 'Bristol is the head office.', 'answers');
    const refusedMustRefuse = question('m1', true, REFUSAL_SENTENCE, 'none');
    const answered = question('a2', false, 'You get 25 days.', 'answers');
    expect(answeredMustRefuse.rag!.judgment).toMatchObject({ status: 'ok', refused: false, refusalVerdict: 'not_applicable' });
    const rates = summarizeAnswerQuality([answeredMustRefuse, refusedMustRefuse, answered]).rates;
    expect(rates.rightOutcomeRate).toEqual({ rate: 2 / 3, count: 2, n: 3 });
  });
});
