import type { EvidenceUnit } from './heuristic-units.js';
import type { AnswerRelevance, JudgedClaim, JudgedContext } from './types.js';

/**
 * An optional sentence encoder for the offline judge: where words differ but meaning agrees
 * ("you get 20 weeks" for "a birth parent is entitled to 20 weeks"), cosine similarity of sentence
 * vectors can vouch for what the word rules cannot. Injected (e.g. `loadSentenceEncoder()` from
 * `src/providers/local/sentence-encoder.ts`); the judge without one is the lexical judge.
 *
 * It only ever upgrades a verdict the lexical rules could not make, and never where they found a
 * disagreement: a claim the rules found contradicted, with a wrong figure or the opposite
 * polarity, stays contradicted however similar its sentence is.
 */
export interface SentenceEncoder {
  /** One unit-length vector per text, in order. */
  embed(texts: string[]): Promise<Float32Array[]>;
}

/**
 * Cosine thresholds for the encoder's three uses. Measured on the tuning half of the hand labels
 * (METHODOLOGY.md, "The offline heuristic judge"); an encoder other than the one they were
 * measured with needs its own.
 */
export const ENCODER_THRESHOLDS = { paraphrase: 0.75, contextAnswers: 0.55, relevance: 0.45 } as const;

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  for (let index = 0; index < a.length; index++) dot += a[index]! * b[index]!;
  return dot;
}

export interface EncoderRefinement {
  claims: JudgedClaim[];
  contexts: JudgedContext[];
  relevance: AnswerRelevance;
}

/**
 * Apply the encoder to the lexical verdicts: an `absent` claim whose sentence is close to an
 * evidence sentence that holds its figures without disagreeing is `verified` (the paraphrase rule);
 * an `unrelated` or `related` chunk with a sentence close to the question `answers`; an
 * `off_topic` answer close to the question is `partial`.
 */
export async function refineWithEncoder(
  encoder: SentenceEncoder,
  question: string,
  answer: string,
  lexical: EncoderRefinement,
  units: readonly EvidenceUnit[],
  paraphraseCandidates: (claim: JudgedClaim) => readonly EvidenceUnit[],
): Promise<EncoderRefinement> {
  const absent = lexical.claims.filter((claim) => claim.verdict === 'absent' && !claim.text.startsWith('Cites "'));
  const texts = [question, answer, ...absent.map((claim) => claim.text), ...units.map((unit) => unit.text)];
  const vectors = await encoder.embed(texts);
  const [questionVector, answerVector] = [vectors[0]!, vectors[1]!];
  const claimVectors = new Map(absent.map((claim, index) => [claim, vectors[2 + index]!]));
  const unitVectors = new Map(units.map((unit, index) => [unit, vectors[2 + absent.length + index]!]));

  const claims = lexical.claims.map((claim) => {
    const vector = claimVectors.get(claim);
    if (!vector) return claim;
    let best: { unit: EvidenceUnit; similarity: number } | null = null;
    for (const unit of paraphraseCandidates(claim)) {
      const similarity = cosine(vector, unitVectors.get(unit)!);
      if (best === null || similarity > best.similarity) best = { unit, similarity };
    }
    if (best === null || best.similarity < ENCODER_THRESHOLDS.paraphrase) return claim;
    return { ...claim, verdict: 'verified' as const, evidenceChunkId: best.unit.passageId, note: `paraphrases ${best.unit.passageId} (similarity ${best.similarity.toFixed(2)})` };
  });

  const contexts = lexical.contexts.map((context) => {
    if (context.verdict === 'answers') return context;
    const similarity = Math.max(-1, ...units.filter((unit) => unit.passageId === context.chunkId).map((unit) => cosine(questionVector, unitVectors.get(unit)!)));
    return similarity >= ENCODER_THRESHOLDS.contextAnswers ? { ...context, verdict: 'answers' as const, note: `a sentence is close to the question (similarity ${similarity.toFixed(2)})` } : context;
  });

  const relevance = lexical.relevance === 'off_topic' && cosine(questionVector, answerVector) >= ENCODER_THRESHOLDS.relevance ? 'partial' : lexical.relevance;
  return { claims, contexts, relevance };
}
