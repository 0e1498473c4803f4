import { parseJudgeVersion, type JudgeInfo } from '../../contract/judgment.js';
import { JUDGE_ERROR_ROW, OUTCOME_TABLE, outcomeNames, type JudgmentOutcome, type OutcomeTone } from '../../contract/outcome.js';
import type { OfflineRun } from '../../eval/results-folder.js';
import { usesEncoder } from '../../judge/heuristic-encoder.js';
import type { OutcomeBucket } from '../capture-store.js';

/**
 * The live-beside-offline view: live outcome rates per bucket of time and over the range, the
 * newest offline eval's rates for the same judge version, and the words the page shows about
 * them. Pure: the API feeds it the store's counts and the results folder's run.
 *
 * A rate is an outcome's share of the judgments (judge errors included, as their own outcome):
 * live, the judge version's judgments of the range's captures that were not aborted; offline, the
 * run's RAG-on judgments, one per question per run. Both are classified by the one outcome table,
 * read the same way, so the two numbers of a row mean the same thing.
 */

/** One outcome's count and share. `rate` is `null` when nothing was judged. */
export interface OutcomeRate {
  count: number;
  rate: number | null;
}

export interface RatesBucketView {
  start: number;
  captures: number;
  judged: number;
  pending: number;
  notJudged: number;
  aborted: number;
  outcomes: Record<JudgmentOutcome, OutcomeRate>;
}

export interface RatesView {
  judgeVersion: string | null;
  judge: JudgeInfo | null;
  range: { from: number; to: number; bucket: 'hour' | 'day' | null };
  /** The rows, in the table's order (judge errors first), with the words and colours every page uses. */
  outcomes: { outcome: JudgmentOutcome; label: string; tone: OutcomeTone; pass: boolean | null; description: string }[];
  buckets: RatesBucketView[];
  /** The whole range. */
  live: RatesBucketView;
  offline: (Omit<OfflineRun, 'outcomes'> & { outcomes: Record<JudgmentOutcome, OutcomeRate> }) | null;
  /** Why the numbers are comparable, and what differs between the two sides. */
  comparison: string;
  /** When there is no offline run for this judge version: what to run to make one. */
  missingOffline: { message: string; command: string } | null;
}

export interface RatesViewInput {
  judgeVersion: string | null;
  range: RatesView['range'];
  /** Every bucket of the range, in order (the store's counts). */
  buckets: OutcomeBucket[];
  offline: OfflineRun | null;
  /** Whether a live judge runs (unjudged captures are pending rather than not judged). */
  judging: boolean;
  /** The results folder read, for the command that fills it. `null`: none is configured. */
  resultsDir: string | null;
}

export function ratesView(input: RatesViewInput): RatesView {
  const judge = input.judgeVersion === null ? null : parseJudgeVersion(input.judgeVersion);
  const bucketView = (bucket: OutcomeBucket): RatesBucketView => {
    const judged = outcomeNames().reduce((sum, outcome) => sum + bucket.outcomes[outcome], 0);
    return {
      start: bucket.start,
      captures: bucket.captures,
      judged,
      pending: input.judging ? bucket.unjudged - bucket.unjudgedTruncated : 0,
      notJudged: input.judging ? bucket.unjudgedTruncated : bucket.unjudged,
      aborted: bucket.aborted,
      outcomes: ratesOf(bucket.outcomes, judged),
    };
  };
  const offline = input.offline === null ? null : { ...input.offline, outcomes: ratesOf(input.offline.outcomes, input.offline.judged) };
  return {
    judgeVersion: input.judgeVersion,
    judge,
    range: input.range,
    outcomes: [JUDGE_ERROR_ROW, ...OUTCOME_TABLE].map((row) => ({ outcome: row.outcome, label: row.label, tone: row.tone, pass: row.pass, description: row.description })),
    buckets: input.buckets.map(bucketView),
    live: bucketView(sumOf(input.buckets, input.range.from)),
    offline,
    comparison: comparisonText(input.judgeVersion, input.offline),
    missingOffline: input.offline === null && input.judgeVersion !== null ? missingOffline(input.judgeVersion, judge, input.resultsDir) : null,
  };
}

/** The buckets added up: the whole range. */
function sumOf(buckets: readonly OutcomeBucket[], start: number): OutcomeBucket {
  const total: OutcomeBucket = { start, captures: 0, aborted: 0, refused: 0, unjudged: 0, unjudgedTruncated: 0, outcomes: Object.fromEntries(outcomeNames().map((outcome) => [outcome, 0])) as Record<JudgmentOutcome, number> };
  for (const bucket of buckets) {
    total.captures += bucket.captures;
    total.aborted += bucket.aborted;
    total.refused += bucket.refused;
    total.unjudged += bucket.unjudged;
    total.unjudgedTruncated += bucket.unjudgedTruncated;
    for (const outcome of outcomeNames()) total.outcomes[outcome] += bucket.outcomes[outcome];
  }
  return total;
}

function ratesOf(counts: Record<JudgmentOutcome, number>, judged: number): Record<JudgmentOutcome, OutcomeRate> {
  return Object.fromEntries(outcomeNames().map((outcome) => [outcome, { count: counts[outcome], rate: judged === 0 ? null : counts[outcome] / judged }])) as Record<JudgmentOutcome, OutcomeRate>;
}

function comparisonText(judgeVersion: string | null, offline: OfflineRun | null): string {
  if (judgeVersion === null) return 'No judge version yet: nothing has been judged, and no live judge is configured (pass worker or judgeVersion to the dashboard).';
  const sameJudge = `The same judge (${judgeVersion}) grades both sides with the same outcome table, so each live rate and its offline rate are comparable: a difference comes from the questions and the app, not from the grading.`;
  const differences =
    ' What differs: live counts your users’ questions (every judged capture, RAG-off ones too where your app has them), offline the suite’s questions with retrieval on; and offline an answer that leaves out most of its reference answer is Incomplete too, while live answers have no reference.';
  return offline === null ? sameJudge : `${sameJudge}${differences}`;
}

/**
 * The command that writes an offline run with this judge into the folder the dashboard reads: the
 * eval's own flags for groundcheck's judges (the same groundcheck version gives the same prompt
 * version), else the library call for a judge of your own.
 */
export function offlineEvalCommand(judge: JudgeInfo | null, resultsDir: string | null): string {
  const out = `--out ${shellWord(resultsDir ?? 'evals/results')}`;
  if (judge?.kind === 'heuristic') return `npx groundcheck eval --suite <your-suite.json> --judge-provider local${usesEncoder(judge.promptVersion) ? ' --judge-encoder' : ''} ${out}`;
  if (judge?.kind === 'llm' && judge.model.startsWith('openai:')) {
    return `GROUNDCHECK_JUDGE_MODEL=${shellWord(judge.model.slice('openai:'.length))} npx groundcheck eval --suite <your-suite.json> --judge-provider openai ${out}`;
  }
  return `writeReports(await runEval({ suite: '<your-suite.json>', judge: { faithfulness: <this judge>, pairwise } }), '${resultsDir ?? 'evals/results'}')`;
}

function missingOffline(judgeVersion: string, judge: JudgeInfo | null, resultsDir: string | null): { message: string; command: string } {
  const where = resultsDir === null ? 'No results folder is configured (the dashboard option evalResults)' : `No offline eval in ${resultsDir} was graded by this judge`;
  const tail =
    judge?.kind === 'heuristic' || judge?.kind === 'llm'
      ? ` Make one with the same judge, ${judgeVersion} (run it with this groundcheck version, which has this judge version):`
      : ` Make one with this judge, ${judgeVersion}, and write its results there:`;
  return { message: `${where}.${tail}`, command: offlineEvalCommand(judge, resultsDir) };
}

/** A word as a POSIX shell reads it: bare when plain, else single-quoted. */
function shellWord(word: string): string {
  return /^[\w./:@%+=,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
