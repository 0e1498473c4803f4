import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { dollars, percent, seconds } from './format.js';
import { STYLES } from './report-html.js';
import type { SweepPoint, SweepResults } from './sweep.js';
import { escapeHtml as h, scatterPlot } from './svg.js';
import { GENERATOR_META } from '../text/generated-mark.js';

/** The columns of a sweep table, in order, with how each reads. */
const COLUMNS: { key: keyof SweepPoint; label: string; format: (value: number | null) => string; better: string }[] = [
  { key: 'hallucinationRate', label: 'hallucination (answers)', format: (value) => percent(value), better: 'lower' },
  { key: 'claimHallucinationRate', label: 'hallucination (claims)', format: (value) => percent(value), better: 'lower' },
  { key: 'unsupportedWordShare', label: 'unsupported words (lexical)', format: (value) => percent(value), better: 'lower' },
  { key: 'keywordHitRate', label: 'keyword hit', format: (value) => percent(value), better: 'higher' },
  { key: 'correctAnswerRate', label: 'correct answers', format: (value) => percent(value), better: 'higher' },
  { key: 'meanWords', label: 'mean words', format: (value) => (value === null ? 'n/a' : value.toFixed(1)), better: '' },
  { key: 'refusalRate', label: 'refusal (must refuse)', format: (value) => percent(value), better: 'higher' },
  { key: 'falseRefusalRate', label: 'false refusal', format: (value) => percent(value), better: 'lower' },
];

/**
 * The sweep's trade-off plot: keyword hit rate against hallucination rate, one point per value,
 * the Pareto-optimal values filled, starred and joined.
 */
export function sweepPlot(sweep: SweepResults): string {
  const points = sweep.points
    .filter((point) => point.hallucinationRate !== null && point.keywordHitRate !== null)
    .map((point) => ({
      x: point.keywordHitRate!,
      y: point.hallucinationRate!,
      label: String(point.value),
      highlighted: point.pareto,
      title: `${sweep.option} ${point.value}: hallucination ${percent(point.hallucinationRate)}, keyword hit ${percent(point.keywordHitRate)}, mean ${point.meanWords?.toFixed(0) ?? 'n/a'} words${point.pareto ? ' (Pareto-optimal)' : ''}`,
    }));
  return scatterPlot({
    title: `Trade-off across ${sweep.option}`,
    xLabel: 'keyword hit rate, RAG on (→ better)',
    yLabel: 'hallucination rate, RAG on (↓ better)',
    points,
    format: (value, digits) => percent(value, digits),
    highlightLabel: 'Pareto-optimal',
    otherLabel: 'dominated',
  });
}

/** A self-contained HTML report of a sweep: the trade-off plot, the table per value, usage. */
export function sweepHtml(sweep: SweepResults): string {
  const rows = sweep.points
    .map((point) => `<tr class="${point.pareto ? 'pareto' : ''}"><td>${h(String(point.value))}${point.pareto ? ' ★' : ''}</td>${COLUMNS.map((column) => `<td>${h(column.format(point[column.key] as number | null))}</td>`).join('')}<td>${point.passed ? 'pass' : '<strong>FAIL</strong>'}</td></tr>`)
    .join('');
  const first = sweep.results[0]!;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
${GENERATOR_META}
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>groundcheck sweep · ${h(sweep.suite.name)} · ${h(sweep.option)}</title>
<style>${STYLES}</style>
</head>
<body>
<main>
<header>
<div class="title-row"><h1>${h(sweep.suite.name)}: sweep of ${h(sweep.option)}</h1></div>
<p class="meta">${sweep.values.length} values (${h(sweep.values.join(', '))}) · ${sweep.suite.questions} questions · ${first.runs.length} run(s) each · ${seconds(sweep.durationMs)} · ${h(sweep.startedAt)}</p>
<p class="meta">generator <code>${h(first.config.generator ?? sweep.target.name)}</code> · judge <code>${h(first.versions.faithfulnessJudge.kind === 'heuristic' ? 'heuristic (offline)' : first.versions.faithfulnessJudge.model)}</code></p>
</header>
<section><h2>Trade-off</h2>
<p>Pareto-optimal: <strong>${h(sweep.paretoValues.map((value) => `${sweep.option} ${value}`).join(', ') || 'none measured')}</strong>. No other value is at least as good on both axes and better on one. Choose among these; the rest are beaten.</p>
<figure>${sweepPlot(sweep)}</figure>
<p class="muted small">Longer answers make more claims, so the answer-level hallucination rate and the lexical unsupported-word share rise with length even when each claim is as well grounded; compare the claim-level rate before reading a rise as worse grounding (METHODOLOGY.md, "Sweeps").</p></section>
<section><h2>Per value</h2>
<table><thead><tr><th>${h(sweep.option)}</th>${COLUMNS.map((column) => `<th>${h(column.label)}${column.better ? `<div class="muted small">${column.better} is better</div>` : ''}</th>`).join('')}<th>gates</th></tr></thead><tbody>${rows}</tbody></table></section>
<section><h2>Usage</h2>
<p>${sweep.usage.modelCalls} model calls · cache ${sweep.usage.cacheHits} hits / ${sweep.usage.cacheMisses} misses · cost ${h(dollars(sweep.usage.totalCostUsd))}</p>
<p class="muted small">A value already run with the same models and cache is answered from the cache: rerunning it costs no model call. The offline provider computes its answers and is not cached.</p></section>
</main>
</body>
</html>
`;
}

/** A Markdown summary of a sweep: the Pareto-optimal values and the table per value. */
export function sweepMarkdown(sweep: SweepResults): string {
  const lines = [
    `# groundcheck sweep: ${sweep.suite.name}, ${sweep.option}`,
    '',
    `${sweep.values.length} values · ${sweep.suite.questions} questions · ${seconds(sweep.durationMs)} · ${sweep.startedAt}`,
    '',
    `**Pareto-optimal** (lower hallucination, higher keyword hit): ${sweep.paretoValues.map((value) => `${sweep.option} ${value}`).join(', ') || 'none measured'}`,
    '',
    `| ${sweep.option} | ${COLUMNS.map((column) => column.label).join(' | ')} | gates |`,
    `|${'---|'.repeat(COLUMNS.length + 2)}`,
    ...sweep.points.map((point) => `| ${point.value}${point.pareto ? ' ★' : ''} | ${COLUMNS.map((column) => column.format(point[column.key] as number | null)).join(' | ')} | ${point.passed ? 'pass' : '**FAIL**'} |`),
    '',
    `Model calls ${sweep.usage.modelCalls}, cache ${sweep.usage.cacheHits} hits / ${sweep.usage.cacheMisses} misses, cost ${dollars(sweep.usage.totalCostUsd)}.`,
    '',
  ];
  return `${lines.join('\n')}\n`;
}

/**
 * Write `<suite>-sweep-<option>-<timestamp>.json` (everything, each value's full results
 * included), `.md` and `.html` (with the trade-off plot) into `outDir`.
 */
export function writeSweepReports(sweep: SweepResults, outDir: string): { json: string; markdown: string; html: string } {
  mkdirSync(outDir, { recursive: true });
  const base = join(outDir, `${sweep.suite.name}-sweep-${sweep.option}-${sweep.startedAt.replace(/[-:]/g, '')}`);
  const paths = { json: `${base}.json`, markdown: `${base}.md`, html: `${base}.html` };
  writeFileSync(paths.json, `${JSON.stringify(sweep, null, 2)}\n`);
  writeFileSync(paths.markdown, sweepMarkdown(sweep));
  writeFileSync(paths.html, sweepHtml(sweep));
  return paths;
}

/** The lines the CLI prints when a sweep ends. */
export function sweepTerminalSummary(sweep: SweepResults): string {
  const lines = [`${sweep.suite.name}: sweep of ${sweep.option} over ${sweep.values.join(', ')} (${seconds(sweep.durationMs)})`];
  lines.push(`  ${sweep.option.padEnd(10)} ${'halluc.'.padStart(8)} ${'claims'.padStart(8)} ${'keywords'.padStart(9)} ${'correct'.padStart(8)} ${'words'.padStart(6)}`);
  for (const point of sweep.points) {
    lines.push(`  ${`${point.value}${point.pareto ? ' *' : ''}`.padEnd(10)} ${percent(point.hallucinationRate).padStart(8)} ${percent(point.claimHallucinationRate).padStart(8)} ${percent(point.keywordHitRate).padStart(9)} ${percent(point.correctAnswerRate).padStart(8)} ${(point.meanWords === null ? 'n/a' : point.meanWords.toFixed(1)).padStart(6)}`);
  }
  lines.push(`  * Pareto-optimal: ${sweep.paretoValues.join(', ') || 'none measured'} · model calls ${sweep.usage.modelCalls}, cache ${sweep.usage.cacheHits} hits / ${sweep.usage.cacheMisses} misses, cost ${dollars(sweep.usage.totalCostUsd)}`);
  return lines.join('\n');
}

