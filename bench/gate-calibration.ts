/**
 * bench:gate — calibrate the relevance gate on a question suite (the dev suite by default).
 *
 * Retrieves every question once with the gate off, then reports, for a range of similarity
 * thresholds, how many must-refuse questions the similarity half alone would gate and how many
 * answerable ones it would wrongly gate; and what the term-coverage half gates (with the words it
 * found nowhere in the corpus). The suggested threshold is the highest one (in steps of 0.01) that
 * gates no answerable question of the suite, rounded down: the gate should only ever fire on
 * questions nothing in the corpus is close to. Prints the tables, then one JSON line.
 *
 *   npm run bench:gate
 *   npm run bench:gate -- --suite evals/suites/handbook.json
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadQuestionSet } from '../src/eval/questions.js';
import { loadSuite } from '../src/eval/suite.js';
import { createLocalEmbedder } from '../src/providers/local/embedder.js';
import { ingestDirectory } from '../src/rag/ingest.js';
import { retrieve } from '../src/rag/retrieve.js';
import { openIndex } from '../src/rag/store.js';
import { checkTermCoverage } from '../src/rag/term-coverage.js';
import { benchFlags, BenchUsageError, REPO_ROOT, runBenchmark } from './lib/args.js';
import { formatTable } from './lib/table.js';

const USAGE = 'usage: npm run bench:gate -- [--suite <suite.json>]\n';

runBenchmark(async () => {
  const flags = benchFlags({ suite: true, help: false }, USAGE);
  if (!flags) return;
  const suite = loadSuite(flags.get('suite') ?? 'evals/suites/handbook-dev.json', { cwd: REPO_ROOT });
  const questions = loadQuestionSet(suite.questionsFile).questions;
  const folder = mkdtempSync(join(tmpdir(), 'groundcheck-gate-'));
  const embedder = createLocalEmbedder();
  const index = openIndex({ path: join(folder, 'index.db'), embedder });
  try {
    if (suite.corpusDir === null) throw new BenchUsageError(`${suite.source} has no corpus to calibrate on`);
    await ingestDirectory(index, suite.corpusDir);
    const rows: { id: string; mustRefuse: boolean; top: number; uncovered: string[] }[] = [];
    for (const question of questions) {
      const retrieval = await retrieve(index, question.question, { topK: suite.topK, minSimilarity: -1, termCoverage: false });
      const coverage = await checkTermCoverage(index, question.question);
      rows.push({ id: question.id, mustRefuse: question.mustRefuse, top: retrieval.topSimilarity ?? 0, uncovered: coverage.uncoveredTerms });
    }
    const refuse = rows.filter((row) => row.mustRefuse);
    const answerable = rows.filter((row) => !row.mustRefuse);
    const thresholds = [0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35];
    process.stdout.write(`${suite.name}: ${rows.length} questions (${refuse.length} must refuse), embedder ${embedder.fingerprint}\n\n`);
    process.stdout.write(
      `${formatTable(
        ['minSimilarity', 'must-refuse gated', 'answerable gated'],
        thresholds.map((threshold) => [threshold, refuse.filter((row) => row.top < threshold).length, answerable.filter((row) => row.top < threshold).length]),
      )}\n\n`,
    );
    const lowestAnswerable = Math.min(...answerable.map((row) => row.top));
    const suggested = Math.floor(lowestAnswerable * 100) / 100;
    const coverageRefuse = refuse.filter((row) => row.uncovered.length > 0);
    const coverageAnswerable = answerable.filter((row) => row.uncovered.length > 0);
    process.stdout.write(
      `${formatTable(
        ['term coverage', 'gated', 'of', 'words (answerable gated)'],
        [
          ['must refuse', coverageRefuse.length, refuse.length, ''],
          ['answerable', coverageAnswerable.length, answerable.length, coverageAnswerable.map((row) => `${row.id}: ${row.uncovered.join(' ')}`).join('; ')],
        ],
      )}\n\n`,
    );
    process.stdout.write(`lowest top similarity of an answerable question: ${lowestAnswerable.toFixed(3)}; suggested minSimilarity ${suggested.toFixed(2)} (current suggestion ${embedder.suggestedMinSimilarity})\n`);
    process.stdout.write(
      `${JSON.stringify({
        suite: suite.name,
        questions: rows.length,
        mustRefuse: refuse.length,
        similarity: Object.fromEntries(thresholds.map((threshold) => [threshold, { mustRefuseGated: refuse.filter((row) => row.top < threshold).length, answerableGated: answerable.filter((row) => row.top < threshold).length }])),
        lowestAnswerableSimilarity: Number(lowestAnswerable.toFixed(4)),
        suggestedMinSimilarity: suggested,
        termCoverage: { mustRefuseGated: coverageRefuse.length, answerableGated: coverageAnswerable.length },
      })}\n`,
    );
  } finally {
    index.close();
    rmSync(folder, { recursive: true, force: true });
  }
});
