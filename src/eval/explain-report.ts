import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { dollars, interval, percent, seconds } from './format.js';
import type { ExplainEvalResults } from './explain-runner.js';
import type { CriteriaRates, GroupSummary } from './explain-summary.js';

/**
 * The explain-errors reports: `<suite>-<timestamp>.json` (everything: every explanation, its trace,
 * the excerpt it was judged against, every claim and trial) and `.md` (per group: the pairwise
 * win rate, each criterion per side, the truncation effect and the judge-evidence effect, every
 * failure's outcome). Formatting helpers are the Q&A reports' own (`format.ts`).
 */

export interface ExplainReportPaths {
  json: string;
  markdown: string;
}

/** Write both reports into `outDir`; the timestamp is the run's start, as for Q&A suites. */
export function writeExplainReports(results: ExplainEvalResults, outDir: string): ExplainReportPaths {
  mkdirSync(outDir, { recursive: true });
  const base = join(outDir, `${results.suite.name}-${results.startedAt.replace(/[-:]/g, '')}`);
  const paths = { json: `${base}.json`, markdown: `${base}.md` };
  writeFileSync(paths.json, `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(paths.markdown, explainMarkdown(results));
  return paths;
}

const GROUPS = [
  ['all', 'All failures'],
  ['app-code', 'Cause in app code'],
  ['stack-named', 'Cause named by the stack'],
] as const;

const CRITERIA: [keyof CriteriaRates, string][] = [
  ['foundCause', 'found the cause'],
  ['pointsToFixLocation', 'points to the fix location'],
  ['proposesWorkingFix', 'proposes a working fix'],
  ['explainsForLearner', 'explains it for a learner'],
  ['noFabrication', 'no fabrication (claims vs excerpt)'],
];

/** The Markdown summary. */
export function explainMarkdown(results: ExplainEvalResults): string {
  const lines: string[] = [];
  const groups = results.summary.groups;
  lines.push(`# ${results.suite.name}: ${results.passed ? 'PASSED' : 'FAILED'}`, '');
  if (results.suite.description) lines.push(results.suite.description, '');
  lines.push(
    `${results.suite.failures} failures (${results.suite.groups['app-code']} app-code, ${results.suite.groups['stack-named']} stack-named), ${seconds(results.durationMs)}. ` +
      `Explainer ${results.versions.generator}, prompt ${results.versions.promptVersion ?? 'n/a'}; claims judge ${judgeName(results.versions.claimsJudge)}; ` +
      `pairwise judge ${results.versions.pairwiseJudge ? judgeName(results.versions.pairwiseJudge) : 'n/a'}; seed ${results.config.seed}, ${results.config.bothOrders ? 'both orders' : 'one order'}, ${results.config.maxFrames} frames.`,
    '',
  );
  if (results.gates.length > 0) {
    lines.push('## Gates', '');
    for (const gate of results.gates) lines.push(`- ${gate.passed ? 'pass' : '**FAIL**'}: ${gate.message}`);
    lines.push('');
  }
  lines.push('## RAG on against RAG off (blind, pairwise)', '');
  lines.push('| group | n | wins | ties | losses | errors | win rate [95% CI] | position consistency |', '|---|---|---|---|---|---|---|---|');
  for (const [key, label] of GROUPS) {
    const pairwise = groups[key].pairwise;
    lines.push(`| ${label} | ${pairwise.n} | ${pairwise.wins} | ${pairwise.ties} | ${pairwise.losses} | ${pairwise.errors} | ${percent(pairwise.winRate)} ${interval(pairwise.winRateCi)} | ${consistency(results, pairwise.positionConsistency)} |`);
  }
  lines.push('', '## The explicit criteria, per side', '');
  lines.push(`| criterion | ${GROUPS.map(([, label]) => `${label}: on / off`).join(' | ')} |`, `|---|${GROUPS.map(() => '---').join('|')}|`);
  for (const [key, label] of CRITERIA) lines.push(`| ${label} | ${GROUPS.map(([group]) => `${percent(groups[group].rag[key], 0)} / ${percent(groups[group].norag[key], 0)}`).join(' | ')} |`);
  lines.push('', '## Truncation effect (RAG off, points to the fix location)', '');
  lines.push('| group | RAG off, app frames kept | RAG off, tail only | RAG on | RAG on\'s lead with app frames kept | with tail only |', '|---|---|---|---|---|---|');
  for (const [key, label] of GROUPS) {
    const truncation = groups[key].truncation;
    lines.push(`| ${label} | ${percent(truncation.noragAppFrames, 0)} | ${percent(truncation.noragTail, 0)} | ${percent(truncation.rag, 0)} | ${points(truncation.leadWithAppFrames)} | ${points(truncation.leadWithTail)} |`);
  }
  lines.push('', '## What the claims judge was shown (RAG-on explanations with no fabrication)', '');
  lines.push('| group | n | the excerpt (default) | the stack only | everything the explainer saw |', '|---|---|---|---|---|');
  for (const [key, label] of GROUPS) {
    const evidence = groups[key].judgeEvidence;
    lines.push(`| ${label} | ${evidence.n} | ${percent(evidence.excerpt, 0)} | ${percent(evidence.stackOnly, 0)} | ${percent(evidence.generatorContext, 0)} |`);
  }
  lines.push('', '## Failures', '');
  lines.push('| failure | group | HTTP | outcome | truncation (app frames vs tail) | RAG-on claims (✓/✗/?) | RAG-off claims |', '|---|---|---|---|---|---|---|');
  for (const failure of results.failures) {
    if (failure.status !== 'ok' || !failure.sides) {
      lines.push(`| ${failure.id} | ${failure.group} | ${failure.httpStatus ?? 'n/a'} | not run: ${escapeCell(failure.error ?? '')} | | | |`);
      continue;
    }
    lines.push(`| ${failure.id} | ${failure.group} | ${failure.httpStatus} | ${failure.pairwise?.outcome ?? 'n/a'} | ${truncationOutcome(failure.truncation?.outcome)} | ${counts(failure.sides.rag.claims)} | ${counts(failure.sides.norag.claims)} |`);
  }
  lines.push('', `Judge calls ${groups.all.judgeCalls}, judge errors ${groups.all.judgeErrors} (${percent(groups.all.judgeErrorRate)}); model calls ${results.usage.models.reduce((sum, model) => sum + model.calls, 0)}, cost ${dollars(results.usage.totalCostUsd)}.`);
  for (const warning of results.warnings) lines.push('', `Warning: ${warning}`);
  return `${lines.join('\n')}\n`;
}

/** The lines printed when a run ends. */
export function explainTerminalSummary(results: ExplainEvalResults, paths: ExplainReportPaths): string {
  const lines: string[] = [`${results.suite.name}: ${results.suite.failures} failures, ${seconds(results.durationMs)}`];
  for (const [key, label] of GROUPS) {
    const group: GroupSummary = results.summary.groups[key];
    lines.push(
      `  ${label.padEnd(26)} win rate ${percent(group.pairwise.winRate).padStart(6)} (${group.pairwise.wins}W ${group.pairwise.ties}T ${group.pairwise.losses}L ${group.pairwise.errors}E)` +
        `  fix location on/off ${percent(group.rag.pointsToFixLocation, 0)}/${percent(group.norag.pointsToFixLocation, 0)}, off with tail-only truncation ${percent(group.truncation.noragTail, 0)}`,
    );
  }
  const evidence = results.summary.groups.all.judgeEvidence;
  lines.push(`  RAG-on no fabrication: ${percent(evidence.excerpt, 0)} against the excerpt, ${percent(evidence.stackOnly, 0)} against the stack only, ${percent(evidence.generatorContext, 0)} against what it saw`);
  lines.push(`  judge errors ${results.summary.groups.all.judgeErrors} of ${results.summary.groups.all.judgeCalls} calls`);
  for (const failed of results.failures.filter((failure) => failure.status !== 'ok')) lines.push(`  failure ${failed.id} not run: ${failed.error}`);
  if (results.gates.length > 0) for (const gate of results.gates) lines.push(`  ${gate.passed ? 'pass' : 'FAIL'}  ${gate.message}`);
  else lines.push('gates: none');
  for (const warning of results.warnings) lines.push(`warning: ${warning}`);
  lines.push(`reports: ${paths.markdown}  ${paths.json}`);
  lines.push(results.passed ? 'PASSED' : 'FAILED');
  return lines.join('\n');
}

function judgeName(info: { kind: string; model: string; promptVersion: string }): string {
  return info.kind === 'heuristic' ? `heuristic ${info.promptVersion}` : `${info.model} ${info.promptVersion}`;
}

function consistency(results: ExplainEvalResults, value: number | null): string {
  const shown = percent(value, 0);
  return results.versions.pairwiseJudge?.kind === 'heuristic' ? `${shown} (symmetric by construction)` : shown;
}

function points(value: number | null): string {
  return value === null ? 'n/a' : `${value >= 0 ? '+' : ''}${Math.round(value * 100)} points`;
}

function truncationOutcome(outcome: string | undefined): string {
  return outcome === 'rag' ? 'app frames better' : outcome === 'norag' ? 'tail better' : (outcome ?? 'n/a');
}

function counts(judgment: { status: string; counts?: { verified: number; contradicted: number; absent: number } } | null): string {
  if (!judgment || judgment.status !== 'ok' || !judgment.counts) return 'judge error';
  return `${judgment.counts.verified}/${judgment.counts.contradicted}/${judgment.counts.absent}`;
}

function escapeCell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}
