/**
 * Scoring for `bench:judge`. Every answer gets exactly one outcome; only `flagged` is a
 * "hallucinated" prediction and only `accepted` is a "faithful" one. `undetermined`, `refused` and
 * `error` are neither: they are counted, shown, and scored as wrong on both sides (a right answer
 * the judge could not check was not accepted; a hallucinated answer it could not check was not
 * caught).
 */
export type AnswerOutcome = 'flagged' | 'accepted' | 'undetermined' | 'refused' | 'error';

export interface OutcomeCounts {
  flagged: number;
  accepted: number;
  undetermined: number;
  refused: number;
  error: number;
}

export function emptyCounts(): OutcomeCounts {
  return { flagged: 0, accepted: 0, undetermined: 0, refused: 0, error: 0 };
}

export function addCounts(a: OutcomeCounts, b: OutcomeCounts): OutcomeCounts {
  return {
    flagged: a.flagged + b.flagged,
    accepted: a.accepted + b.accepted,
    undetermined: a.undetermined + b.undetermined,
    refused: a.refused + b.refused,
    error: a.error + b.error,
  };
}

const total = (counts: OutcomeCounts) => counts.flagged + counts.accepted + counts.undetermined + counts.refused + counts.error;

export interface DetectionFigures {
  /** Items (one right and one hallucinated answer each). */
  items: number;
  /** Right answers accepted / right answers (true negative rate). */
  rightAccepted: number;
  /** Hallucinated answers flagged / hallucinated answers (recall for "hallucinated"). */
  hallucinatedFlagged: number;
  /** Mean of the two rates above (the answer sets are balanced, so also plain accuracy). */
  balancedAccuracy: number;
  /** For "hallucinated": flagged hallucinated / all flagged; `null` when nothing was flagged. */
  precision: number | null;
  recall: number;
  f1: number | null;
  /** Answers (of both kinds) with no checkable claim, refusals and judge errors. */
  undetermined: number;
  refused: number;
  errors: number;
  /** Balanced accuracy if undetermined right answers counted as accepted (for comparison with lenient scoring only). */
  balancedAccuracyUndeterminedAsAccepted: number;
}

/**
 * Figures from the outcomes of the right answers and of the hallucinated answers.
 *
 * @example
 * detectionFigures({ ...emptyCounts(), accepted: 9, flagged: 1 }, { ...emptyCounts(), flagged: 8, accepted: 2 })
 * // { rightAccepted: 0.9, hallucinatedFlagged: 0.8, balancedAccuracy: 0.85, precision: 0.888…, … }
 */
export function detectionFigures(right: OutcomeCounts, hallucinated: OutcomeCounts): DetectionFigures {
  const items = total(right);
  if (items !== total(hallucinated)) throw new Error('right and hallucinated answers must come in pairs');
  const rightAccepted = right.accepted / items;
  const hallucinatedFlagged = hallucinated.flagged / items;
  const flagged = hallucinated.flagged + right.flagged;
  const precision = flagged === 0 ? null : hallucinated.flagged / flagged;
  const recall = hallucinatedFlagged;
  const f1 = precision === null || precision + recall === 0 ? null : (2 * precision * recall) / (precision + recall);
  return {
    items,
    rightAccepted,
    hallucinatedFlagged,
    balancedAccuracy: (rightAccepted + hallucinatedFlagged) / 2,
    precision,
    recall,
    f1,
    undetermined: right.undetermined + hallucinated.undetermined,
    refused: right.refused + hallucinated.refused,
    errors: right.error + hallucinated.error,
    balancedAccuracyUndeterminedAsAccepted: ((right.accepted + right.undetermined) / items + hallucinatedFlagged) / 2,
  };
}
