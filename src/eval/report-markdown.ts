import { gateFiring, gateSection } from './gate-report.js';
import { JUDGE_ERROR_ROW, OUTCOME_TABLE } from '../contract/outcome.js';
import type { ConfidenceInterval } from '../metrics/index.js';
import { answeredBy, cacheText, dollars, flaggedClaims, formatMetric, formatSpread, HEADLINE_METRICS, interval, percent, seconds } from './format.js';
import type { EvalResults, RunSummary } from './types.js';

/** Most flagged claims listed in the Markdown summary (the HTML report and the JSON have them all). */
const MAX_CLAIMS = 25;

/**
 * A Markdown summary of an eval: gates, headline metrics (with 95% bootstrap intervals for one
 * run, the spread across runs otherwise), per-category table, pairwise results, flagged claims,
 * judge errors, usage and cost.
 *
 * @example
 * writeFileSync('summary.md', markdownSummary(results));
 */
export function markdownSummary(results: EvalResults): string {
  const first = results.runs[0]!;
  const lines: string[] = [];
  const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();
  lines.push(`# groundcheck eval: ${results.suite.name}`, '');
  lines.push(`**${results.passed ? 'PASSED' : 'FAILED'}** · ${results.suite.questions} questions · ${results.runs.length} run(s) · seed ${results.config.seed} · ${seconds(results.durationMs)} · ${results.startedAt}`, '');
  lines.push(
    `- ${answeredBy(results).map((part) => `${part.label}: \`${part.value}\``).join(' · ')}${results.target.kind === 'groundcheck' ? ` · top-k ${results.config.pipeline.topK ?? results.suite.topK}` : results.target.norag ? '' : ' (no RAG-off mode)'}`,
    `- judges: faithfulness \`${results.versions.faithfulnessJudge.model}\` (${results.versions.faithfulnessJudge.promptVersion}), pairwise \`${results.versions.pairwiseJudge.model}\` (${results.versions.pairwiseJudge.promptVersion}), ${results.config.bothOrders ? 'both orders' : 'one order'}`,
    `- versions: groundcheck ${results.versions.groundcheck}, RAG prompt ${results.versions.ragPrompt ?? "the target's own"}, Node ${results.versions.node}`,
    '',
  );

  if (results.gates.length > 0) {
    lines.push('## Gates', '', '| gate | threshold | actual | result |', '|---|---|---|---|');
    for (const gate of results.gates) {
      lines.push(`| ${gate.metric} | ${gate.op} ${gate.threshold} | ${formatMetric(gate.metric, gate.actual)} | ${gate.passed ? 'pass' : '**FAIL**'} |`);
    }
    lines.push('');
  }

  lines.push('## Headline', '', `| metric | ${results.runs.length > 1 ? 'mean (min–max, sd)' : 'value'} | ${results.runs.length > 1 ? '' : '95% CI | '}n |`, `|---|---|${results.runs.length > 1 ? '' : '---|'}---|`);
  for (const { metric, label } of HEADLINE_METRICS) {
    const ci = results.runs.length > 1 ? null : intervalFor(results, metric);
    lines.push(`| ${label} | ${formatSpread(results, metric)} | ${results.runs.length > 1 ? '' : `${ci} | `}${denominator(results, metric)} |`);
  }
  lines.push('');

  lines.push(...gateSection(gateFiring(results)));

  lines.push('## By category', '', '| category | n | recall@5 | refusal | false refusal | hallucination (on / off) | keywords | pairwise W-T-L | win rate |', '|---|---|---|---|---|---|---|---|---|');
  for (const category of first.byCategory) {
    const pairwise = category.pairwise;
    lines.push(
      `| ${category.category} | ${category.questions} | ${percent(category.recallAt5)} | ${percent(category.refusalRate)} | ${percent(category.falseRefusalRate)} | ${percent(category.hallucinationRate)} / ${percent(category.noragHallucinationRate)} | ${percent(category.keywordHitRate)} | ${pairwise.wins}-${pairwise.ties}-${pairwise.losses}${pairwise.errors ? ` (+${pairwise.errors} err)` : ''} | ${percent(pairwise.winRate)} |`,
    );
  }
  if (results.runs.length > 1) lines.push('', '_Per-category numbers are from run 1._');
  lines.push('');

  lines.push('## Outcomes', '', '| outcome | meaning | RAG on | RAG off |', '|---|---|---|---|');
  for (const row of [JUDGE_ERROR_ROW, ...OUTCOME_TABLE]) {
    lines.push(`| ${row.label} | ${row.description} | ${first.faithfulness.rag.outcomes[row.outcome]} | ${first.faithfulness.norag.outcomes[row.outcome]} |`);
  }
  lines.push('');

  const pairwise = first.pairwise;
  lines.push(
    '## Pairwise (RAG on vs RAG off, blind)',
    '',
    `- ${pairwise.wins} wins, ${pairwise.ties} ties, ${pairwise.losses} losses, ${pairwise.errors} errors; win rate ${percent(pairwise.winRate)} ${interval(pairwise.winRateCi)}`,
    `- position consistency ${percent(pairwise.positionConsistency)}; share of decided trials won by the answer shown first ${percent(pairwise.firstPositionWinShare)}`,
    `- mean answer length: RAG on ${pairwise.meanAnswerWords.rag?.toFixed(0) ?? 'n/a'} words, RAG off ${pairwise.meanAnswerWords.norag?.toFixed(0) ?? 'n/a'} words`,
    '',
  );

  const claims = flaggedClaims(results, { run: first.run });
  lines.push(`## Hallucinated claims, RAG on (${claims.length})`, '');
  if (claims.length === 0) lines.push('None.');
  else {
    lines.push('| question | verdict | claim | note | evidence |', '|---|---|---|---|---|');
    for (const claim of claims.slice(0, MAX_CLAIMS)) {
      lines.push(`| ${claim.questionId} | ${claim.verdict} | ${cell(claim.claim)} | ${cell(claim.note)} | ${claim.evidenceId ?? '—'} |`);
    }
    if (claims.length > MAX_CLAIMS) lines.push('', `… ${claims.length - MAX_CLAIMS} more in the HTML report and the JSON results.`);
  }
  lines.push('');

  lines.push(`## Judge errors (${first.judgeErrors.errors} of ${first.judgeErrors.calls} calls)`, '');
  if (first.judgeErrors.list.length === 0) lines.push('None.');
  for (const entry of first.judgeErrors.list) lines.push(`- ${entry.questionId} ${entry.call} (${entry.judge.model}, ${entry.attempts} attempt(s)): ${cell(entry.error)}`);
  lines.push('');

  const failed = results.runs.flatMap((run) => run.failedQuestions.map((entry) => ({ ...entry, run: run.run })));
  if (failed.length > 0) {
    lines.push(`## Questions that failed to run (${failed.length})`, '');
    for (const entry of failed) lines.push(`- run ${entry.run}, ${entry.questionId}: ${cell(entry.error)}`);
    lines.push('');
  }

  lines.push('## Usage and cost', '', '| model | roles | calls | failed | input tokens | output tokens | cost |', '|---|---|---|---|---|---|---|');
  for (const model of results.usage.models) {
    lines.push(`| ${model.model} | ${model.roles.join(', ')} | ${model.calls} | ${model.failedCalls} | ${model.inputTokens} | ${model.outputTokens} | ${dollars(model.costUsd)} |`);
  }
  lines.push(
    '',
    `Total cost: ${dollars(results.usage.totalCostUsd)}. ${cacheText(results)}. Retries: ${results.usage.retries}.`,
    '',
  );
  if (results.usage.target) {
    lines.push(`Target \`${results.target.name}\`: ${results.usage.target.calls} answers asked, ${results.usage.target.failedCalls} failed attempts, ${results.usage.target.cacheHits} from the cache (the target's own model cost is not known to the eval).`, '');
  }
  if (results.warnings.length > 0) {
    lines.push('## Warnings', '', ...results.warnings.map((warning) => `- ${warning}`), '');
  }
  return `${lines.join('\n')}\n`;
}

/** The 95% bootstrap interval of a headline metric in a run; `null` for metrics without one. */
export function headlineInterval(run: RunSummary, metric: string): ConfidenceInterval | null {
  switch (metric) {
    case 'hallucinationRate':
      return run.faithfulness.rag.hallucinationCi;
    case 'noragHallucinationRate':
      return run.faithfulness.norag.hallucinationCi;
    case 'refusalRate':
      return run.refusal.mustRefuseCi;
    case 'pairwiseWinRate':
      return run.pairwise.winRateCi;
    default:
      return null;
  }
}

/** The 95% bootstrap interval of a headline metric in run 1, as text. */
export function intervalFor(results: EvalResults, metric: string): string {
  return interval(headlineInterval(results.runs[0]!, metric));
}

/** What a headline metric was computed over, as text (`12 of 43`). */
export function denominator(results: EvalResults, metric: string): string {
  const run = results.runs[0]!;
  switch (metric) {
    case 'hallucinationRate':
      return `${run.faithfulness.rag.hallucinated} of ${run.faithfulness.rag.checkable} checkable answers`;
    case 'noragHallucinationRate':
      return `${run.faithfulness.norag.hallucinated} of ${run.faithfulness.norag.checkable} checkable answers`;
    case 'refusalRate':
      return `${run.refusal.mustRefuse.count} of ${run.refusal.mustRefuse.n}`;
    case 'falseRefusalRate':
      return `${run.refusal.falseRefusal.count} of ${run.refusal.falseRefusal.n}`;
    case 'recall@5':
    case 'mrr':
      return `${run.retrieval.overall.n} answerable questions`;
    case 'judgeErrorRate':
      return `${run.judgeErrors.errors} of ${run.judgeErrors.calls} calls`;
    case 'pairwiseWinRate':
      return `${run.pairwise.wins + run.pairwise.ties + run.pairwise.losses} decided pairs`;
    case 'positionConsistency':
      return `${run.pairwise.consistencyPairs} both-order pairs`;
    case 'keywordHitRate':
      return `${run.questions.filter((question) => question.status === 'ok' && !question.mustRefuse && question.keywords.length > 0).length} answerable questions with keywords`;
    default: {
      const quality = run.answerQuality.rates[metric];
      if (quality) return `${quality.count} of ${quality.n}`;
      const average = run.answerQuality.means[metric];
      return average ? `${average.n} answers` : '';
    }
  }
}
