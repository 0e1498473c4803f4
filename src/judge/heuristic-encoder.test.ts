import { describe, expect, it } from 'vitest';
import { flagsOf, outcomeOf } from '../contract/outcome.js';
import { words } from '../text/text.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';
import type { SentenceEncoder } from './heuristic-encoder.js';
import type { EvidencePassage } from './types.js';

/**
 * A stand-in for a real sentence encoder, for testing the judge's use of one: bag of words with a
 * few synonyms merged ("recordings" = "footage"), unit length. It records every call.
 */
function synonymEncoder(): SentenceEncoder & { calls: string[][] } {
  const same: Record<string, string> = { recordings: 'footage', recording: 'footage', retained: 'kept', stored: 'kept', videos: 'footage' };
  const calls: string[][] = [];
  return {
    calls,
    async embed(texts) {
      calls.push(texts);
      const vocabulary = new Map<string, number>();
      const bags = texts.map((text) => words(text).map((word) => same[word] ?? word));
      for (const bag of bags) for (const word of bag) if (!vocabulary.has(word)) vocabulary.set(word, vocabulary.size);
      return bags.map((bag) => {
        const vector = new Float32Array(Math.max(1, vocabulary.size));
        for (const word of bag) vector[vocabulary.get(word)!]! += 1;
        const norm = Math.hypot(...vector) || 1;
        return vector.map((value) => value / norm);
      });
    },
  };
}

const CCTV: EvidencePassage = {
  id: 'data-protection#retention-of-records',
  text: '[Source: Data Protection | Section: Retention of Records | Last updated: 2025-11-03]\nWe keep personal data only for as long as we need it. Office CCTV footage is kept for 30 days.',
  kind: 'chunk',
};
const QUESTION = 'How long is CCTV footage from the office kept?';

describe('heuristic judge with an injected sentence encoder', () => {
  it('a paraphrase whose figure agrees is verified with the encoder and stays absent without it', async () => {
    const answer = 'Office CCTV videos are stored for 30 days.';
    const lexical = await createHeuristicFaithfulnessJudge().judge({ question: QUESTION, evidence: [CCTV], answer });
    const encoder = synonymEncoder();
    const judge = createHeuristicFaithfulnessJudge({ encoder });
    const withEncoder = await judge.judge({ question: QUESTION, evidence: [CCTV], answer });
    expect(lexical.status === 'ok' && lexical.claims.map((claim) => claim.verdict)).toEqual(['absent']);
    expect(withEncoder.status === 'ok' && withEncoder.claims.map((claim) => claim.verdict)).toEqual(['verified']);
    expect(outcomeOf(flagsOf(withEncoder))).toBe('correct');
    expect(judge.info.promptVersion).toBe('heuristic-v118+encoder');
    expect(encoder.calls.length).toBeGreaterThan(0);
  });

  it('never overrides a disagreement: a wrong figure stays contradicted however similar the sentence', async () => {
    const judge = createHeuristicFaithfulnessJudge({ encoder: synonymEncoder() });
    const judgment = await judge.judge({ question: QUESTION, evidence: [CCTV], answer: 'Office CCTV footage is kept for 60 days.' });
    expect(judgment.status === 'ok' && judgment.claims.map((claim) => claim.verdict)).toEqual(['contradicted']);
  });

  it('validates the option', () => {
    expect(() => createHeuristicFaithfulnessJudge({ encoder: {} as never })).toThrow(/option encoder is invalid/);
  });
});
