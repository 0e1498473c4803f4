import { JUDGE_ERROR_ROW, OUTCOME_TABLE } from '../contract/outcome.js';
import { answeredBy, cacheText, decimal, dollars, flaggedClaims, formatMetric, formatSpread, HEADLINE_METRICS, isRate, percent, seconds } from './format.js';
import { denominator, headlineInterval } from './report-markdown.js';
import { barChart, escapeHtml as h, intervalStrip, stackedBarChart } from './svg.js';
import type { EvalResults, QuestionResult, RunSummary } from './types.js';
import { GENERATOR_META } from '../text/generated-mark.js';

const COLORS = { rag: '#2563eb', norag: '#9333ea', good: '#16a34a', bad: '#dc2626', tie: '#a3a3a3', error: '#f59e0b', refusal: '#0d9488', keywords: '#0891b2' };

/**
 * A self-contained HTML report (inline CSS and SVG, no scripts, no external assets): verdict and
 * gates first, headline numbers with their 95% intervals, per-category charts, pairwise results
 * with position consistency, every hallucinated claim next to the evidence it was judged against,
 * judge errors, a per-question table, usage and the exact configuration.
 *
 * @example
 * writeFileSync('report.html', htmlReport(results));
 */
export function htmlReport(results: EvalResults): string {
  const run = results.runs[0]!;
  const sections = [
    header(results),
    gatesSection(results),
    headlineSection(results, run),
    categorySection(results, run),
    outcomesSection(run),
    pairwiseSection(run),
    claimsSection(results, run),
    errorsSection(results, run),
    runsSection(results),
    questionsSection(run),
    usageSection(results),
  ];
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
${GENERATOR_META}
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>groundcheck eval · ${h(results.suite.name)} · ${results.passed ? 'passed' : 'FAILED'}</title>
<style>${STYLES}</style>
</head>
<body>
<main>
${sections.join('\n')}
</main>
</body>
</html>
`;
}

function header(results: EvalResults): string {
  const judge = results.versions.faithfulnessJudge;
  return `<header>
<div class="title-row"><h1>${h(results.suite.name)}</h1><span class="badge ${results.passed ? 'pass' : 'fail'}">${results.passed ? 'PASSED' : 'FAILED'}</span></div>
${results.suite.description ? `<p class="lede">${h(results.suite.description)}</p>` : ''}
<p class="meta">${results.suite.questions} questions · ${results.runs.length} run${results.runs.length > 1 ? 's' : ''} · seed ${results.config.seed} · ${seconds(results.durationMs)} · ${h(results.startedAt)}</p>
<p class="meta">${answeredBy(results).map((part) => `${part.label} <code>${h(part.value)}</code>`).join(' · ')} · judge <code>${h(judge.kind === 'heuristic' ? 'heuristic (offline)' : judge.model)}</code></p>
${results.warnings.length > 0 ? `<ul class="warnings">${results.warnings.map((warning) => `<li>${h(warning)}</li>`).join('')}</ul>` : ''}
</header>`;
}

function gatesSection(results: EvalResults): string {
  if (results.gates.length === 0) return `<section><h2>Gates</h2><p class="muted">No gates configured: this run reports, it does not decide.</p></section>`;
  const items = results.gates
    .map(
      (gate) => `<li class="gate ${gate.passed ? 'pass' : 'fail'}"><span class="gate-mark">${gate.passed ? '✓' : '✗'}</span><span class="gate-name">${h(gate.metric)}</span>
<span class="gate-detail">${h(formatMetric(gate.metric, gate.actual))} <span class="muted">${gate.op} ${gate.threshold}</span></span></li>`,
    )
    .join('\n');
  const failed = results.gates.filter((gate) => !gate.passed).length;
  return `<section><h2>Gates <span class="muted small">${failed === 0 ? 'all passed' : `${failed} failed`}</span></h2><ul class="gates">${items}</ul></section>`;
}

function headlineSection(results: EvalResults, run: RunSummary): string {
  const cards = HEADLINE_METRICS.map(({ metric, label, better }) => {
    const spread = results.aggregate[metric];
    const value = spread?.mean ?? null;
    const gate = results.gates.find((entry) => entry.metric === metric);
    const multi = results.runs.length > 1;
    const ci = multi ? (spread && spread.min !== null && spread.max !== null ? { lower: spread.min, upper: spread.max } : null) : headlineInterval(run, metric);
    const ciText = ci ? `${multi ? 'runs' : '95% CI'} ${formatMetric(metric, ci.lower)} – ${formatMetric(metric, ci.upper)}` : '';
    const state = gate ? (gate.passed ? 'pass' : 'fail') : '';
    return `<div class="card ${state}">
<div class="card-label">${h(label)}</div>
<div class="card-value">${h(formatMetric(metric, value))}</div>
${isRate(metric) || metric === 'mrr' ? intervalStrip(value, ci, gate?.threshold, state === 'fail' ? COLORS.bad : COLORS.rag) : ''}
<div class="card-ci">${h(ciText)}${multi && spread?.sd !== null && spread?.sd !== undefined ? ` · sd ${h(formatMetric(metric, spread.sd))}` : ''}</div>
<div class="card-n muted">${h(denominator(results, metric))}${gate ? ` · gate ${gate.op} ${gate.threshold}` : ''} · ${better} is better</div>
</div>`;
  });
  return `<section><h2>Headline</h2><div class="cards">${cards.join('\n')}</div>
<p class="muted small">Intervals are percentile bootstraps over questions (seeded; see METHODOLOGY.md)${results.runs.length > 1 ? '; with several runs, cards show the mean and the min–max across runs' : ''}.</p></section>`;
}

function categorySection(results: EvalResults, run: RunSummary): string {
  const categories = run.byCategory;
  const gate = (metric: string) => {
    const found = results.gates.find((entry) => entry.metric === metric);
    return found ? { value: found.threshold, label: `gate ${found.op} ${found.threshold}` } : undefined;
  };
  const answerable = categories.filter((category) => category.recallAt5 !== null);
  const mustRefuse = categories.filter((category) => category.refusalRate !== null);
  const charts = [
    barChart({
      title: 'Recall@5 (answerable questions)',
      series: [{ name: 'recall@5', color: COLORS.rag }],
      rows: answerable.map((category) => ({ label: category.category, values: [category.recallAt5], note: `n=${category.questions}` })),
      threshold: gate('recall@5'),
      format: (value) => percent(value, 0),
    }),
    barChart({
      title: 'Hallucination rate: RAG on vs RAG off',
      series: [
        { name: 'RAG on', color: COLORS.rag },
        { name: 'RAG off', color: COLORS.norag },
      ],
      rows: categories.map((category) => ({ label: category.category, values: [category.hallucinationRate, category.noragHallucinationRate] })),
      threshold: gate('hallucinationRate'),
      format: (value) => percent(value, 0),
    }),
    barChart({
      title: 'How often RAG on refused, by category',
      series: [
        { name: 'must refuse (higher is better)', color: COLORS.refusal },
        { name: 'answerable (lower is better)', color: COLORS.bad },
      ],
      rows: [...mustRefuse, ...categories.filter((category) => category.refusalRate === null)].map((category) => ({
        label: category.category,
        values: [category.refusalRate ?? category.falseRefusalRate],
        color: category.refusalRate !== null ? COLORS.refusal : COLORS.bad,
        note: `n=${category.questions}`,
      })),
      legendOnly: true,
      threshold: gate('refusalRate'),
      format: (value) => percent(value, 0),
    }),
    barChart({
      title: 'Keyword hit rate, RAG on (answerable questions)',
      series: [{ name: 'keywords found', color: COLORS.keywords }],
      rows: answerable.map((category) => ({ label: category.category, values: [category.keywordHitRate] })),
      threshold: gate('keywordHitRate'),
      format: (value) => percent(value, 0),
    }),
  ];
  return `<section><h2>By category${results.runs.length > 1 ? ' <span class="muted small">(run 1)</span>' : ''}</h2><div class="charts">${charts.map((chart) => `<figure>${chart}</figure>`).join('')}</div></section>`;
}

/** Answers per outcome, rows from the contract's one outcome table (the dashboard and `/metrics` use the same). */
function outcomesSection(run: RunSummary): string {
  const rows = [JUDGE_ERROR_ROW, ...OUTCOME_TABLE]
    .map((row) => `<tr><td>${h(row.label)}</td><td class="muted">${h(row.description)}</td><td>${run.faithfulness.rag.outcomes[row.outcome]}</td><td>${run.faithfulness.norag.outcomes[row.outcome]}</td></tr>`)
    .join('');
  return `<section><h2>Outcomes</h2><table><thead><tr><th>outcome</th><th>meaning</th><th>RAG on</th><th>RAG off</th></tr></thead><tbody>${rows}</tbody></table></section>`;
}

function pairwiseSection(run: RunSummary): string {
  const summary = run.pairwise;
  const segments = (wins: number, ties: number, losses: number, errors: number) => [
    { name: 'RAG on wins', value: wins, color: COLORS.good },
    { name: 'tie', value: ties, color: COLORS.tie },
    { name: 'RAG off wins', value: losses, color: COLORS.norag },
    { name: 'judge error', value: errors, color: COLORS.error },
  ];
  const chart = stackedBarChart({
    title: 'Pairwise outcome per category (blind, both orders)',
    rows: [
      { label: 'all', segments: segments(summary.wins, summary.ties, summary.losses, summary.errors) },
      ...run.byCategory.map((category) => ({ label: category.category, segments: segments(category.pairwise.wins, category.pairwise.ties, category.pairwise.losses, category.pairwise.errors) })),
    ],
  });
  const stat = (label: string, value: string, note: string) => `<div class="stat"><div class="stat-value">${h(value)}</div><div class="stat-label">${h(label)}</div><div class="muted small">${h(note)}</div></div>`;
  return `<section><h2>Pairwise: RAG on vs RAG off</h2>
<div class="stats">
${stat('win rate (ties count half)', percent(summary.winRate), summary.winRateCi ? `95% CI ${percent(summary.winRateCi.lower)} – ${percent(summary.winRateCi.upper)}` : 'no decided pairs')}
${stat('position consistency', percent(summary.positionConsistency), 'same winner in both orders')}
${stat('first-shown wins', percent(summary.firstPositionWinShare), '50% = no position bias')}
${stat('mean words, RAG on / off', `${summary.meanAnswerWords.rag?.toFixed(0) ?? 'n/a'} / ${summary.meanAnswerWords.norag?.toFixed(0) ?? 'n/a'}`, 'longer answers tempt judges')}
</div>
<figure>${chart}</figure></section>`;
}

function claimsSection(results: EvalResults, run: RunSummary): string {
  const claims = flaggedClaims(results, { run: run.run });
  if (claims.length === 0) return `<section><h2>Hallucinated claims (RAG on)</h2><p class="muted">None: every checkable claim of every RAG-on answer was verified against its trace's chunks.</p></section>`;
  const rows = claims
    .map(
      (claim) => `<tr>
<td><strong>${h(claim.questionId)}</strong><div class="muted small">${h(claim.category)}</div></td>
<td><span class="verdict ${claim.verdict}">${claim.verdict}</span></td>
<td>${h(claim.claim)}<div class="muted small">${h(claim.note)}</div></td>
<td><details><summary>${claim.evidenceId ? `cites ${h(claim.evidenceId)}` : 'no passage cited'} <span class="muted small">· ${claim.passages.length} passage${claim.passages.length === 1 ? '' : 's'}</span></summary>
<p class="small"><strong>Q:</strong> ${h(claim.question)}</p>
<p class="small"><strong>Answer:</strong> ${h(claim.answer)}</p>
${claim.passages.length === 0 ? '<p class="muted small">No evidence: nothing passed the relevance gate.</p>' : ''}
${claim.passages.map((passage) => `<p class="small${passage.id === claim.evidenceId ? ' cited' : ''}"><strong>${h(passage.id)}</strong>${passage.id === claim.evidenceId ? ' (cited by the judge)' : ''}</p><pre>${h(passage.text)}</pre>`).join('\n')}
</details></td>
</tr>`,
    )
    .join('\n');
  return `<section><h2>Hallucinated claims (RAG on) <span class="muted small">${claims.length}</span></h2>
<p class="muted small">Contradicted and absent claims, each with the evidence the judge saw. Run <code>groundcheck spotcheck &lt;results.json&gt;</code> to list contradicted claims whose numbers or names appear verbatim in the evidence (likely judge mistakes).</p>
<table><thead><tr><th>question</th><th>verdict</th><th>claim</th><th>evidence</th></tr></thead><tbody>${rows}</tbody></table></section>`;
}

function errorsSection(results: EvalResults, run: RunSummary): string {
  const failed = results.runs.flatMap((entry) => entry.failedQuestions.map((failure) => ({ ...failure, run: entry.run })));
  const judgeErrors = run.judgeErrors;
  const judgeList =
    judgeErrors.list.length === 0
      ? '<p class="muted">None.</p>'
      : `<ul>${judgeErrors.list.map((entry) => `<li><strong>${h(entry.questionId)}</strong> ${h(entry.call)} <span class="muted">(${h(entry.judge.model)}, ${entry.attempts} attempt${entry.attempts === 1 ? '' : 's'})</span>: ${h(entry.error)}</li>`).join('')}</ul>`;
  const failedList = failed.length === 0 ? '' : `<h3>Questions that failed to run</h3><ul>${failed.map((entry) => `<li>run ${entry.run}, <strong>${h(entry.questionId)}</strong>: ${h(entry.error)}</li>`).join('')}</ul>`;
  return `<section><h2>Judge errors <span class="muted small">${judgeErrors.errors} of ${judgeErrors.calls} calls (${percent(judgeErrors.rate)})</span></h2>
<p class="muted small">A judge error is its own outcome: it is never counted as a pass or a zero, and it is left out of every rate.</p>${judgeList}${failedList}</section>`;
}

function runsSection(results: EvalResults): string {
  if (results.runs.length < 2) return '';
  const rows = HEADLINE_METRICS.map(({ metric, label }) => {
    const spread = results.aggregate[metric];
    const values = spread?.values.map((value) => `<td>${h(formatMetric(metric, value))}</td>`).join('') ?? '';
    return `<tr><td>${h(label)}</td>${values}<td><strong>${h(formatSpread(results, metric))}</strong></td></tr>`;
  }).join('');
  return `<section><h2>Across runs</h2><table><thead><tr><th>metric</th>${results.runs.map((run) => `<th>run ${run.run}<div class="muted small">seed ${run.seed}</div></th>`).join('')}<th>mean (min–max, sd)</th></tr></thead><tbody>${rows}</tbody></table></section>`;
}

function questionsSection(run: RunSummary): string {
  const row = (question: QuestionResult) => {
    if (question.status === 'error') return `<tr class="row-error"><td>${h(question.id)}</td><td>${h(question.category)}</td><td colspan="6">failed: ${h(question.error ?? '')}</td></tr>`;
    const rag = question.rag!;
    const judgment = rag.judgment;
    const faith = judgment.status === 'error' ? '<span class="verdict error">judge error</span>' : judgment.faithful === null ? '<span class="muted">—</span>' : judgment.faithful ? '<span class="verdict verified">faithful</span>' : '<span class="verdict contradicted">hallucinated</span>';
    const outcome = question.pairwise?.outcome ?? 'n/a';
    const expected = question.mustRefuse ? (rag.refused ? '<span class="verdict verified">refused</span>' : '<span class="verdict contradicted">answered</span>') : rag.refused ? '<span class="verdict absent">refused</span>' : 'answered';
    return `<tr>
<td><details><summary>${h(question.id)}</summary><p class="small"><strong>Q:</strong> ${h(question.question)}</p>
<p class="small"><strong>RAG on:</strong> ${h(rag.answer)}</p><p class="small"><strong>RAG off:</strong> ${question.norag ? h(question.norag.answer) : '<span class="muted">no RAG-off mode</span>'}</p>
<p class="small"><strong>Reference:</strong> ${h(question.referenceAnswer || '—')}</p><p class="small muted">retrieved: ${h(question.retrievedChunkIds.join(', ') || 'nothing (gated)')}<br>relevant: ${h(question.relevantChunkIds.join(', ') || '—')}</p></details></td>
<td>${h(question.category)}</td>
<td>${expected}</td>
<td>${question.retrieval ? percent(question.retrieval.recall[5] ?? null, 0) : '<span class="muted">—</span>'}</td>
<td>${rag.keywords.share === null ? '<span class="muted">—</span>' : `${rag.keywords.hits.length}/${rag.keywords.hits.length + rag.keywords.missing.length}`}</td>
<td>${faith}</td>
<td><span class="outcome ${outcome}">${h(outcome === 'rag' ? 'RAG on' : outcome === 'norag' ? 'RAG off' : outcome)}</span>${question.pairwise && !question.pairwise.consistent && question.pairwise.trials.length > 1 ? ' <span class="muted small">(order-dependent)</span>' : ''}</td>
<td class="muted small">${h(question.pairwise?.firstOrder ?? '')}</td>
</tr>`;
  };
  return `<section><h2>Every question</h2>
<table class="questions"><thead><tr><th>question</th><th>category</th><th>RAG on</th><th>recall@5</th><th>keywords</th><th>faithfulness</th><th>pairwise winner</th><th>shown first</th></tr></thead>
<tbody>${run.questions.map(row).join('\n')}</tbody></table></section>`;
}

/** The pipeline settings of a groundcheck run: `top-k 8 · min similarity 0.120 · wordCap 125`. */
function pipelineText(results: EvalResults): string {
  return Object.entries(results.config.pipeline)
    .map(([name, value]) => (name === 'topK' ? `top-k ${value}` : name === 'minSimilarity' ? `min similarity ${decimal(value)}` : `${name} ${value}`))
    .join(' · ');
}

function usageSection(results: EvalResults): string {
  const rows = results.usage.models
    .map((model) => `<tr><td><code>${h(model.model)}</code></td><td>${h(model.roles.join(', '))}</td><td>${model.calls}</td><td>${model.failedCalls}</td><td>${model.inputTokens.toLocaleString('en')}</td><td>${model.outputTokens.toLocaleString('en')}</td><td>${h(dollars(model.costUsd))}</td></tr>`)
    .join('');
  const config = results.config;
  return `<section><h2>Usage, cost and configuration</h2>
${rows ? `<table><thead><tr><th>model</th><th>roles</th><th>calls</th><th>failed</th><th>input tokens</th><th>output tokens</th><th>cost</th></tr></thead><tbody>${rows}</tbody></table>` : '<p class="muted">No model calls reached a model (offline heuristics, or everything was cached).</p>'}
<p>Total cost: <strong>${h(dollars(results.usage.totalCostUsd))}</strong>${results.usage.totalCostUsd === null ? ' <span class="muted small">(a model without a known price was called)</span>' : ''} · ${h(cacheText(results))} · retries ${results.usage.retries}</p>
${results.usage.target ? `<p>Target <code>${h(results.target.name)}</code>: ${results.usage.target.calls} answers asked, ${results.usage.target.failedCalls} failed attempts, ${results.usage.target.cacheHits} from the cache <span class="muted small">(the target's own model cost is not known to the eval)</span></p>` : ''}
<dl class="config">
<dt>suite</dt><dd><code>${h(results.suite.source)}</code> · questions <code>${h(results.suite.questionsFile)}</code>${results.suite.corpusDir !== null ? ` · corpus <code>${h(results.suite.corpusDir)}</code>` : ''}${results.target.kind === 'groundcheck' ? ` · ${h(pipelineText(results))}` : ` · target <code>${h(results.target.name)}</code>${results.target.norag ? '' : ' (no RAG-off mode)'}`}</dd>
<dt>runs</dt><dd>${config.runs} (seeds ${config.runSeeds.join(', ')}) · concurrency ${config.concurrency} · ${config.bothOrders ? 'both pairwise orders' : 'one pairwise order'} · max retries ${config.maxRetries}</dd>
<dt>evidence</dt><dd>${h(config.evidencePolicy)}</dd>
<dt>versions</dt><dd>groundcheck ${h(results.versions.groundcheck)} · RAG prompt ${h(results.versions.ragPrompt ?? "the target's own")} · faithfulness ${h(results.versions.faithfulnessJudge.promptVersion)} · pairwise ${h(results.versions.pairwiseJudge.promptVersion)} · Node ${h(results.versions.node)}</dd>
${config.indexPath !== null ? `<dt>index</dt><dd><code>${h(config.indexPath)}</code></dd>` : ''}
</dl></section>`;
}

/** The reports' one stylesheet (the sweep report uses it too). */
export const STYLES = `
:root{--fg:#111827;--muted:#6b7280;--bg:#ffffff;--panel:#f9fafb;--line:#e5e7eb;--pass:#16a34a;--fail:#dc2626;--accent:#2563eb}
@media (prefers-color-scheme:dark){:root{--fg:#e5e7eb;--muted:#9ca3af;--bg:#0b1020;--panel:#111827;--line:#1f2937}}
*{box-sizing:border-box}body{margin:0;background:var(--bg);color:var(--fg);font:14px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{max-width:1120px;margin:0 auto;padding:24px}
h1{font-size:26px;margin:0}h2{font-size:18px;margin:32px 0 12px;border-bottom:1px solid var(--line);padding-bottom:6px}h3{font-size:15px}
.title-row{display:flex;align-items:center;gap:12px}.lede{margin:6px 0}.meta{color:var(--muted);margin:2px 0}
.badge{font-weight:700;font-size:12px;padding:3px 10px;border-radius:999px;color:#fff}.badge.pass{background:var(--pass)}.badge.fail{background:var(--fail)}
.muted{color:var(--muted)}.small{font-size:12px}code{font-size:12px;background:var(--panel);padding:1px 4px;border-radius:4px}
.warnings{background:#fef3c7;color:#78350f;border-radius:8px;padding:8px 8px 8px 28px}
.gates{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:8px}
.gate{border:1px solid var(--line);border-radius:8px;padding:6px 10px;display:flex;gap:8px;align-items:baseline}
.gate.pass .gate-mark{color:var(--pass)}.gate.fail{border-color:var(--fail)}.gate.fail .gate-mark{color:var(--fail)}.gate-name{font-weight:600}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(240px,1fr));gap:12px}
.card{background:var(--panel);border:1px solid var(--line);border-radius:10px;padding:12px}
.card.fail{border-color:var(--fail)}.card.pass{border-color:var(--pass)}
.card-label{font-size:12px;color:var(--muted)}.card-value{font-size:28px;font-weight:700}.card-ci{font-size:12px}.card-n{font-size:11px}
.charts{display:grid;grid-template-columns:repeat(auto-fill,minmax(520px,1fr));gap:16px}figure{margin:0;overflow-x:auto}
.chart text{fill:var(--fg);font:12px system-ui,sans-serif}.chart .chart-title{font-weight:600;font-size:13px}
.chart .chart-axis,.chart .chart-note,.chart .chart-na,.chart .chart-legend{fill:var(--muted);font-size:11px}
.chart .chart-segment{fill:#fff;font-size:11px;font-weight:600}
.chart-grid{stroke:var(--line);stroke-width:1}.chart-track{fill:var(--panel)}
.chart-threshold{stroke:var(--fail);stroke-width:1.5;stroke-dasharray:4 3}.chart .chart-threshold-label{fill:var(--fail);font-size:10px}
.strip-track{stroke:var(--line);stroke-width:2}
.scatter-best{fill:var(--accent);stroke:var(--accent);stroke-width:1.5}.scatter-other{fill:var(--bg);stroke:var(--muted);stroke-width:1.5}
.scatter-frontier{fill:none;stroke:var(--accent);stroke-width:1.5;stroke-dasharray:5 3}
tr.pareto td:first-child{font-weight:700}
.stats{display:flex;flex-wrap:wrap;gap:12px;margin-bottom:12px}.stat{background:var(--panel);border:1px solid var(--line);border-radius:10px;padding:10px 14px;min-width:200px}
.stat-value{font-size:22px;font-weight:700}.stat-label{font-size:12px}
table{border-collapse:collapse;width:100%}th,td{text-align:left;vertical-align:top;padding:6px 8px;border-bottom:1px solid var(--line)}th{font-size:12px;color:var(--muted);font-weight:600}
pre{white-space:pre-wrap;background:var(--panel);padding:8px;border-radius:6px;font-size:12px;max-height:320px;overflow:auto}
details summary{cursor:pointer}
.verdict{font-size:11px;font-weight:600;padding:1px 6px;border-radius:4px}.verdict.contradicted{background:#fee2e2;color:#991b1b}.verdict.absent{background:#fef3c7;color:#92400e}
.verdict.verified{background:#dcfce7;color:#166534}.verdict.error{background:#ffedd5;color:#9a3412}
.outcome.rag{color:var(--pass);font-weight:600}.outcome.norag{color:#9333ea;font-weight:600}.outcome.error{color:#b45309}
.row-error td{color:var(--fail)}dl.config dt{font-weight:600;margin-top:6px}dl.config dd{margin:0 0 0 12px}
`;
