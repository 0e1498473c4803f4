import { JUDGE_ERROR_ROW, OUTCOME_TABLE, outcomeNames, type OutcomeTone } from '../../contract/outcome.js';
import { chunkDrift, type DriftedChunk } from '../drift.js';
import type { Capture, StoredJudgment } from '../types.js';
import { CAPTURE_STATES, verdictOf, type CaptureState, type VerdictView } from '../verdict.js';

/** One capture as the dashboard and the trace API send it: the verdict's words, the capture, its judgment and its drift. */
export interface TraceView extends VerdictView {
  traceId: string;
  capture: Capture;
  judgment: StoredJudgment | null;
  drift: DriftedChunk[];
}

/**
 * Where current chunk hashes come from, for drift (a groundcheck `GroundcheckIndex` fits): all of
 * them for a list, and one chunk (when it can) for a single trace.
 */
export interface ChunkHashSource {
  chunkHashes(): ReadonlyMap<string, string>;
  /** `undefined` for a chunk that is gone. */
  getChunk?(chunkId: string): { hash: string } | undefined;
}

/** A chunk's current hash (`undefined`: gone), or `null` when drift is not checked. */
export type HashLookup = ((chunkId: string) => string | undefined) | null;

export function traceView(capture: Capture, judgment: StoredJudgment | null, judging: boolean, hashOf: HashLookup): TraceView {
  const drift = hashOf === null ? [] : chunkDrift(capture.chunks, hashOf);
  return { traceId: capture.traceId, ...verdictOf(capture, judgment, judging), capture, judgment, drift };
}

/** The judgment of the given judge version when there is one, else (no version) the newest. */
export function pickJudgment(judgments: readonly StoredJudgment[], judgeVersion: string | undefined): StoredJudgment | null {
  if (judgeVersion !== undefined) return judgments.find((judgment) => judgment.judgeVersion === judgeVersion) ?? null;
  return judgments.at(-1) ?? null;
}

/** A filter of the capture list, as the API lists it for the page. */
export interface DashboardFilter {
  name: string;
  label: string;
  tone: OutcomeTone;
  matches(row: TraceView): boolean;
}

/**
 * The filters, built when asked (the outcome table's rows may change at run time; a test does):
 * all, one per outcome of the contract's table (its names and labels, never a list of our own),
 * one per capture state, then any refusal and drifted.
 */
export function dashboardFilters(): DashboardFilter[] {
  const outcomeRows = new Map<string, { label: string; tone: OutcomeTone }>([[JUDGE_ERROR_ROW.outcome, JUDGE_ERROR_ROW], ...OUTCOME_TABLE.map((row) => [row.outcome, row] as const)]);
  return [
    { name: 'all', label: 'All', tone: 'neutral', matches: () => true },
    ...outcomeNames().map((outcome) => ({ name: outcome, label: outcomeRows.get(outcome)!.label, tone: outcomeRows.get(outcome)!.tone, matches: (row: TraceView) => row.verdict === outcome })),
    ...(Object.keys(CAPTURE_STATES) as CaptureState[]).map((state) => ({ name: state, label: CAPTURE_STATES[state].label, tone: CAPTURE_STATES[state].tone, matches: (row: TraceView) => row.verdict === state })),
    { name: 'refusals', label: 'Any refusal', tone: 'neutral', matches: (row) => row.capture.refused },
    { name: 'drifted', label: 'Drifted', tone: 'neutral', matches: (row) => row.drift.length > 0 },
  ];
}
