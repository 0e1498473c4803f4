import { JUDGE_ERROR_ROW, OUTCOME_TABLE, outcomeNames, type OutcomeTone } from '../../contract/outcome.js';
import type { CaptureFilter, OutcomeBucket } from '../capture-store.js';
import { storedChunks } from '../capture-row.js';
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
  // A gate refusal's judgment rests on the chunks the gate withheld: their drift counts too.
  const drift = hashOf === null ? [] : chunkDrift(storedChunks(capture), hashOf);
  return { traceId: capture.traceId, ...verdictOf(capture, judgment, judging), capture, judgment, drift };
}

/** The judgment of the given judge version when there is one, else (no version) the newest. */
export function pickJudgment(judgments: readonly StoredJudgment[], judgeVersion: string | undefined): StoredJudgment | null {
  if (judgeVersion !== undefined) return judgments.find((judgment) => judgment.judgeVersion === judgeVersion) ?? null;
  return judgments.at(-1) ?? null;
}

/** What a filter needs to become a store query. */
export interface FilterContext {
  /** Whether a live judge runs: unjudged captures are `pending` then, else `not_judged`. */
  judging: boolean;
  /** The index's chunk hashes now, or `null` when drift is not checked. */
  currentHashes: ReadonlyMap<string, string> | null;
}

/** A filter of the capture list, as the API lists it for the page. */
export interface DashboardFilter {
  name: string;
  label: string;
  tone: OutcomeTone;
  /** The store's filter for it, or `null` when no capture can be in it (`pending` without a live judge, `drifted` without an index). */
  storeFilter(context: FilterContext): CaptureFilter | null;
  /** How many captures of the range are in it, from the store's counts; `null`: not counted (drift needs every capture's chunks). */
  count(totals: OutcomeBucket, context: FilterContext): number | null;
  /** Whether a listed row is in it (the same rule, read from the row's verdict). */
  matches(row: TraceView): boolean;
}

/**
 * The filters, built when asked (the outcome table's rows may change at run time; a test does):
 * all, one per outcome of the contract's table (its names and labels, never a list of our own),
 * one per capture state, then any refusal and drifted. Each is a store filter over every capture
 * (see `verdictOf` for the states: aborted whatever its judgment; pending = not judged yet, with a
 * live judge, not truncated; not judged = the rest of the unjudged).
 */
export function dashboardFilters(): DashboardFilter[] {
  const outcomeRows = new Map<string, { label: string; tone: OutcomeTone }>([[JUDGE_ERROR_ROW.outcome, JUDGE_ERROR_ROW], ...OUTCOME_TABLE.map((row) => [row.outcome, row] as const)]);
  const states: Record<CaptureState, Pick<DashboardFilter, 'storeFilter' | 'count'>> = {
    aborted: { storeFilter: () => ({ aborted: true }), count: (totals) => totals.aborted },
    pending: {
      storeFilter: ({ judging }) => (judging ? { judged: false, aborted: false, truncated: false } : null),
      count: (totals, { judging }) => (judging ? totals.unjudged - totals.unjudgedTruncated : 0),
    },
    not_judged: {
      storeFilter: ({ judging }) => (judging ? { judged: false, aborted: false, truncated: true } : { judged: false, aborted: false }),
      count: (totals, { judging }) => (judging ? totals.unjudgedTruncated : totals.unjudged),
    },
  };
  return [
    { name: 'all', label: 'All', tone: 'neutral', storeFilter: () => ({}), count: (totals) => totals.captures, matches: () => true },
    ...outcomeNames().map((outcome) => ({
      name: outcome,
      label: outcomeRows.get(outcome)!.label,
      tone: outcomeRows.get(outcome)!.tone,
      storeFilter: () => ({ outcome }),
      count: (totals: OutcomeBucket) => totals.outcomes[outcome] ?? 0,
      matches: (row: TraceView) => row.verdict === outcome,
    })),
    ...(Object.keys(CAPTURE_STATES) as CaptureState[]).map((state) => ({
      name: state,
      label: CAPTURE_STATES[state].label,
      tone: CAPTURE_STATES[state].tone,
      ...states[state],
      matches: (row: TraceView) => row.verdict === state,
    })),
    { name: 'refusals', label: 'Any refusal', tone: 'neutral', storeFilter: () => ({ refused: true }), count: (totals) => totals.refused, matches: (row) => row.capture.refused },
    {
      name: 'drifted',
      label: 'Drifted',
      tone: 'neutral',
      storeFilter: ({ currentHashes }) => (currentHashes === null ? null : { driftedFrom: currentHashes }),
      count: () => null,
      matches: (row) => row.drift.length > 0,
    },
  ];
}
