/**
 * bench:encoder — what the sentence encoder (`use-lite`) costs and how well it gates, beside the
 * hashed embedder (`local-hash-v1`) in the same run:
 *
 * 1. Load: the first `loadSentenceEncoder()` in this process (modules imported, wasm backend
 *    started, 26 MB graph built). The decision rule for making it a default is "under 2 s".
 * 2. Embedding time per sentence, on every sentence of the handbook corpus: one call for all of
 *    them, and one call per sentence (what a judge or a query pays), against the hashed embedder.
 * 3. Gate calibration on the dev suite (default `evals/suites/handbook.json`): for each question,
 *    the cosine similarity of its best relevant chunk (answerable questions) and of the best chunk
 *    overall (all questions). Prints how well the best-chunk similarity separates answerable from
 *    unanswerable questions (AUC), and for each threshold how many answerable questions would
 *    lose every relevant chunk, how many unanswerable ones would be refused, and how many of a
 *    few plainly off-topic probe questions (written for this bench, not labelled data). The
 *    suggested threshold is one 0.05 step below the largest step at which no answerable question
 *    loses every relevant chunk: the rule that gives the hashed embedder's 0.10. Guardrail
 *    questions are left out: their topic is in the corpus; the gate is not what refuses them.
 * 4. Sentence choice: where the annual-leave sentence ranks among every handbook sentence for
 *    "How much holiday do I get a year?", with each embedder.
 * 5. Handbook retrieval with each embedder, alone and hybrid (gate off): recall@5, MRR and nDCG@5
 *    of the answerable questions' relevant chunks, as the eval computes them.
 *
 *   npm run bench:encoder
 *   npm run bench:encoder -- --suite evals/suites/handbook.json
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadQuestionSet } from '../src/eval/questions.js';
import { loadSuite } from '../src/eval/suite.js';
import { createLocalEmbedder } from '../src/providers/local/embedder.js';
import { createSentenceEncoderEmbedder } from '../src/providers/local/sentence-embedder.js';
import { cosineSimilarity, loadSentenceEncoder } from '../src/providers/local/sentence-encoder.js';
import type { EmbeddingModel } from '../src/providers/spec.js';
import { ndcgAtK, recallAtK, reciprocalRank } from '../src/metrics/retrieval.js';
import { ingestDirectory } from '../src/rag/ingest.js';
import { retrieve } from '../src/rag/retrieve.js';
import { openIndex } from '../src/rag/store.js';
import { benchFlags, BenchUsageError, REPO_ROOT, runBenchmark } from './lib/args.js';
import { anonymousRssMiB, mean, percentile, round } from './lib/stats.js';
import { formatTable } from './lib/table.js';

const FLAGS = { suite: true, help: false };
const USAGE = 'usage: npm run bench:encoder -- [--suite <suite.json>]\n';

/** The sentence-choice probe: a question and the start of the handbook sentence that answers it. */
const SENTENCE_CHOICE = { question: 'How much holiday do I get a year?', answer: 'Full-time employees receive 25 days of annual leave' };

/** Thresholds tried, in steps of {@link STEP}. */
const STEP = 0.05;
const THRESHOLDS = Array.from({ length: 12 }, (_, index) => round((index + 1) * STEP, 2));

/** Questions no HR handbook answers, to see whether the gate fires on them. Probes, not labelled data. */
const OFF_TOPIC_PROBES = [
  'What is the capital of France?',
  'How do I bake sourdough bread?',
  'Who won the 2018 football World Cup?',
  'What is the boiling point of water at sea level?',
  'Recommend a good science fiction novel.',
  'How do I change a flat tyre on my bike?',
  'What is the weather like in Bristol tomorrow?',
  'Explain how photosynthesis works.',
];

async function main(): Promise<void> {
  const flags = benchFlags(FLAGS, USAGE);
  if (!flags) return;

  const memoryBefore = anonymousRssMiB();
  const loadStarted = performance.now();
  const encoder = await loadSentenceEncoder();
  const loadMs = performance.now() - loadStarted;
  const memoryAfter = anonymousRssMiB();
  const loadMemoryMiB = memoryBefore !== null && memoryAfter !== null ? memoryAfter - memoryBefore : null;

  const suite = loadSuite(flags.get('suite') ?? join(REPO_ROOT, 'evals/suites/handbook.json'));
  const corpusDir = suite.corpusDir;
  if (corpusDir === null) throw new BenchUsageError(`suite ${suite.source} names no corpus folder; give a suite with one`);
  const sentences = corpusSentences(corpusDir);
  const hashed = createLocalEmbedder();
  const speed = {
    'use-lite': await timePerText(sentences, (texts) => encoder.embed(texts, { cache: false })),
    'local-hash-v1': await timePerText(sentences, async (texts) => hashed.embedSync(texts)),
  };
  const meanTokens = mean(sentences.map((sentence) => encoder.countTokens(sentence)));
  const target = sentences.findIndex((sentence) => sentence.startsWith(SENTENCE_CHOICE.answer));
  if (target === -1) throw new Error(`no handbook sentence starts with "${SENTENCE_CHOICE.answer}"`);
  const [queryVector, ...sentenceVectors] = await encoder.embed([SENTENCE_CHOICE.question, ...sentences], { cache: false });
  const hashedQuery = hashed.embedSync([SENTENCE_CHOICE.question], 'query')[0]!;
  const hashedSentences = hashed.embedSync(sentences, 'document');
  const sentenceRank = {
    'use-lite': rankOf(target, sentenceVectors.map((vector) => cosineSimilarity(queryVector!, vector))),
    'local-hash-v1': rankOf(target, hashedSentences.map((vector) => cosineSimilarity(hashedQuery, vector))),
  };

  const { questions } = loadQuestionSet(suite.questionsFile);
  const calibration: Record<string, Calibration> = {};
  const embedders: [string, EmbeddingModel][] = [
    ['local-hash-v1', createLocalEmbedder()],
    ['use-lite', createSentenceEncoderEmbedder()],
    ['use-lite longText=mean', createSentenceEncoderEmbedder({ longText: 'mean' })],
  ];
  for (const [label, embedder] of embedders) calibration[label] = await calibrate(embedder, corpusDir, questions);

  process.stdout.write(
    `load: use-lite ${Math.round(loadMs)} ms in this process (model files and graph ${Math.round(encoder.loadMs)} ms); target < 2,000 ms` +
      (loadMemoryMiB !== null ? `; anonymous RSS +${Math.round(loadMemoryMiB)} MiB` : '') + '\n\n',
  );
  process.stdout.write(
    `${formatTable(
      ['embedder', 'sentences', 'ms / sentence, one call', 'ms / sentence, one call each'],
      Object.entries(speed).map(([name, figures]) => [name, sentences.length, figures.batched, figures.single]),
    )}\n`,
  );
  process.stdout.write(`${sentences.length} handbook sentences, ${meanTokens.toFixed(1)} SentencePiece tokens on average; wasm backend, one thread\n`);
  process.stdout.write(
    `sentence choice: "${SENTENCE_CHOICE.question}" ranks "${SENTENCE_CHOICE.answer}…" ` +
      `${sentenceRank['use-lite']} of ${sentences.length} with use-lite, ${sentenceRank['local-hash-v1']} with local-hash-v1\n\n`,
  );

  for (const [modelId, result] of Object.entries(calibration)) {
    process.stdout.write(
      `${modelId}: best-chunk similarity AUC answerable vs unanswerable ${result.auc.toFixed(3)}; ` +
        `relevant chunk min ${result.relevantMin.toFixed(3)}, median ${result.relevantMedian.toFixed(3)}; ` +
        `unanswerable best chunk median ${result.unanswerableMedian.toFixed(3)}, max ${result.unanswerableMax.toFixed(3)}; ` +
        `suggested threshold ${result.suggested.toFixed(2)} (embedder's current ${result.current.toFixed(2)})\n`,
    );
    process.stdout.write(`${formatTable(['threshold', 'answerable losing every relevant chunk', 'unanswerable refused', 'off-topic probes refused'], result.rows)}\n\n`);
  }
  process.stdout.write(
    `${formatTable(
      ['handbook retrieval', 'recall@5', 'MRR', 'nDCG@5'],
      Object.entries(calibration).flatMap(([modelId, result]) =>
        Object.entries(result.retrieval).map(([method, figures]) => [`${method} (${modelId})`, figures.recall5, figures.mrr, figures.ndcg5]),
      ),
    )}\n`,
  );
  process.stdout.write(`answerable questions of ${suite.name}, topK 8, gate off\n\n`);

  process.stdout.write(
    `${JSON.stringify({
      load_ms: Math.round(loadMs),
      load_rss_mib: loadMemoryMiB === null ? null : Math.round(loadMemoryMiB),
      sentence_choice_rank: sentenceRank,
      ms_per_sentence: Object.fromEntries(Object.entries(speed).map(([name, figures]) => [name, { batched: round(figures.batched, 3), single: round(figures.single, 3) }])),
      gate: Object.fromEntries(
        Object.entries(calibration).map(([modelId, result]) => [
          modelId,
          {
            auc: round(result.auc, 3), suggested: result.suggested, current: result.current, relevant_min: round(result.relevantMin, 3), unanswerable_max: round(result.unanswerableMax, 3),
            retrieval: Object.fromEntries(Object.entries(result.retrieval).map(([method, figures]) => [method, { recall5: round(figures.recall5), mrr: round(figures.mrr), ndcg5: round(figures.ndcg5) }])),
          },
        ]),
      ),
    })}\n`,
  );
}

interface Calibration {
  auc: number;
  relevantMin: number;
  relevantMedian: number;
  unanswerableMedian: number;
  unanswerableMax: number;
  suggested: number;
  current: number;
  rows: (string | number)[][];
  retrieval: Record<string, { recall5: number; mrr: number; ndcg5: number }>;
}

/** Retrieval as compared in bench:retrieval: the embedder alone, and fused with BM25. */
const RETRIEVAL_METHODS = { embedder: { textWeight: 0 }, hybrid: {} };

async function calibrate(
  embedder: EmbeddingModel,
  corpusDir: string,
  questions: readonly { question: string; mustRefuse: boolean; category: string; relevantChunkIds: string[] }[],
): Promise<Calibration> {
  const folder = mkdtempSync(join(tmpdir(), 'groundcheck-bench-encoder-'));
  try {
    const index = openIndex({ path: join(folder, 'index.db'), embedder });
    await ingestDirectory(index, corpusDir);
    const chunkCount = index.chunkCount();
    const relevant: number[] = [];
    const answerableBest: number[] = [];
    const unanswerableBest: number[] = [];
    const search = async (text: string) => {
      const [vector] = (await embedder.embed({ values: [text], purpose: 'query' })).embeddings;
      // A zero vector (no word the corpus knows) has no direction: retrieve() finds nothing by vector for it.
      return vector!.some((value) => value !== 0) ? index.vectorSearch(vector!, chunkCount) : [];
    };
    const probeBest: number[] = [];
    for (const probe of OFF_TOPIC_PROBES) probeBest.push((await search(probe))[0]?.similarity ?? 0);
    const retrieval: Calibration['retrieval'] = {};
    for (const [method, options] of Object.entries(RETRIEVAL_METHODS)) {
      const scores = { recall5: [] as number[], mrr: [] as number[], ndcg5: [] as number[] };
      for (const question of questions.filter((item) => !item.mustRefuse)) {
        const ranked = (await retrieve(index, question.question, { topK: 8, minSimilarity: -1, ...options })).chunks.map((chunk) => chunk.chunkId);
        scores.recall5.push(recallAtK(question.relevantChunkIds, ranked, 5) ?? 0);
        scores.mrr.push(reciprocalRank(question.relevantChunkIds, ranked) ?? 0);
        scores.ndcg5.push(ndcgAtK(question.relevantChunkIds, ranked, 5) ?? 0);
      }
      retrieval[method] = { recall5: mean(scores.recall5), mrr: mean(scores.mrr), ndcg5: mean(scores.ndcg5) };
    }
    for (const question of questions) {
      if (question.category === 'guardrail') continue;
      const hits = await search(question.question);
      const best = hits[0]?.similarity ?? 0;
      if (question.mustRefuse) {
        unanswerableBest.push(best);
        continue;
      }
      answerableBest.push(best);
      const ids = new Map(index.getChunks(hits.map((hit) => hit.rowid)).map((chunk) => [chunk.rowid, chunk.chunkId]));
      const similarities = hits.filter((hit) => question.relevantChunkIds.includes(ids.get(hit.rowid) ?? '')).map((hit) => hit.similarity);
      relevant.push(Math.max(0, ...similarities));
    }
    index.close();
    const keepsEveryAnswerable = THRESHOLDS.filter((threshold) => relevant.every((value) => value >= threshold));
    const suggested = round(Math.max(0, (keepsEveryAnswerable.at(-1) ?? STEP) - STEP), 2);
    const current = embedder.suggestedMinSimilarity ?? 0.25;
    const thresholds = [...new Set([...THRESHOLDS, suggested, round(current, 2)])].sort((a, b) => a - b);
    const rows = thresholds.map((threshold) => [
      `${threshold.toFixed(2)}${threshold === suggested ? ' (suggested)' : ''}${threshold === round(current, 2) ? ' (current)' : ''}`,
      `${relevant.filter((value) => value < threshold).length}/${relevant.length}`,
      `${unanswerableBest.filter((value) => value < threshold).length}/${unanswerableBest.length}`,
      `${probeBest.filter((value) => value < threshold).length}/${probeBest.length}`,
    ]);
    return {
      auc: areaUnderCurve(answerableBest, unanswerableBest),
      retrieval,
      relevantMin: Math.min(...relevant),
      relevantMedian: percentile(relevant, 50),
      unanswerableMedian: percentile(unanswerableBest, 50),
      unanswerableMax: Math.max(...unanswerableBest),
      suggested,
      current,
      rows,
    };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** 1-based rank of `index` by descending score (ties count against it). */
function rankOf(index: number, scores: readonly number[]): number {
  return 1 + scores.filter((score, position) => position !== index && score >= scores[index]!).length;
}

/** P(a random positive scores above a random negative), ties counting half. */
function areaUnderCurve(positives: readonly number[], negatives: readonly number[]): number {
  let wins = 0;
  for (const positive of positives) for (const negative of negatives) wins += positive > negative ? 1 : positive === negative ? 0.5 : 0;
  return wins / (positives.length * negatives.length);
}

async function timePerText(texts: readonly string[], embed: (texts: string[]) => Promise<unknown>): Promise<{ batched: number; single: number }> {
  await embed(texts.slice(0, 8)); // warm-up
  let started = performance.now();
  await embed([...texts]);
  const batched = (performance.now() - started) / texts.length;
  started = performance.now();
  for (const text of texts) await embed([text]);
  const single = (performance.now() - started) / texts.length;
  return { batched, single };
}

/** Every sentence of the corpus bodies (front matter and headings left out), longer than 20 characters. */
function corpusSentences(corpusDir: string): string[] {
  return readdirSync(corpusDir)
    .filter((file) => file.endsWith('.md'))
    .sort()
    .flatMap((file) =>
      readFileSync(join(corpusDir, file), 'utf8')
        .replace(/^---[\s\S]*?---/, '')
        .split(/\n+/)
        .filter((line) => !line.startsWith('#'))
        .flatMap((line) => line.split(/(?<=[.!?])\s+/)),
    )
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence.length > 20);
}

runBenchmark(main);
