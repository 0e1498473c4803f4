import { describe, expect, it } from 'vitest';
import { flagsOf, outcomeOf } from '../contract/outcome.js';
import { words } from '../text/text.js';
import { createHeuristicFaithfulnessJudge } from './heuristic-judge.js';
import type { SentenceEncoder } from './heuristic-encoder.js';
import type { EvidencePassage } from './types.js';

/**
 * A stand-in for a real sentence encoder, for testing the judge's use of one: each text's vector
 * is the unit vector at the angle of the first topic word it contains (`angles`, in radians), or
 * at a right angle to all of them. Two texts naming topics `a` and `b` have cosine cos(a − b).
 * It records every call.
 */
function angleEncoder(angles: Record<string, number>): SentenceEncoder & { calls: string[][] } {
  const calls: string[][] = [];
  return {
    calls,
    async embed(texts) {
      calls.push(texts);
      return texts.map((text) => {
        const topic = words(text).find((word) => angles[word] !== undefined);
        return topic === undefined ? new Float32Array([0, 0, 1]) : new Float32Array([Math.cos(angles[topic]!), Math.sin(angles[topic]!), 0]);
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

// Worded unlike the passage: the word rules find the chunk related at most.
const WORDED_AWAY = 'How long do we hang onto the recordings?';
const REFUSAL = "Sorry, I don't know: the documents don't say.";

describe('heuristic judge with an injected sentence encoder (encoder-v2: context verdicts only)', () => {
  it('a chunk with a sentence close to the question answers it, so a refusal is an over-refusal', async () => {
    const lexical = await createHeuristicFaithfulnessJudge().judge({ question: WORDED_AWAY, evidence: [CCTV], answer: REFUSAL });
    expect(lexical.status === 'ok' && lexical.contexts.map((context) => context.verdict)).not.toContain('answers');
    expect(outcomeOf(flagsOf(lexical))).toBe('correct_refusal');
    // "recordings" in the question, "footage" in the CCTV sentence: cosine 1.
    const encoder = angleEncoder({ recordings: 0, footage: 0 });
    const judge = createHeuristicFaithfulnessJudge({ encoder });
    const judged = await judge.judge({ question: WORDED_AWAY, evidence: [CCTV], answer: REFUSAL });
    expect(judged.status === 'ok' && judged.contexts.map((context) => [context.verdict, context.note])).toEqual([['answers', 'a sentence is close to the question (similarity 1.00)']]);
    expect(outcomeOf(flagsOf(judged))).toBe('over_refusal');
    expect(judge.info.promptVersion).toBe('heuristic-v128+encoder-v2');
    expect(encoder.calls).toHaveLength(1);
  });

  it('needs a cosine of at least 0.6: at 0.59 the chunk keeps its word-rule verdict', async () => {
    const below = createHeuristicFaithfulnessJudge({ encoder: angleEncoder({ recordings: 0, footage: Math.acos(0.59) }) });
    const at = createHeuristicFaithfulnessJudge({ encoder: angleEncoder({ recordings: 0, footage: Math.acos(0.601) }) });
    expect(outcomeOf(flagsOf(await below.judge({ question: WORDED_AWAY, evidence: [CCTV], answer: REFUSAL })))).toBe('correct_refusal');
    expect(outcomeOf(flagsOf(await at.judge({ question: WORDED_AWAY, evidence: [CCTV], answer: REFUSAL })))).toBe('over_refusal');
  });

  it('never verifies a claim: a paraphrase the word rules miss stays absent, however close its sentence', async () => {
    const answer = 'Office CCTV videos are stored for 30 days.';
    // The claim, the question and the CCTV sentence all at one angle: cosine 1 between any two.
    const judge = createHeuristicFaithfulnessJudge({ encoder: angleEncoder({ videos: 0, footage: 0, cctv: 0 }) });
    const judged = await judge.judge({ question: QUESTION, evidence: [CCTV], answer });
    expect(judged.status === 'ok' && judged.claims.map((claim) => claim.verdict)).toEqual(['absent']);
    expect(outcomeOf(flagsOf(judged))).toBe('hallucinated');
  });

  it('leaves a wrong figure contradicted', async () => {
    const judge = createHeuristicFaithfulnessJudge({ encoder: angleEncoder({ cctv: 0, footage: 0 }) });
    const judgment = await judge.judge({ question: QUESTION, evidence: [CCTV], answer: 'Office CCTV footage is kept for 60 days.' });
    expect(judgment.status === 'ok' && judgment.claims.map((claim) => claim.verdict)).toEqual(['contradicted']);
  });

  it('validates the option', () => {
    expect(() => createHeuristicFaithfulnessJudge({ encoder: {} as never })).toThrow(/option encoder is invalid/);
  });
});
