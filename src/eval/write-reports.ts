import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { htmlReport } from './report-html.js';
import { markdownSummary } from './report-markdown.js';
import type { EvalResults } from './types.js';

export interface ReportPaths {
  json: string;
  markdown: string;
  html: string;
}

/**
 * Write `<suite>-<timestamp>.json` (everything), `.md` (summary) and `.html` (report) into `outDir`.
 * The timestamp is the run's start in UTC with milliseconds (`20261129T101500.123Z`), so files
 * sort by time and two runs in the same second do not overwrite each other.
 *
 * @example
 * const paths = writeReports(results, 'evals/results');
 */
export function writeReports(results: EvalResults, outDir: string): ReportPaths {
  mkdirSync(outDir, { recursive: true });
  const stamp = results.startedAt.replace(/[-:]/g, '');
  const base = join(outDir, `${results.suite.name}-${stamp}`);
  const paths = { json: `${base}.json`, markdown: `${base}.md`, html: `${base}.html` };
  writeFileSync(paths.json, `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(paths.markdown, markdownSummary(results));
  writeFileSync(paths.html, htmlReport(results));
  return paths;
}
