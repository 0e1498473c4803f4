/**
 * bench:eval — eval runner throughput: `runEval` with the `openai` provider as generator and LLM
 * judge, pointed at a local OpenAI-compatible server (`startMockOpenAIServer`, in this process)
 * that answers every chat call after a fixed delay. Per concurrency level: the wall time of a
 * first, uncached run (fresh cache file) against the ideal (calls × delay ÷ concurrency), then a
 * rerun served from that cache. The server counts the calls it received; they must equal the
 * calls the runner reports, and the cached rerun must make none.
 *
 * Embeddings come from the offline local embedder (only chat calls reach the server); the index is
 * built once before timing. The wall time is the whole `runEval` call: opening the index, the
 * incremental ingest check, retrieval of every question, answers, judgments and aggregation.
 *
 *   npm run bench:eval
 *   npm run bench:eval -- --suite smoke --delay-ms 100 --concurrency 1,8,32
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { openLlmCache } from '../src/eval/cache.js';
import { runEval } from '../src/eval/runner.js';
import { loadSuite } from '../src/eval/suite.js';
import type { EvalResults } from '../src/eval/types.js';
import { createOpenAI } from '../src/providers/openai.js';
import { createLocalEmbedder } from '../src/providers/local/embedder.js';
import { ingestDirectory } from '../src/rag/ingest.js';
import { openIndex } from '../src/rag/store.js';
import { startMockOpenAIServer } from '../src/testing/openai-server.js';
import { benchFlags, integerFlag, integerListFlag, REPO_ROOT, runBenchmark } from './lib/args.js';
import { benchChatHandler, type MockCallKind } from './lib/mock-llm-replies.js';
import { round } from './lib/stats.js';
import { formatTable } from './lib/table.js';

const FLAGS = { suite: true, 'delay-ms': true, concurrency: true, 'no-warmup': false, help: false };
const USAGE = 'usage: npm run bench:eval -- [--suite handbook|smoke|<suite.json> (handbook)] [--delay-ms <n=200>] [--concurrency <list=1,4,16>] [--no-warmup]\n';

interface LevelFigures {
  concurrency: number;
  questions: number;
  /** Chat calls the server received during the first run. */
  serverCalls: number;
  byKind: Record<MockCallKind, number>;
  /** Calls the runner reports (its ledger: every attempt that reached a model). */
  runnerCalls: number;
  retries: number;
  wallMs: number;
  idealMs: number;
  efficiency: number;
  /** From the start of `runEval` to the first model call: index open, ingest check, retrieval. */
  setupMs: number;
  /** From the first model call's arrival to the last reply. */
  modelSpanMs: number;
  /** CPU time of this process (runner and mock server) during the first run, as a share of its wall time. */
  cpuShare: number;
  cachedWallMs: number;
  cachedServerCalls: number;
  cachedRunnerCalls: number;
  cacheHits: number;
  failedQuestions: number;
  judgeErrors: number;
}

async function main(): Promise<void> {
  const flags = benchFlags(FLAGS, USAGE);
  if (!flags) return;
  const delayMs = integerFlag(flags, 'delay-ms', 200, 1, 60_000);
  const levels = integerListFlag(flags, 'concurrency', [1, 4, 16]);
  const suiteFlag = flags.get('suite') ?? 'handbook';
  const suitePath = /^[\w-]+$/.test(suiteFlag) ? join(REPO_ROOT, 'evals', 'suites', `${suiteFlag}.json`) : isAbsolute(suiteFlag) ? suiteFlag : resolve(process.cwd(), suiteFlag);
  const suite = loadSuite(suitePath, { cwd: REPO_ROOT });

  const folder = mkdtempSync(join(tmpdir(), 'groundcheck-bench-eval-'));
  const counts: Record<MockCallKind, number> = { generator: 0, faithfulness: 0, pairwise: 0 };
  const arrivals: number[] = [];
  const handler = benchChatHandler(delayMs, counts);
  let embeddingCalls = 0;
  const server = await startMockOpenAIServer({
    // A real endpoint keeps connections open; with the mock's 1 s default Node's fetch would open a
    // new connection for every call, a cost of the test double, not of the runner.
    keepAliveTimeoutMs: 30_000,
    chat: (request) => {
      arrivals.push(performance.now());
      return handler(request);
    },
    embeddings: () => {
      embeddingCalls += 1;
      return { status: 500, json: { error: { message: 'bench:eval serves no embeddings', type: 'server_error' } } };
    },
  });
  try {
    // The index is built once, before any timing; each runEval finds every document unchanged.
    const embedder = createLocalEmbedder();
    const indexPath = join(folder, 'index.db');
    const index = openIndex({ path: indexPath, embedder });
    // The bench suites are groundcheck suites: they always name a corpus.
    await ingestDirectory(index, suite.corpusDir!);
    index.close();

    // One level of retries (the runner's), as the CLI does: the SDK's own are off.
    const openai = createOpenAI({ apiKey: 'bench', baseURL: server.url, maxRetries: 0, timeoutMs: 120_000 });
    const generator = openai.chat('bench-generator');
    const judgeChat = openai.chat('bench-judge');
    process.stderr.write(`suite ${suite.name} (${suitePath}), server ${server.url}, ${delayMs} ms per chat call, concurrency ${levels.join(', ')}\n`);

    if (!flags.has('no-warmup')) {
      // Untimed: the smoke suite once, so the first level measured does not also pay for compiling
      // the runner, the SDK, the judges and opening connections (every later level starts warm).
      const warmupStarted = performance.now();
      await runEval({
        suite: join(REPO_ROOT, 'evals', 'suites', 'smoke.json'),
        generator,
        embedder,
        judge: { chat: judgeChat },
        concurrency: Math.max(...levels),
        maxRetries: 2,
        indexPath,
        useSuiteGates: false,
        cwd: REPO_ROOT,
      });
      process.stderr.write(`warm-up (smoke suite, not timed): ${((performance.now() - warmupStarted) / 1000).toFixed(2)} s\n`);
    }

    const figures: LevelFigures[] = [];
    for (const concurrency of levels) {
      const cache = openLlmCache({ path: join(folder, `llm-cache-c${concurrency}.db`) });
      const run = async () => {
        const before = { requests: server.requests.length, arrivals: arrivals.length, counts: { ...counts }, cpu: process.cpuUsage() };
        const started = performance.now();
        const results = await runEval({
          suite,
          generator,
          embedder,
          judge: { chat: judgeChat },
          concurrency,
          maxRetries: 2,
          cache,
          cacheNamespace: { generator: server.url, judge: server.url },
          indexPath,
          useSuiteGates: false,
          cwd: REPO_ROOT,
        });
        const wallMs = performance.now() - started;
        const cpu = process.cpuUsage(before.cpu);
        const runArrivals = arrivals.slice(before.arrivals);
        return {
          results,
          wallMs,
          serverCalls: server.requests.length - before.requests,
          byKind: Object.fromEntries(Object.entries(counts).map(([kind, count]) => [kind, count - before.counts[kind as MockCallKind]])) as Record<MockCallKind, number>,
          setupMs: runArrivals.length > 0 ? runArrivals[0]! - started : wallMs,
          modelSpanMs: runArrivals.length > 0 ? runArrivals.at(-1)! + delayMs - runArrivals[0]! : 0,
          cpuShare: (cpu.user + cpu.system) / 1000 / wallMs,
        };
      };
      process.stderr.write(`concurrency ${concurrency}: first run… `);
      const first = await run();
      process.stderr.write(`${(first.wallMs / 1000).toFixed(2)} s; cached rerun… `);
      const cached = await run();
      process.stderr.write(`${(cached.wallMs / 1000).toFixed(2)} s\n`);
      cache.close();
      const idealMs = (first.serverCalls * delayMs) / concurrency;
      figures.push({
        concurrency,
        questions: first.results.suite.questions,
        serverCalls: first.serverCalls,
        byKind: first.byKind,
        runnerCalls: runnerCalls(first.results),
        retries: first.results.usage.retries,
        wallMs: first.wallMs,
        idealMs,
        efficiency: idealMs / first.wallMs,
        setupMs: first.setupMs,
        modelSpanMs: first.modelSpanMs,
        cpuShare: first.cpuShare,
        cachedWallMs: cached.wallMs,
        cachedServerCalls: cached.serverCalls,
        cachedRunnerCalls: runnerCalls(cached.results),
        cacheHits: cached.results.usage.cache?.hits ?? 0,
        failedQuestions: first.results.runs.reduce((sum, summary) => sum + summary.failedQuestions.length, 0),
        judgeErrors: first.results.runs.reduce((sum, summary) => sum + summary.judgeErrors.errors, 0),
      });
    }
    report(figures, { suite: suite.name, suitePath, delayMs, embeddingCalls, warmup: !flags.has('no-warmup') });
  } finally {
    await server.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

/** Calls that reached a model according to the runner's ledger (failed attempts included). */
function runnerCalls(results: EvalResults): number {
  return results.usage.models.reduce((sum, model) => sum + model.calls + model.failedCalls, 0);
}

function report(figures: LevelFigures[], settings: { suite: string; suitePath: string; delayMs: number; embeddingCalls: number; warmup: boolean }): void {
  const out = (text: string) => process.stdout.write(`${text}\n`);
  out('');
  out(
    `bench:eval — runEval, suite "${settings.suite}" (${figures[0]?.questions ?? 0} questions), openai provider for generator and LLM judges against a local mock server ` +
      `(${settings.delayMs} ms per chat call, same process), local embedder; ${settings.warmup ? 'after an untimed warm-up run of the smoke suite' : 'no warm-up'}; ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown CPU'}), Node ${process.version}`,
  );
  out('ideal = server calls × delay ÷ concurrency; efficiency = ideal ÷ wall time; setup = runEval start to first model call (index, ingest check, retrieval);');
  out('CPU busy = this process\'s CPU time ÷ wall time (runner and mock server); cached = the same run again, answered from the first run\'s cache file');
  out('');
  out(
    formatTable(
      ['concurrency', 'server calls', 'runner calls', 'gen/faith/pair', 'wall s', 'ideal s', 'efficiency', 'setup ms', 'model span s', 'CPU busy', 'cached s', 'cached/first', 'cached calls'],
      figures.map((row) => [
        row.concurrency,
        row.serverCalls,
        row.runnerCalls,
        `${row.byKind.generator}/${row.byKind.faithfulness}/${row.byKind.pairwise}`,
        (row.wallMs / 1000).toFixed(2),
        (row.idealMs / 1000).toFixed(2),
        `${(100 * row.efficiency).toFixed(1)}%`,
        Math.round(row.setupMs),
        (row.modelSpanMs / 1000).toFixed(2),
        `${(100 * row.cpuShare).toFixed(0)}%`,
        (row.cachedWallMs / 1000).toFixed(3),
        `${((100 * row.cachedWallMs) / row.wallMs).toFixed(2)}%`,
        row.cachedServerCalls,
      ]),
    ),
  );
  const problems: string[] = [];
  for (const row of figures) {
    if (row.serverCalls !== row.runnerCalls) problems.push(`concurrency ${row.concurrency}: the server received ${row.serverCalls} calls, the runner reports ${row.runnerCalls}`);
    if (row.cachedServerCalls !== 0 || row.cachedRunnerCalls !== 0) problems.push(`concurrency ${row.concurrency}: the cached rerun made ${row.cachedServerCalls} server calls (runner: ${row.cachedRunnerCalls})`);
    if (row.failedQuestions > 0 || row.judgeErrors > 0 || row.retries > 0) problems.push(`concurrency ${row.concurrency}: ${row.failedQuestions} failed questions, ${row.judgeErrors} judge errors, ${row.retries} retries`);
  }
  if (settings.embeddingCalls > 0) problems.push(`${settings.embeddingCalls} embedding calls reached the server`);
  out('');
  out(problems.length === 0 ? 'checks: server calls = runner calls at every level; cached reruns made 0 calls; no failed question, judge error or retry; 0 embedding calls.' : `CHECKS FAILED:\n  ${problems.join('\n  ')}`);
  out('');
  out(
    JSON.stringify(
      Object.fromEntries(
        figures.map((row) => [
          `c${row.concurrency}`,
          {
            wall_ms: round(row.wallMs, 1),
            ideal_ms: round(row.idealMs, 1),
            efficiency: round(row.efficiency, 4),
            setup_ms: round(row.setupMs, 1),
            model_span_ms: round(row.modelSpanMs, 1),
            cpu_share: round(row.cpuShare, 3),
            server_calls: row.serverCalls,
            runner_calls: row.runnerCalls,
            cached_wall_ms: round(row.cachedWallMs, 1),
            cached_ratio: round(row.cachedWallMs / row.wallMs, 4),
            cached_server_calls: row.cachedServerCalls,
            cache_hits: row.cacheHits,
          },
        ]),
      ),
    ),
  );
  if (problems.length > 0) process.exitCode = 1;
}

runBenchmark(main);
