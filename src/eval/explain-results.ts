import type { EvidencePassage } from '../contract/evidence.js';
import type { Explanation } from '../explain/explain.js';
import type { PairwiseOutcome } from '../judge/pairwise-protocol.js';
import type { FaithfulnessJudgment } from '../judge/types.js';
import type { ExplainFailure, FailureGroup } from './explain-suite.js';

/** What the explain-errors eval records per failure (read by the runner, the summary and the report). */

export type ExplainVariant = 'rag' | 'norag' | 'noragTail';

/** One explanation of one failure. */
export interface ExplainedSide {
  text: string | null;
  /** The explanation's trace; `null` when none was produced. */
  trace: Explanation['trace'];
  errorReport: string;
  mode: 'rag' | 'norag';
  notes: string[];
  /** Claim verdicts against the judge's excerpt. */
  claims: FaithfulnessJudgment | null;
}

export interface FailureResult {
  id: string;
  group: FailureGroup;
  request: ExplainFailure['request'];
  reference: ExplainFailure['reference'];
  status: 'ok' | 'error';
  error: string | null;
  httpStatus: number | null;
  /** The judge's evidence: the excerpt and the error report. */
  evidence: EvidencePassage[];
  sides: Record<ExplainVariant, ExplainedSide> | null;
  /** RAG on (`rag`) against RAG off (`norag`). */
  pairwise: PairwiseOutcome | null;
  /** RAG off with app-frame truncation (in the `rag` slot) against tail-only truncation (`norag` slot). */
  truncation: PairwiseOutcome | null;
  /** The RAG-on explanation's claims judged against less and more than the excerpt (see METHODOLOGY.md). */
  evidenceAblation: { stackOnly: FaithfulnessJudgment | null; generatorContext: FaithfulnessJudgment | null } | null;
}
