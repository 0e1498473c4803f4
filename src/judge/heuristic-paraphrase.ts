import { analyze, analyzeClaim, type Analysis } from './heuristic-analysis.js';
import type { Quantity } from './heuristic-quantities.js';
import { fnv1a } from '../text/text.js';
import type { JudgedClaim, ReferenceClaim } from './types.js';

/**
 * The paraphrase model (`heuristic-v125`, offline evals only): with a reference answer, an answer
 * whose only unverified claims are `absent` (none contradicted) is weighed as a whole by a small
 * logistic model over nine features of the answer, the reference and the evidence. Where the model
 * gives at least {@link ParaphraseModel.threshold}, the answer's absent claims are read as the
 * user's own words for what the reference and its chunk state, and verified by that chunk.
 *
 * Why a fitted model: the word rules cannot tell "say no to the insurance upsell" (a correct
 * paraphrase) from "Probation lasts 3 months" (the reference's other figure) claim by claim, and
 * every hand-written rule tried on the claims failed on new files (METHODOLOGY.md). Weighed
 * together over the whole answer, a few plain signals separate them far better: how much of the
 * reference the answer states, whether the absent claims' words come from the reference or from
 * elsewhere in the evidence, figures the reference does not give, and words found nowhere.
 *
 * The weights are fitted on the development label files by `npm run bench:paraphrase`, which
 * prints them, with its cross-validation by file, for pasting here; a team can fit its own on its
 * own labels and pass them as the judge's `paraphraseModel` option. Without a reference answer (the
 * live judge) the model never runs: most of its signal is the reference.
 */
export interface ParaphraseModel {
  /** Feature names, in order (see {@link paraphraseFeatures}). */
  features: readonly string[];
  /** Per feature: the training mean and standard deviation the weights apply to. */
  mean: readonly number[];
  scale: readonly number[];
  weights: readonly number[];
  bias: number;
  /** The probability at or above which the absent claims are taken as paraphrase. */
  threshold: number;
}

export const PARAPHRASE_FEATURES = ['absentShare', 'referenceRecall', 'minEvidenceOrReference', 'minReference', 'figuresOutsideReference', 'figures', 'maxUnfound', 'claims', 'maxOutsideReference'] as const;

/**
 * Fitted by `npm run bench:paraphrase` on the 18 development label files (METHODOLOGY.md, "Changes
 * in v125" and "Changes in v128"; 555 answers it can act on): L2 1, class-balanced; the threshold
 * (0.75) maximises, over a cross-validation holding out whole files, correct answers read minus
 * twice the flawed ones read. v125 to v127 shipped the same model fitted on 14 files (threshold 0.8).
 */
export const DEFAULT_PARAPHRASE_MODEL: ParaphraseModel = Object.freeze({
  features: PARAPHRASE_FEATURES,
  mean: [0.6896, 0.4627, 0.5174, 0.3104, 0.6667, 1.3387, 1.6577, 2.445, 2.809],
  scale: [0.2751, 0.357, 0.3634, 0.3451, 0.8713, 1.5656, 1.5322, 1.2826, 2.3249],
  weights: [-0.0328, 1.0568, -0.3326, 0.3059, -0.3563, 0.4034, 0.4797, 1.161, -1.2644],
  bias: -0.7252,
  threshold: 0.75,
});

/** What the model reads: the judged claims, the reference's claims (with `stated`), and the texts. */
export interface ParaphraseInput {
  question: string;
  evidence: readonly string[];
  reference: string;
  claims: readonly JudgedClaim[];
  referenceClaims: readonly ReferenceClaim[];
}

/** A figure as a comparable key: dimension and range, or a date's parts. */
function figureKey(quantity: Quantity): string {
  return quantity.kind === 'number' ? `${quantity.dimension}:${quantity.low}:${quantity.high}` : `date:${quantity.year}-${quantity.month}-${quantity.day}`;
}

function stemsOf(analyses: readonly Analysis[]): Set<string> {
  const stems = new Set<string>();
  for (const analysis of analyses) for (const stem of analysis.stems) stems.add(stem);
  return stems;
}

/**
 * The model's features, in {@link PARAPHRASE_FEATURES} order; `null` when the model does not apply
 * (no absent claim, or a contradicted one). Per absent claim, its content words not in the question:
 * the share in the evidence or the reference, the share in the reference, the count in neither
 * ("unfound"), the count outside the reference, and its figures the reference does not give. Over
 * the answer: the smallest shares, the largest counts, the figure counts, the share of claims
 * absent, the share of the reference's claims stated, and the number of claims.
 */
export function paraphraseFeatures(input: ParaphraseInput): number[] | null {
  const absent = input.claims.filter((claim) => claim.verdict === 'absent');
  if (absent.length === 0 || input.claims.some((claim) => claim.verdict === 'contradicted')) return null;
  const question = analyze(input.question).stemSet;
  const referenceAnalysis = analyze(input.reference);
  const reference = referenceAnalysis.stemSet;
  const referenceFigures = new Set(referenceAnalysis.quantities.map(({ quantity }) => figureKey(quantity)));
  const evidence = stemsOf(input.evidence.map((text) => analyze(text)));
  let minEither = 1;
  let minReference = 1;
  let outsideReference = 0;
  let figures = 0;
  let maxUnfound = 0;
  let maxOutside = 0;
  for (const claim of absent) {
    const analysis = analyzeClaim(claim.text);
    const stems = analysis.stems.filter((stem) => !question.has(stem));
    const count = Math.max(1, stems.length);
    minEither = Math.min(minEither, stems.filter((stem) => evidence.has(stem) || reference.has(stem)).length / count);
    minReference = Math.min(minReference, stems.filter((stem) => reference.has(stem)).length / count);
    maxUnfound = Math.max(maxUnfound, stems.filter((stem) => !evidence.has(stem) && !reference.has(stem)).length);
    maxOutside = Math.max(maxOutside, stems.filter((stem) => !reference.has(stem)).length);
    const keys = analysis.quantities.map(({ quantity }) => figureKey(quantity));
    figures += keys.length;
    outsideReference += keys.filter((key) => !referenceFigures.has(key)).length;
  }
  const stated = input.referenceClaims.length === 0 ? 0 : input.referenceClaims.filter((claim) => claim.stated).length / input.referenceClaims.length;
  return [absent.length / input.claims.length, stated, minEither, minReference, outsideReference, figures, maxUnfound, input.claims.length, maxOutside];
}

/** How a claim the paraphrase model verified starts its note. */
export const PARAPHRASE_NOTE_PREFIX = 'paraphrase (model ';

/** Whether the paraphrase model verified any claim of this judgment (the claims' notes say so). */
export function readAsParaphrase(judgment: { status: string; claims?: readonly JudgedClaim[] }): boolean {
  return judgment.status === 'ok' && (judgment.claims ?? []).some((claim) => claim.verdict === 'verified' && claim.note.startsWith(PARAPHRASE_NOTE_PREFIX));
}

/** The model's probability that an answer with these features is a correct answer in other words. */
export function paraphraseProbability(model: ParaphraseModel, features: readonly number[]): number {
  let z = model.bias;
  for (let i = 0; i < features.length; i++) z += ((features[i]! - model.mean[i]!) / model.scale[i]!) * model.weights[i]!;
  return 1 / (1 + Math.exp(-z));
}

/**
 * What the judge version records about the paraphrase model, so judgments made with different
 * models are never mixed: nothing for the default model, `+paraphrase-off` without one, and
 * `+paraphrase-<hash of its figures>` for a team's own fit.
 */
export function paraphraseVersionSuffix(model: ParaphraseModel | null): string {
  if (model === null) return '+paraphrase-off';
  const figures = (m: ParaphraseModel) => JSON.stringify([m.mean, m.scale, m.weights, m.bias, m.threshold]);
  if (figures(model) === figures(DEFAULT_PARAPHRASE_MODEL)) return '';
  return `+paraphrase-${fnv1a(figures(model)).toString(16).padStart(8, '0')}`;
}

/**
 * A paraphrase model from JSON text: the model object itself, or the last line `npm run
 * bench:paraphrase` prints (`{ "model": { … } }`). Throws an Error saying what is wrong.
 */
export function parseParaphraseModel(text: string): ParaphraseModel {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // The bench's whole output saved to a file: its last line is the JSON.
    try {
      parsed = JSON.parse(text.trim().split('\n').at(-1) ?? '');
    } catch (error) {
      throw new Error(`is not JSON (${(error as Error).message}): give the model object, or the last line npm run bench:paraphrase prints`);
    }
  }
  const fromBench = parsed !== null && typeof parsed === 'object' && 'model' in parsed;
  if (fromBench && (parsed as { model: unknown }).model === null) {
    throw new Error('holds no model: bench:paraphrase found no threshold worth using on those labels (run the judge with the model off, or label more answers)');
  }
  const candidate = (fromBench ? (parsed as { model: unknown }).model : parsed) as ParaphraseModel;
  if (candidate === null || typeof candidate !== 'object' || !validParaphraseModel(candidate)) {
    throw new Error(`is not a paraphrase model: it needs mean, scale and weights with one finite number per feature (${PARAPHRASE_FEATURES.join(', ')}), a finite bias and a threshold in (0, 1]`);
  }
  return { features: PARAPHRASE_FEATURES, mean: candidate.mean, scale: candidate.scale, weights: candidate.weights, bias: candidate.bias, threshold: candidate.threshold };
}

/** Whether a model is usable: one weight, mean and scale per feature, finite numbers, a threshold in (0, 1]. */
export function validParaphraseModel(model: ParaphraseModel): boolean {
  const n = PARAPHRASE_FEATURES.length;
  const finite = (values: readonly number[]) => Array.isArray(values) && values.length === n && values.every(Number.isFinite);
  return finite(model.mean) && finite(model.scale) && model.scale.every((value) => value > 0) && finite(model.weights) && Number.isFinite(model.bias) && model.threshold > 0 && model.threshold <= 1;
}
