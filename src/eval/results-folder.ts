import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { judgeVersionOf, type JudgeInfo } from '../contract/judgment.js';
import { flagsOf, outcomeNames, outcomeOf, type JudgmentOutcome } from '../contract/outcome.js';
import { readResults } from './spotcheck.js';
import type { EvalResults } from './types.js';

/**
 * A folder of eval results, read for the dashboard's offline rates: the results files `groundcheck
 * eval` writes (`evals/results/<suite>-<time>.json`, or `writeReports(results, dir)`). For a judge
 * version, the newest run (by `startedAt`) whose faithfulness judge (`versions.faithfulnessJudge`) has that
 * version. A file is read once and remembered by its modification time and size; a folder of
 * hundreds of runs costs one directory listing and a `stat` per file on each refresh.
 */

/** One eval run's RAG-on outcomes, as the dashboard puts them beside the live ones. */
export interface OfflineRun {
  /** The results file. */
  file: string;
  suite: string;
  startedAt: string;
  judge: JudgeInfo;
  judgeVersion: string;
  runs: number;
  /** RAG-on judgments: one per question that ran, per run (judge errors included). */
  judged: number;
  /**
   * Per outcome, from each question's stored RAG-on judgment by the outcome table as it is now
   * (the same table, read the same way, as the live counts), summed over the runs.
   */
  outcomes: Record<JudgmentOutcome, number>;
}

/** A file in the folder that is not a results file this groundcheck reads, and why. */
export interface SkippedResultsFile {
  file: string;
  reason: string;
}

export interface ResultsFolder {
  /** The folder read. */
  readonly dir: string;
  /** Every run read, newest first, and the files skipped. */
  scan(): Promise<{ runs: OfflineRun[]; skipped: SkippedResultsFile[] }>;
  /** The newest run of this judge version, or `null`. */
  latestFor(judgeVersion: string): Promise<OfflineRun | null>;
}

/** The outcomes of a results file's RAG-on judgments, recounted with the outcome table. */
export function offlineRunOf(results: EvalResults, file: string): OfflineRun {
  const outcomes = Object.fromEntries(outcomeNames().map((outcome) => [outcome, 0])) as Record<JudgmentOutcome, number>;
  let judged = 0;
  for (const run of results.runs) {
    for (const question of run.questions) {
      if (question.rag === null) continue;
      outcomes[outcomeOf(flagsOf(question.rag.judgment))] += 1;
      judged += 1;
    }
  }
  const judge = results.versions.faithfulnessJudge;
  return { file, suite: results.suite.name, startedAt: results.startedAt, judge, judgeVersion: judgeVersionOf(judge), runs: results.runs.length, judged, outcomes };
}

/**
 * The results files of a folder (`.json` files directly in it). A missing folder has none.
 *
 * @example
 * const folder = openResultsFolder('evals/results');
 * const run = await folder.latestFor('heuristic:heuristic:heuristic-v4');
 */
export function openResultsFolder(dir: string): ResultsFolder {
  const known = new Map<string, { mtimeMs: number; size: number; run: OfflineRun | null; reason: string | null }>();

  async function scan(): Promise<{ runs: OfflineRun[]; skipped: SkippedResultsFile[] }> {
    let names: string[];
    try {
      names = (await readdir(dir)).filter((name) => name.endsWith('.json')).sort();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return { runs: [], skipped: [] };
      throw error;
    }
    const runs: OfflineRun[] = [];
    const skipped: SkippedResultsFile[] = [];
    const seen = new Set<string>();
    for (const name of names) {
      const file = join(dir, name);
      seen.add(file);
      let info;
      try {
        info = await stat(file);
      } catch {
        continue; // removed since the listing
      }
      let entry = known.get(file);
      if (entry === undefined || entry.mtimeMs !== info.mtimeMs || entry.size !== info.size) {
        entry = { mtimeMs: info.mtimeMs, size: info.size, ...read(file) };
        known.set(file, entry);
      }
      if (entry.run) runs.push(entry.run);
      else skipped.push({ file, reason: entry.reason! });
    }
    for (const file of known.keys()) if (!seen.has(file)) known.delete(file);
    runs.sort((a, b) => Date.parse(b.startedAt) - Date.parse(a.startedAt) || b.file.localeCompare(a.file));
    return { runs, skipped };
  }

  return {
    dir,
    scan,
    async latestFor(judgeVersion) {
      return (await scan()).runs.find((run) => run.judgeVersion === judgeVersion) ?? null;
    },
  };
}

function read(file: string): { run: OfflineRun | null; reason: string | null } {
  try {
    return { run: offlineRunOf(readResults(file), file), reason: null };
  } catch (error) {
    return { run: null, reason: (error as Error).message };
  }
}
