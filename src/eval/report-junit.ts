import { formatMetric } from './format.js';
import { questionChecks } from './question-checks.js';
import type { EvalResults, QuestionResult } from './types.js';

/**
 * JUnit XML for CI test reporters: one `<testsuite>` per run with one `<testcase>` per question,
 * and one more `<testsuite>` for the gates with one `<testcase>` per gate. A question fails with
 * its failed checks (question-checks.ts) in one `<failure>`; a question that could not be run,
 * or whose judge erred, is an `<error>`; a failed gate is a failure of its own.
 *
 * @example
 * writeFileSync('eval.junit.xml', junitReport(results));
 */
export function junitReport(results: EvalResults): string {
  const suiteName = results.suite.name;
  const suites: string[] = [];
  let tests = 0;
  let failures = 0;
  let errors = 0;
  for (const run of results.runs) {
    const cases = run.questions.map((question) => questionCase(suiteName, question));
    const runFailures = cases.filter((entry) => entry.kind === 'failure').length;
    const runErrors = cases.filter((entry) => entry.kind === 'error').length;
    tests += cases.length;
    failures += runFailures;
    errors += runErrors;
    const name = results.runs.length > 1 ? `${suiteName} (run ${run.run}, seed ${run.seed})` : suiteName;
    suites.push(
      `  <testsuite ${attributes({ name, tests: cases.length, failures: runFailures, errors: runErrors, skipped: 0, time: secondsText(run.durationMs), timestamp: results.startedAt })}>\n` +
        `    <properties>\n${properties(results, run.seed)}    </properties>\n` +
        cases.map((entry) => entry.xml).join('') +
        '  </testsuite>\n',
    );
  }
  if (results.gates.length > 0) {
    const failed = results.gates.filter((gate) => !gate.passed).length;
    tests += results.gates.length;
    failures += failed;
    const cases = results.gates.map((gate) => {
      const head = `    <testcase ${attributes({ name: `gate ${gate.metric} ${gate.op} ${gate.threshold}`, classname: `groundcheck.${suiteName}.gates`, time: '0' })}`;
      if (gate.passed) return `${head}/>\n`;
      const actual = gate.actual === null ? 'not measured (no data)' : formatMetric(gate.metric, gate.actual);
      return `${head}>\n      <failure ${attributes({ message: gate.message, type: 'groundcheck.gate' })}>${text(`${gate.metric}: ${actual}; gate ${gate.op} ${gate.threshold}`)}</failure>\n    </testcase>\n`;
    });
    suites.push(`  <testsuite ${attributes({ name: `${suiteName}: gates`, tests: results.gates.length, failures: failed, errors: 0, skipped: 0, time: '0', timestamp: results.startedAt })}>\n${cases.join('')}  </testsuite>\n`);
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites ${attributes({ name: `groundcheck eval: ${suiteName}`, tests, failures, errors, time: secondsText(results.durationMs) })}>\n${suites.join('')}</testsuites>\n`;
}

function questionCase(suiteName: string, question: QuestionResult): { kind: 'pass' | 'failure' | 'error'; xml: string } {
  const checks = questionChecks(question);
  const failed = checks.filter((check) => check.status === 'fail');
  const erred = checks.filter((check) => check.status === 'error');
  const head = `    <testcase ${attributes({ name: `${question.id}: ${question.question}`, classname: `groundcheck.${suiteName}.${question.category}`, time: secondsText(question.durationMs) })}>\n`;
  const body = [...failed, ...erred].map((check) => `${check.name}${check.status === 'error' ? ' (error)' : ''}: ${check.message}`).join('\n');
  let verdict = '';
  let kind: 'pass' | 'failure' | 'error' = 'pass';
  if (failed.length > 0) {
    kind = 'failure';
    verdict = `      <failure ${attributes({ message: `${failed.length} check(s) failed: ${failed.map((check) => check.name).join(', ')}`, type: 'groundcheck.checks' })}>${text(body)}</failure>\n`;
  } else if (erred.length > 0) {
    kind = 'error';
    verdict = `      <error ${attributes({ message: erred.map((check) => check.message.split('\n')[0]).join('; '), type: erred[0]!.name === 'ran' ? 'groundcheck.question_failed' : 'groundcheck.judge_error' })}>${text(body)}</error>\n`;
  }
  const out = [
    `question: ${question.question}`,
    `answer (RAG on): ${question.rag?.answer ?? '—'}`,
    ...(question.norag ? [`answer (RAG off): ${question.norag.answer}`] : []),
    `retrieved: ${question.retrievedChunkIds.join(', ') || 'nothing'}`,
    `checks: ${checks.map((check) => `${check.name} ${check.status}`).join(', ')}`,
  ].join('\n');
  return { kind, xml: `${head}${verdict}      <system-out>${text(out)}</system-out>\n    </testcase>\n` };
}

function properties(results: EvalResults, seed: number): string {
  const entries: [string, string][] = [
    ['target', results.target.name],
    ['seed', String(seed)],
    ['faithfulness judge', `${results.versions.faithfulnessJudge.kind}:${results.versions.faithfulnessJudge.model} (${results.versions.faithfulnessJudge.promptVersion})`],
    ['groundcheck', results.versions.groundcheck],
    ...(results.config.generator ? ([['generator', results.config.generator]] as [string, string][]) : []),
  ];
  return entries.map(([name, value]) => `      <property ${attributes({ name, value })}/>\n`).join('');
}

function secondsText(ms: number): string {
  return (ms / 1000).toFixed(3);
}

/** Characters XML 1.0 cannot hold at all (most control characters, lone surrogates) are dropped. */
function xmlSafe(value: string): string {
  return value.replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '');
}

function text(value: string): string {
  return xmlSafe(value).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function attributes(values: Record<string, string | number>): string {
  return Object.entries(values)
    .map(([name, value]) => `${name}="${xmlSafe(String(value)).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;')}"`)
    .join(' ');
}
