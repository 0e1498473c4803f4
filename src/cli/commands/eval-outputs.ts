import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { markdownSummary } from '../../eval/report-markdown.js';
import { junitReport } from '../../eval/report-junit.js';
import { sweepMarkdown, sweepTerminalSummary, writeSweepReports } from '../../eval/report-sweep.js';
import type { SweepResults } from '../../eval/sweep.js';
import type { EvalResults } from '../../eval/types.js';
import type { CliIO } from '../io.js';

/**
 * What `groundcheck eval` writes for CI besides its timestamped reports: `--json <file>` (the
 * results at a path that does not change between runs), `--junit <file>`, and the Markdown
 * summary appended to `$GITHUB_STEP_SUMMARY` when that is set. Returns one line per file written.
 */
export function writeEvalOutputs(results: EvalResults, options: { json: string | undefined; junit: string | undefined; io: CliIO }): string[] {
  const { io } = options;
  const lines: string[] = [];
  if (options.json !== undefined) lines.push(`json: ${write(io, options.json, `${JSON.stringify(results, null, 2)}\n`)}`);
  if (options.junit !== undefined) lines.push(`junit: ${write(io, options.junit, junitReport(results))}`);
  const summary = stepSummary(io, markdownSummary(results));
  if (summary) lines.push(summary);
  return lines;
}

/** The sweep's reports, `--json`, and the step summary; returns what the terminal shows. */
export function writeSweepOutputs(sweep: SweepResults, options: { outDir: string; json: string | undefined; io: CliIO }): string {
  const { io } = options;
  const paths = writeSweepReports(sweep, options.outDir);
  const lines = [sweepTerminalSummary(sweep), `reports: ${[paths.html, paths.markdown, paths.json].map((path) => show(io, path)).join('  ')}`];
  if (options.json !== undefined) lines.push(`json: ${write(io, options.json, `${JSON.stringify(sweep, null, 2)}\n`)}`);
  const summary = stepSummary(io, sweepMarkdown(sweep));
  if (summary) lines.push(summary);
  return lines.join('\n');
}

/** GitHub Actions shows what a step appends to the file `$GITHUB_STEP_SUMMARY` names. */
function stepSummary(io: CliIO, markdown: string): string | null {
  const file = io.env.GITHUB_STEP_SUMMARY;
  if (!file) return null;
  appendFileSync(file, `${markdown}\n`);
  return `step summary: appended to $GITHUB_STEP_SUMMARY`;
}

function write(io: CliIO, given: string, text: string): string {
  const path = resolve(io.cwd, given);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return show(io, path);
}

function show(io: CliIO, path: string): string {
  const shown = relative(io.cwd, path);
  return shown.startsWith('..') ? path : shown;
}
