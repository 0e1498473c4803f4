import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalEmbedder } from '../../src/providers/local/embedder.js';
import { renderChunkText } from '../../src/contract/formats.js';
import { retrieve } from '../../src/rag/retrieve.js';
import type { FaithfulnessJudge } from '../../src/judge/types.js';
import type { BeirDataset } from './beir.js';
import { buildBeirIndex } from './beir-index.js';

/**
 * The context-relevance task of `bench:judge --scifact`: does the judge's per-chunk verdict tell an
 * abstract that bears on a claim (a SciFact qrels pair) from a BM25 hard negative (the best-ranked
 * abstract that is not judged relevant for that claim)? Predicted relevant = `answers` or
 * `related`; the figure is the balanced accuracy over the two kinds of pair.
 */

export interface ContextPair {
  claimId: string;
  claim: string;
  documentId: string;
  title: string;
  text: string;
  relevant: boolean;
}

export interface ContextFigures {
  pairs: number;
  claims: number;
  /** Positives predicted `answers` or `related`. */
  truePositiveRate: number | null;
  /** Negatives predicted `unrelated`. */
  trueNegativeRate: number | null;
  balancedAccuracy: number | null;
  /** Verdict counts per kind of pair. */
  verdicts: { relevant: Record<string, number>; negative: Record<string, number> };
  judgeErrors: number;
}

/**
 * One positive and one BM25 hard negative per claim, for the first `limit` claims (in file order)
 * that have a relevant abstract. The index is built in a temp folder and removed.
 */
export async function sciFactPairs(dataset: BeirDataset, limit: number): Promise<ContextPair[]> {
  const folder = mkdtempSync(join(tmpdir(), 'groundcheck-scifact-judge-'));
  const built = await buildBeirIndex(dataset.documents, createLocalEmbedder(), folder);
  const documents = new Map(dataset.documents.map((document) => [document.id, document]));
  const pairs: ContextPair[] = [];
  try {
    for (const query of dataset.queries) {
      if (pairs.length >= 2 * limit) break;
      const judged = dataset.qrels.get(query.id);
      const relevantIds = [...(judged?.keys() ?? [])].filter((id) => (judged!.get(id) ?? 0) > 0 && documents.has(id));
      if (relevantIds.length === 0) continue;
      const ranked = await retrieve(built.index, query.text, { topK: 20, vectorWeight: 0, minSimilarity: -1 });
      const negativeId = ranked.chunks.map((chunk) => built.idBySlug.get(chunk.document)!).find((id) => id !== undefined && !judged!.has(id));
      if (negativeId === undefined) continue;
      const positive = documents.get(relevantIds[0]!)!;
      const negative = documents.get(negativeId)!;
      pairs.push({ claimId: query.id, claim: query.text, documentId: positive.id, title: positive.title, text: positive.text, relevant: true });
      pairs.push({ claimId: query.id, claim: query.text, documentId: negative.id, title: negative.title, text: negative.text, relevant: false });
    }
  } finally {
    built.index.close();
    rmSync(folder, { recursive: true, force: true });
  }
  return pairs;
}

/** Judge each pair's abstract as the only evidence chunk for the claim (with an empty answer: only the context verdict is read). */
export async function contextFigures(judge: FaithfulnessJudge, pairs: readonly ContextPair[]): Promise<ContextFigures> {
  const verdicts = { relevant: {} as Record<string, number>, negative: {} as Record<string, number> };
  let truePositives = 0;
  let trueNegatives = 0;
  let judgeErrors = 0;
  for (const pair of pairs) {
    const text = renderChunkText({ title: pair.title || pair.documentId, section: '', updated: null, body: pair.text });
    const judgment = await judge.judge({ question: pair.claim, evidence: [{ id: `scifact:${pair.documentId}`, text, kind: 'chunk' }], answer: '' });
    const verdict = judgment.status === 'ok' ? (judgment.contexts[0]?.verdict ?? 'unrelated') : 'judge_error';
    if (judgment.status !== 'ok') judgeErrors += 1;
    const bucket = pair.relevant ? verdicts.relevant : verdicts.negative;
    bucket[verdict] = (bucket[verdict] ?? 0) + 1;
    if (pair.relevant && (verdict === 'answers' || verdict === 'related')) truePositives += 1;
    if (!pair.relevant && verdict === 'unrelated') trueNegatives += 1;
  }
  const positives = pairs.filter((pair) => pair.relevant).length;
  const negatives = pairs.length - positives;
  const tpr = positives === 0 ? null : truePositives / positives;
  const tnr = negatives === 0 ? null : trueNegatives / negatives;
  return {
    pairs: pairs.length,
    claims: new Set(pairs.map((pair) => pair.claimId)).size,
    truePositiveRate: tpr,
    trueNegativeRate: tnr,
    balancedAccuracy: tpr === null || tnr === null ? null : (tpr + tnr) / 2,
    verdicts,
    judgeErrors,
  };
}
