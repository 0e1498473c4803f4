import type { RagMode, RagTrace } from '../../contract/trace.js';
import type { EvalQuestion } from '../questions.js';

/**
 * What the runner asks of a target during one run: the trace of one question in one mode. The
 * groundcheck pipeline and external targets (HTTP, module) both answer through it, so everything
 * after the answer (judging, pairwise, metrics, reports) is one code path.
 */
export interface Answerer {
  /** Whether RAG-off answers exist (an external target may have no RAG-off switch). */
  readonly norag: boolean;
  /** Work that must succeed before any answer is asked for (groundcheck: the question's retrieval). */
  prepare?(question: EvalQuestion): Promise<void>;
  answer(question: EvalQuestion, mode: RagMode, signal?: AbortSignal): Promise<RagTrace>;
  /** The document (slug) a chunk id belongs to, when the target's index is known (groundcheck's own). */
  documentOf?(chunkId: string): string | undefined;
}

/** Calls made to an external target over a whole eval (cache hits are not calls). */
export interface TargetTally {
  calls: number;
  failedCalls: number;
  cacheHits: number;
}
