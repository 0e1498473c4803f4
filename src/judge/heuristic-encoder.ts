import type { EvidenceUnit } from './heuristic-units.js';
import type { JudgedContext } from './types.js';

/**
 * An optional sentence encoder for the offline judge: where a question is worded unlike the chunk
 * that answers it ("how many days holiday do i get" for "Full-time employees receive 25 days of
 * annual leave"), cosine similarity of sentence vectors finds the chunk the word rules miss.
 * Injected (e.g. `loadSentenceEncoder()` from `src/providers/local/sentence-encoder.ts`); the judge
 * without one is the lexical judge.
 *
 * It only ever upgrades a context verdict the lexical rules could not make.
 */
export interface SentenceEncoder {
  /** One unit-length vector per text, in order. */
  embed(texts: string[]): Promise<Float32Array[]>;
}

/**
 * The encoder's rules, recorded after the lexical judge's version (`heuristic-v128+encoder-v2`).
 * `encoder-v2` (2026-12-07): the encoder only finds answer-bearing chunks; it no longer verifies
 * claims or lifts answer relevance (METHODOLOGY.md, "The optional sentence encoder").
 */
export const ENCODER_RULES_VERSION = 'encoder-v2';

/** The version of the heuristic judge with an encoder: the lexical judge's, then the encoder's rules. */
export function withEncoderVersion(lexicalVersion: string): string {
  return `${lexicalVersion}+${ENCODER_RULES_VERSION}`;
}

/** Whether a heuristic judge's version is one with an encoder (of any encoder rules). */
export function usesEncoder(promptVersion: string): boolean {
  return /\+encoder(?:-v\d+)?(?:\+|$)/.test(promptVersion);
}

/**
 * The cosine similarity between the question and a chunk's sentence at which the chunk `answers`.
 * Chosen on the development label files (0.55, 0.6, 0.65 tried; METHODOLOGY.md); an encoder other
 * than `use-lite` needs its own.
 */
export const ENCODER_THRESHOLDS = { contextAnswers: 0.6 } as const;

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  for (let index = 0; index < a.length; index++) dot += a[index]! * b[index]!;
  return dot;
}

/**
 * Apply the encoder to the lexical context verdicts: an `unrelated` or `related` chunk with a
 * sentence close to the question (cosine ≥ {@link ENCODER_THRESHOLDS}`.contextAnswers`) `answers`.
 * Nothing else: an encoder that vouched for claims passed wrong ones ("half a day" for "2 hours",
 * "email your manager" for "phone your manager": similarity 0.80–0.89), so claims stay the word
 * rules' to verify.
 */
export async function refineContextsWithEncoder(
  encoder: SentenceEncoder,
  question: string,
  contexts: readonly JudgedContext[],
  units: readonly EvidenceUnit[],
): Promise<JudgedContext[]> {
  const open = contexts.filter((context) => context.verdict !== 'answers');
  if (open.length === 0) return [...contexts];
  const candidates = units.filter((unit) => open.some((context) => context.chunkId === unit.passageId));
  const vectors = await encoder.embed([question, ...candidates.map((unit) => unit.text)]);
  const questionVector = vectors[0]!;
  const unitVectors = new Map(candidates.map((unit, index) => [unit, vectors[1 + index]!]));
  return contexts.map((context) => {
    if (context.verdict === 'answers') return context;
    const similarity = Math.max(-1, ...candidates.filter((unit) => unit.passageId === context.chunkId).map((unit) => cosine(questionVector, unitVectors.get(unit)!)));
    return similarity >= ENCODER_THRESHOLDS.contextAnswers ? { ...context, verdict: 'answers' as const, note: `a sentence is close to the question (similarity ${similarity.toFixed(2)})` } : context;
  });
}
