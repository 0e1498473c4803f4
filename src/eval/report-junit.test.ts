import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../test-support/fixtures.js';
import { junitReport } from './report-junit.js';
import { runEval } from './runner.js';
import { loadSuite } from './suite.js';

const fixture = (name: string) => fileURLToPath(new URL(`./targets/__fixtures__/${name}`, import.meta.url));

type Case = { name: string; classname: string; failure?: { message: string; type: string; '#text': string }; error?: { message: string; type: string }; 'system-out': string };
type Suite = { name: string; tests: string; failures: string; errors: string; testcase: Case[] | Case };

function parse(xml: string): { root: { tests: string; failures: string; errors: string }; suites: Suite[] } {
  expect(XMLValidator.validate(xml)).toBe(true);
  const parsed = new XMLParser({ ignoreAttributes: false, htmlEntities: true, attributeNamePrefix: '', isArray: (name) => name === 'testsuite' || name === 'testcase' }).parse(xml);
  return { root: parsed.testsuites, suites: parsed.testsuites.testsuite };
}

/** The shop suite: its own refusal sentence, gates hallucinationRate <= 0.05 (fails: the planted error) and recall@5 >= 0.8. */
async function shopResults(options: { useSuiteGates?: boolean } = {}) {
  return runEval({ suite: loadSuite(fixture('shop-suite.json')), cwd: tempDir(), ...options });
}

describe('junitReport', () => {
  it('parses as XML: one testcase per question carrying its failed checks, and a failed gate as its own failure', async () => {
    const results = await shopResults();
    const { root, suites } = parse(junitReport(results));
    expect(suites.map((suite) => suite.name)).toEqual(['shop', 'shop: gates']);
    const [questions, gates] = suites as [Suite, Suite];
    const cases = questions.testcase as Case[];
    expect(cases).toHaveLength(6);
    expect(cases.map((entry) => entry.name)).toEqual(results.runs[0]!.questions.map((question) => `${question.id}: ${question.question}`));
    expect(cases[0]!.classname).toBe('groundcheck.shop.single-chunk');
    // shop-3 is the app's planted wrong figure: it fails faithfulness and the keyword check.
    const failedCases = cases.filter((entry) => entry.failure);
    expect(failedCases.map((entry) => entry.name.split(':')[0])).toEqual(['shop-3']);
    expect(failedCases[0]!.failure!.message).toBe('2 check(s) failed: faithfulness, keywords');
    expect(failedCases[0]!.failure!['#text']).toContain('faithfulness: 1 claim(s) not grounded in the 1 chunk(s) it was given:\ncontradicted: "Electronics carry a 3-year warranty [KB-301]."');
    expect(failedCases[0]!.failure!['#text']).toContain('keywords: missing keyword(s): "2-year"');
    expect(cases[4]!['system-out']).toContain("answer (RAG on): I don't know: our help centre does not cover that.");

    const gateCases = gates.testcase as Case[];
    expect(gateCases.map((entry) => [entry.name, entry.failure?.type ?? 'passed'])).toEqual([
      ['gate recall@5 >= 0.8', 'passed'],
      ['gate hallucinationRate <= 0.05', 'groundcheck.gate'],
    ]);
    expect(gateCases[1]!.failure!.message).toBe('hallucinationRate 0.200 > 0.05 (max)');
    expect({ tests: root.tests, failures: root.failures, errors: root.errors }).toEqual({ tests: '8', failures: '2', errors: '0' });
    expect({ tests: questions.tests, failures: questions.failures }).toEqual({ tests: '6', failures: '1' });
  });

  it('a question that could not run is an error; text XML cannot hold is dropped and markup is escaped', async () => {
    const results = await shopResults({ useSuiteGates: false });
    const question = results.runs[0]!.questions[0]!;
    Object.assign(question, { status: 'error', error: 'target said <b>"no"</b> & \u0007rang', rag: null, norag: null, pairwise: null, question: 'Tabs\tand <tags> & "quotes"' });
    const xml = junitReport(results);
    const { suites } = parse(xml);
    expect(suites).toHaveLength(1);
    const first = (suites[0]!.testcase as Case[])[0]!;
    expect(first.error).toMatchObject({ type: 'groundcheck.question_failed', message: 'the question could not be run: target said <b>"no"</b> & rang' });
    expect(first.name).toBe('shop-1: Tabs\tand <tags> & "quotes"');
    expect(xml).not.toContain('\u0007');
  });

  it('several runs: one testsuite per run', async () => {
    const results = await runEval({ suite: loadSuite(fixture('shop-questions.jsonl'), { target: fixture('eval-target.ts') }), runs: 2, seed: 5, cwd: tempDir() });
    const { root, suites } = parse(junitReport(results));
    expect(suites.map((suite) => suite.name)).toEqual(['shop-questions (run 1, seed 5)', 'shop-questions (run 2, seed 6)']);
    expect(root.tests).toBe('12');
  });
});
