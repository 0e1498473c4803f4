/**
 * bench:new-questions — what a question never asked before costs, against the same question asked
 * again, in one process. Benchmarks that replay a fixed list (bench:middleware, bench:capture-path)
 * pay each word's one-off costs once, in their warm-up: whatever is compiled or looked up per new
 * word (regular expressions, WordNet entries, memoized word classes) is then cached. Real users
 * keep bringing new words, so the first ask is the one they pay.
 *
 * In one process, after the 78 handbook questions (fixtures/questions/handbook.jsonl) have been
 * asked three times (warm-up): every distinct question of the hand-label files
 * (fixtures/judge-labels/*.jsonl) that the warm-up did not ask, asked once (the first ask), then
 * all of them again (the baseline: the same work with every per-word cache warm). The offline
 * pipeline (hashed embedder, local extractive answerer) as `npm start` runs it. Then the heuristic
 * judge over the label items the same way: every item judged once, then twice again. CPU time of
 * the process (`process.cpuUsage`) per question or judgment: the first pass, against the lower of
 * the two passes after it. A first pass happens once per process, so each run gives one.
 *
 *   npm run bench:new-questions
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHeuristicFaithfulnessJudge } from '../src/judge/heuristic-judge.js';
import { createLocalEmbedder } from '../src/providers/local/embedder.js';
import { createLocalChatModel } from '../src/providers/local/generator.js';
import { ingestDirectory } from '../src/rag/ingest.js';
import { createRagPipeline } from '../src/rag/pipeline.js';
import { openIndex } from '../src/rag/store.js';
import { benchFlags, REPO_ROOT, runBenchmark } from './lib/args.js';
import { judgeItems } from './lib/judge-label-bench.js';
import { loadLabelFile } from './lib/judge-labels.js';
import { round } from './lib/stats.js';
import { formatTable } from './lib/table.js';
import { handbookQuestions } from './lib/handbook-questions.js';

const USAGE = 'usage: npm run bench:new-questions\n';

function cpuMicros(): number {
  const usage = process.cpuUsage();
  return usage.user + usage.system;
}

async function timed(work: () => Promise<unknown>, count: number): Promise<number> {
  const started = cpuMicros();
  await work();
  return (cpuMicros() - started) / count / 1000;
}

async function main(): Promise<void> {
  if (benchFlags({ help: false }, USAGE) === null) return;
  const labelFolder = join(REPO_ROOT, 'fixtures', 'judge-labels');
  const items = readdirSync(labelFolder)
    .filter((name) => name.endsWith('.jsonl'))
    .sort()
    .flatMap((name) => loadLabelFile(join(labelFolder, name)).items);
  const warm = handbookQuestions();
  const asked = new Set(warm);
  const fresh = [...new Set(items.map((item) => item.question))].filter((question) => !asked.has(question));

  const folder = mkdtempSync(join(tmpdir(), 'groundcheck-bench-new-'));
  try {
    const index = openIndex({ path: join(folder, 'index.db'), embedder: createLocalEmbedder() });
    await ingestDirectory(index, join(REPO_ROOT, 'fixtures', 'corpus'));
    const pipeline = createRagPipeline({ index, chat: createLocalChatModel() });
    process.stderr.write(`warm-up: the ${warm.length} handbook questions, three times\n`);
    for (let pass = 0; pass < 3; pass++) for (const question of warm) await pipeline.ask(question);
    const askAll = async () => {
      for (const question of fresh) await pipeline.ask(question);
    };
    process.stderr.write(`asking ${fresh.length} questions never asked before, then again (twice)\n`);
    const askFirst = await timed(askAll, fresh.length);
    const askAgain = [await timed(askAll, fresh.length), await timed(askAll, fresh.length)];
    index.close();

    const judge = createHeuristicFaithfulnessJudge();
    process.stderr.write(`judging ${items.length} label items, then again (twice)\n`);
    const judgeAll = () => judgeItems(judge, items);
    const judgeFirst = await timed(judgeAll, items.length);
    const judgeAgain = [await timed(judgeAll, items.length), await timed(judgeAll, items.length)];

    const again = (values: readonly number[]) => Math.min(...values);
    process.stdout.write(`\nCPU ms per question (offline pipeline) and per judgment (heuristic judge), first time against the same again (the lower of two passes)\n`);
    process.stdout.write(
      `${formatTable(
        ['work', 'items', 'first time', 'again (baseline)', 'added by new words'],
        [
          ['pipeline.ask, questions never asked before', fresh.length, askFirst.toFixed(2), again(askAgain).toFixed(2), (askFirst - again(askAgain)).toFixed(2)],
          ['heuristic judge, label items', items.length, judgeFirst.toFixed(2), again(judgeAgain).toFixed(2), (judgeFirst - again(judgeAgain)).toFixed(2)],
        ],
      )}\n`,
    );
    process.stdout.write(
      `${JSON.stringify({
        bench: 'new-questions',
        questions: fresh.length,
        judgments: items.length,
        ask_first_ms: round(askFirst, 2),
        ask_again_ms: round(again(askAgain), 2),
        judge_first_ms: round(judgeFirst, 2),
        judge_again_ms: round(again(judgeAgain), 2),
      })}\n`,
    );
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

runBenchmark(main);
