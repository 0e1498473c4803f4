/** Inline SVG charts for the HTML report: no scripts, no external assets, readable without CSS. */

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

export interface BarSeries {
  name: string;
  /** CSS colour. */
  color: string;
}

export interface BarRow {
  label: string;
  /** One value per series, in [0, 1]; `null` = not measured (drawn as "n/a"). */
  values: (number | null)[];
  /** Small text under the label, e.g. `n=12`. */
  note?: string;
  /** Bar colour for this row, overriding the series colour (one chart, two meanings). */
  color?: string;
}

export interface BarChartOptions {
  title: string;
  series: BarSeries[];
  rows: BarRow[];
  /** A gate threshold drawn as a dashed line. */
  threshold?: { value: number; label: string } | undefined;
  /** Formats a value for its label. */
  format: (value: number) => string;
  /** One bar per row (coloured by `row.color`); the series only make the legend. [legendOnly=false] */
  legendOnly?: boolean;
  width?: number;
}

/**
 * Horizontal grouped bars, one group per row (category), one bar per series, on a 0–100% scale.
 *
 * @example
 * barChart({ title: 'Recall@5', series: [{ name: 'recall@5', color: '#2563eb' }], rows, format: percent });
 */
export function barChart(options: BarChartOptions): string {
  const width = options.width ?? 520;
  const labelWidth = 130;
  const valueWidth = 52;
  const plotWidth = width - labelWidth - valueWidth - 8;
  const barHeight = 14;
  const groupGap = 10;
  const legendHeight = options.series.length > 1 ? 20 : 0;
  const top = 26 + legendHeight;
  // Room for the note line under a label when a group is a single bar.
  const hasNotes = options.rows.some((row) => row.note);
  const bars = options.legendOnly ? 1 : options.series.length;
  const groupHeight = Math.max(bars * barHeight, hasNotes ? 24 : 0) + groupGap;
  const height = top + options.rows.length * groupHeight + 18;
  const x = (value: number) => labelWidth + Math.max(0, Math.min(1, value)) * plotWidth;
  const parts: string[] = [];
  parts.push(`<svg class="chart" role="img" aria-label="${escapeHtml(options.title)}" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" xmlns="http://www.w3.org/2000/svg">`);
  parts.push(`<title>${escapeHtml(options.title)}</title>`);
  parts.push(`<text x="0" y="16" class="chart-title">${escapeHtml(options.title)}</text>`);
  if (legendHeight > 0) {
    let legendX = 0;
    for (const series of options.series) {
      parts.push(`<rect x="${legendX}" y="${top - legendHeight - 2}" width="10" height="10" rx="2" fill="${series.color}"/>`);
      parts.push(`<text x="${legendX + 14}" y="${top - legendHeight + 7}" class="chart-legend">${escapeHtml(series.name)}</text>`);
      legendX += 24 + series.name.length * 6.5;
    }
  }
  for (const tick of [0, 0.25, 0.5, 0.75, 1]) {
    parts.push(`<line x1="${x(tick)}" x2="${x(tick)}" y1="${top - 4}" y2="${height - 16}" class="chart-grid"/>`);
    parts.push(`<text x="${x(tick)}" y="${height - 4}" text-anchor="middle" class="chart-axis">${Math.round(tick * 100)}%</text>`);
  }
  options.rows.forEach((row, rowIndex) => {
    const groupTop = top + rowIndex * groupHeight;
    const labelY = groupTop + (bars * barHeight) / 2 + 4;
    parts.push(`<text x="${labelWidth - 8}" y="${labelY}" text-anchor="end" class="chart-label">${escapeHtml(row.label)}</text>`);
    if (row.note) parts.push(`<text x="${labelWidth - 8}" y="${labelY + 11}" text-anchor="end" class="chart-note">${escapeHtml(row.note)}</text>`);
    row.values.slice(0, bars).forEach((value, seriesIndex) => {
      const series = options.series[seriesIndex]!;
      const y = groupTop + seriesIndex * barHeight;
      parts.push(`<rect x="${labelWidth}" y="${y + 1}" width="${plotWidth}" height="${barHeight - 2}" class="chart-track"/>`);
      if (value === null) {
        parts.push(`<text x="${labelWidth + 4}" y="${y + barHeight - 3}" class="chart-na">n/a</text>`);
        return;
      }
      const barWidth = Math.max(value > 0 ? 1.5 : 0, x(value) - labelWidth);
      parts.push(
        `<rect x="${labelWidth}" y="${y + 1}" width="${barWidth.toFixed(1)}" height="${barHeight - 2}" rx="2" fill="${row.color ?? series.color}"><title>${escapeHtml(`${row.label} · ${series.name}: ${options.format(value)}`)}</title></rect>`,
      );
      parts.push(`<text x="${labelWidth + plotWidth + 6}" y="${y + barHeight - 3}" class="chart-value">${escapeHtml(options.format(value))}</text>`);
    });
  });
  if (options.threshold) {
    const tx = x(options.threshold.value);
    parts.push(`<line x1="${tx}" x2="${tx}" y1="${top - 6}" y2="${height - 16}" class="chart-threshold"/>`);
    parts.push(`<text x="${tx + 3}" y="${top - 6}" class="chart-threshold-label">${escapeHtml(options.threshold.label)}</text>`);
  }
  parts.push('</svg>');
  return parts.join('');
}

export interface StackedRow {
  label: string;
  segments: { name: string; value: number; color: string }[];
}

/**
 * Horizontal 100% stacked bars (pairwise wins / ties / losses / errors per category).
 */
export function stackedBarChart(options: { title: string; rows: StackedRow[]; width?: number }): string {
  const width = options.width ?? 520;
  const labelWidth = 130;
  const plotWidth = width - labelWidth - 8;
  const barHeight = 18;
  const gap = 8;
  const top = 44;
  const height = top + options.rows.length * (barHeight + gap) + 4;
  const names = [...new Map(options.rows.flatMap((row) => row.segments.map((segment) => [segment.name, segment.color] as const))).entries()];
  const parts: string[] = [];
  parts.push(`<svg class="chart" role="img" aria-label="${escapeHtml(options.title)}" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" xmlns="http://www.w3.org/2000/svg">`);
  parts.push(`<title>${escapeHtml(options.title)}</title>`);
  parts.push(`<text x="0" y="16" class="chart-title">${escapeHtml(options.title)}</text>`);
  let legendX = 0;
  for (const [name, color] of names) {
    parts.push(`<rect x="${legendX}" y="24" width="10" height="10" rx="2" fill="${color}"/>`);
    parts.push(`<text x="${legendX + 14}" y="33" class="chart-legend">${escapeHtml(name)}</text>`);
    legendX += 24 + name.length * 6.5;
  }
  options.rows.forEach((row, index) => {
    const y = top + index * (barHeight + gap);
    const total = row.segments.reduce((sum, segment) => sum + segment.value, 0);
    parts.push(`<text x="${labelWidth - 8}" y="${y + barHeight - 5}" text-anchor="end" class="chart-label">${escapeHtml(row.label)}</text>`);
    parts.push(`<rect x="${labelWidth}" y="${y}" width="${plotWidth}" height="${barHeight}" class="chart-track"/>`);
    let offset = labelWidth;
    for (const segment of row.segments) {
      if (total === 0 || segment.value === 0) continue;
      const segmentWidth = (segment.value / total) * plotWidth;
      parts.push(`<rect x="${offset.toFixed(1)}" y="${y}" width="${segmentWidth.toFixed(1)}" height="${barHeight}" fill="${segment.color}"><title>${escapeHtml(`${row.label} · ${segment.name}: ${segment.value}`)}</title></rect>`);
      if (segmentWidth > 16) parts.push(`<text x="${(offset + segmentWidth / 2).toFixed(1)}" y="${y + barHeight - 5}" text-anchor="middle" class="chart-segment">${segment.value}</text>`);
      offset += segmentWidth;
    }
    if (total === 0) parts.push(`<text x="${labelWidth + 4}" y="${y + barHeight - 5}" class="chart-na">no pairs</text>`);
  });
  parts.push('</svg>');
  return parts.join('');
}

/**
 * A 0–100% track with a dot at `value` and a band for the confidence interval; a tick for a gate.
 */
export function intervalStrip(value: number | null, ci: { lower: number; upper: number } | null, threshold?: number, color = '#2563eb'): string {
  const width = 200;
  const height = 18;
  const x = (v: number) => 4 + Math.max(0, Math.min(1, v)) * (width - 8);
  const parts = [`<svg class="strip" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" xmlns="http://www.w3.org/2000/svg" aria-hidden="true">`];
  parts.push(`<line x1="4" x2="${width - 4}" y1="9" y2="9" class="strip-track"/>`);
  if (ci) parts.push(`<rect x="${x(ci.lower).toFixed(1)}" y="5" width="${Math.max(1, x(ci.upper) - x(ci.lower)).toFixed(1)}" height="8" rx="4" fill="${color}" opacity="0.25"/>`);
  if (threshold !== undefined) parts.push(`<line x1="${x(threshold)}" x2="${x(threshold)}" y1="1" y2="17" class="chart-threshold"/>`);
  if (value !== null) parts.push(`<circle cx="${x(value).toFixed(1)}" cy="9" r="4.5" fill="${color}"/>`);
  parts.push('</svg>');
  return parts.join('');
}

export interface ScatterPoint {
  x: number;
  y: number;
  /** Printed beside the point (`125`). */
  label: string;
  /** Drawn filled and joined by the frontier line; the others are hollow. */
  highlighted: boolean;
  /** Tooltip text. */
  title: string;
}

export interface ScatterOptions {
  title: string;
  xLabel: string;
  yLabel: string;
  points: ScatterPoint[];
  /** Formats an axis value; `digits` grows when the axis spans little, so ticks stay distinct. */
  format: (value: number, digits: number) => string;
  /** What a filled point means, for the legend. */
  highlightLabel: string;
  otherLabel: string;
  width?: number;
  height?: number;
}

/**
 * A scatter plot of a trade-off on axes fitted to the data (padded, within 0–1): highlighted
 * points are filled and joined in x order (a Pareto frontier), the others hollow. Every point is
 * labelled, so the plot reads without colour.
 *
 * @example
 * scatterPlot({ title: 'Trade-off', xLabel: 'keyword hit rate', yLabel: 'hallucination rate', points, format: percent, highlightLabel: 'Pareto-optimal', otherLabel: 'dominated' });
 */
export function scatterPlot(options: ScatterOptions): string {
  const width = options.width ?? 560;
  const height = options.height ?? 360;
  const margin = { left: 64, right: 24, top: 52, bottom: 48 };
  const plotWidth = width - margin.left - margin.right;
  const plotHeight = height - margin.top - margin.bottom;
  const domain = (values: number[]): [number, number] => {
    if (values.length === 0) return [0, 1];
    const low = Math.min(...values);
    const high = Math.max(...values);
    const pad = Math.max(0.02, (high - low) * 0.15);
    return [Math.max(0, low - pad), Math.min(1, high + pad)];
  };
  const [xMin, xMax] = domain(options.points.map((point) => point.x));
  const [yMin, yMax] = domain(options.points.map((point) => point.y));
  const digits = (low: number, high: number) => (high - low < 0.04 ? 1 : 0);
  const x = (value: number) => margin.left + ((value - xMin) / (xMax - xMin || 1)) * plotWidth;
  const y = (value: number) => margin.top + plotHeight - ((value - yMin) / (yMax - yMin || 1)) * plotHeight;
  const parts: string[] = [];
  parts.push(`<svg class="chart scatter" role="img" aria-label="${escapeHtml(options.title)}" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" xmlns="http://www.w3.org/2000/svg">`);
  parts.push(`<title>${escapeHtml(options.title)}</title>`);
  parts.push(`<text x="0" y="16" class="chart-title">${escapeHtml(options.title)}</text>`);
  parts.push(`<circle cx="6" cy="32" r="5" class="scatter-best"/><text x="16" y="36" class="chart-legend">${escapeHtml(options.highlightLabel)}</text>`);
  const legendX = 30 + options.highlightLabel.length * 6.5;
  parts.push(`<circle cx="${legendX}" cy="32" r="5" class="scatter-other"/><text x="${legendX + 10}" y="36" class="chart-legend">${escapeHtml(options.otherLabel)}</text>`);
  for (let tick = 0; tick <= 4; tick++) {
    const xValue = xMin + ((xMax - xMin) * tick) / 4;
    const yValue = yMin + ((yMax - yMin) * tick) / 4;
    parts.push(`<line x1="${x(xValue).toFixed(1)}" x2="${x(xValue).toFixed(1)}" y1="${margin.top}" y2="${margin.top + plotHeight}" class="chart-grid"/>`);
    parts.push(`<text x="${x(xValue).toFixed(1)}" y="${margin.top + plotHeight + 16}" text-anchor="middle" class="chart-axis">${escapeHtml(options.format(xValue, digits(xMin, xMax)))}</text>`);
    parts.push(`<line x1="${margin.left}" x2="${margin.left + plotWidth}" y1="${y(yValue).toFixed(1)}" y2="${y(yValue).toFixed(1)}" class="chart-grid"/>`);
    parts.push(`<text x="${margin.left - 6}" y="${(y(yValue) + 4).toFixed(1)}" text-anchor="end" class="chart-axis">${escapeHtml(options.format(yValue, digits(yMin, yMax)))}</text>`);
  }
  parts.push(`<text x="${margin.left + plotWidth / 2}" y="${height - 6}" text-anchor="middle" class="chart-label">${escapeHtml(options.xLabel)}</text>`);
  parts.push(`<text x="14" y="${margin.top + plotHeight / 2}" text-anchor="middle" class="chart-label" transform="rotate(-90 14 ${margin.top + plotHeight / 2})">${escapeHtml(options.yLabel)}</text>`);
  const frontier = options.points.filter((point) => point.highlighted).sort((a, b) => a.x - b.x || a.y - b.y);
  if (frontier.length > 1) parts.push(`<polyline points="${frontier.map((point) => `${x(point.x).toFixed(1)},${y(point.y).toFixed(1)}`).join(' ')}" class="scatter-frontier"/>`);
  // Points at the same place share one label, so none hides another.
  const labels = new Map<string, string[]>();
  for (const point of options.points) {
    const at = `${x(point.x).toFixed(1)},${y(point.y).toFixed(1)}`;
    labels.set(at, [...(labels.get(at) ?? []), `${point.label}${point.highlighted ? ' ★' : ''}`]);
  }
  const labelled = new Set<string>();
  for (const point of options.points) {
    const cx = x(point.x);
    const cy = y(point.y);
    const at = `${cx.toFixed(1)},${cy.toFixed(1)}`;
    // A label near the right edge goes to the left of its point.
    const right = cx > margin.left + plotWidth * 0.6;
    const label = labelled.has(at) ? '' : `<text x="${(right ? cx - 9 : cx + 9).toFixed(1)}" y="${(cy - 8).toFixed(1)}"${right ? ' text-anchor="end"' : ''} class="chart-value">${escapeHtml(labels.get(at)!.join(', '))}</text>`;
    labelled.add(at);
    parts.push(`<g class="scatter-point${point.highlighted ? ' pareto' : ''}"><circle cx="${cx.toFixed(1)}" cy="${cy.toFixed(1)}" r="6" class="${point.highlighted ? 'scatter-best' : 'scatter-other'}"><title>${escapeHtml(point.title)}</title></circle>${label}</g>`);
  }
  parts.push('</svg>');
  return parts.join('');
}
