import { InvalidInputError } from '../errors.js';

/**
 * Retrieval metrics computed from chunk ids. Pure functions.
 *
 * Conventions (METHODOLOGY.md, "Metrics"):
 * - `relevant` is a list of ids (each grade 1) or a map id → grade; only grades > 0 count as relevant.
 * - A retrieved id that appears twice counts once, at its first rank (later copies are dropped
 *   before cutting at k), so a retriever cannot score twice with one chunk.
 * - Every metric is `null` when the relevant set is empty: there is nothing to find, so the
 *   question is left out of averages (never scored 0 or 1). Unanswerable questions are measured by
 *   refusal rate instead (`refusal.ts`).
 */

/** Relevant chunk ids: a list (every id grade 1) or graded (`{ id: grade }`, grade > 0 relevant). */
export type Relevance = readonly string[] | Readonly<Record<string, number>>;

/** The cut-offs reported by default. */
export const DEFAULT_KS: readonly number[] = Object.freeze([1, 3, 5, 8]);

/** Relevant ids with their grades (only grades > 0). Throws on a negative or non-finite grade. */
export function relevanceGrades(relevant: Relevance): Map<string, number> {
  const grades = new Map<string, number>();
  if (Array.isArray(relevant)) {
    for (const id of relevant as readonly string[]) grades.set(id, 1);
    return grades;
  }
  for (const [id, grade] of Object.entries(relevant)) {
    if (typeof grade !== 'number' || !Number.isFinite(grade) || grade < 0) {
      throw new InvalidInputError(`relevance grade of "${id}" is ${String(grade)}: use a finite number ≥ 0`);
    }
    if (grade > 0) grades.set(id, grade);
  }
  return grades;
}

/** Retrieved ids with repeats removed (first occurrence kept), cut to the first `k`. */
export function topK(retrieved: readonly string[], k: number = Number.POSITIVE_INFINITY): string[] {
  const seen = new Set<string>();
  const result: string[] = [];
  for (const id of retrieved) {
    if (result.length >= k) break;
    if (seen.has(id)) continue;
    seen.add(id);
    result.push(id);
  }
  return result;
}

/**
 * Share of the relevant ids found in the top k: |relevant ∩ top-k| / |relevant|.
 *
 * @example
 * recallAtK(['a', 'b'], ['a', 'x', 'b'], 1) // 0.5
 */
export function recallAtK(relevant: Relevance, retrieved: readonly string[], k: number): number | null {
  checkK(k);
  const grades = relevanceGrades(relevant);
  if (grades.size === 0) return null;
  return countRelevant(grades, topK(retrieved, k)) / grades.size;
}

/**
 * Share of the k slots holding a relevant id: |relevant ∩ top-k| / k. Divides by k even when
 * fewer than k ids were retrieved (an empty slot is not a relevant one).
 *
 * @example
 * precisionAtK(['a'], ['a', 'x', 'y'], 3) // 1/3
 */
export function precisionAtK(relevant: Relevance, retrieved: readonly string[], k: number): number | null {
  checkK(k);
  const grades = relevanceGrades(relevant);
  if (grades.size === 0) return null;
  return countRelevant(grades, topK(retrieved, k)) / k;
}

/**
 * 1 when at least one relevant id is in the top k, else 0.
 *
 * @example
 * hitAtK(['b'], ['a', 'b'], 1) // 0
 */
export function hitAtK(relevant: Relevance, retrieved: readonly string[], k: number): number | null {
  checkK(k);
  const grades = relevanceGrades(relevant);
  if (grades.size === 0) return null;
  return countRelevant(grades, topK(retrieved, k)) > 0 ? 1 : 0;
}

/**
 * 1 / rank of the first relevant id (ranks after removing repeats), 0 when none is retrieved
 * within `k` (default: the whole list). Its mean over questions is MRR.
 *
 * @example
 * reciprocalRank(['b'], ['a', 'a', 'b']) // 0.5 (the repeated 'a' counts once)
 */
export function reciprocalRank(relevant: Relevance, retrieved: readonly string[], k: number = Number.POSITIVE_INFINITY): number | null {
  if (k !== Number.POSITIVE_INFINITY) checkK(k);
  const grades = relevanceGrades(relevant);
  if (grades.size === 0) return null;
  const ranked = topK(retrieved, k);
  const index = ranked.findIndex((id) => grades.has(id));
  return index === -1 ? 0 : 1 / (index + 1);
}

/**
 * Normalized discounted cumulative gain at k with linear gain:
 * DCG@k = Σ_{i=1..k} grade(id_i) / log2(i + 1); nDCG@k = DCG@k / IDCG@k, where IDCG@k is the DCG
 * of the relevant grades sorted from highest to lowest and cut at k.
 *
 * @example
 * ndcgAtK({ a: 2, b: 1 }, ['b', 'a'], 2) // (1 + 2/log2 3) / (2 + 1/log2 3) ≈ 0.8597
 */
export function ndcgAtK(relevant: Relevance, retrieved: readonly string[], k: number): number | null {
  checkK(k);
  const grades = relevanceGrades(relevant);
  if (grades.size === 0) return null;
  let dcg = 0;
  topK(retrieved, k).forEach((id, index) => {
    dcg += (grades.get(id) ?? 0) / Math.log2(index + 2);
  });
  const ideal = [...grades.values()].sort((a, b) => b - a).slice(0, k);
  const idcg = ideal.reduce((sum, grade, index) => sum + grade / Math.log2(index + 2), 0);
  return dcg / idcg;
}

/** Every retrieval metric for one question at each k. */
export interface RetrievalScores {
  recall: Record<number, number>;
  precision: Record<number, number>;
  hit: Record<number, number>;
  ndcg: Record<number, number>;
  /** Reciprocal rank over the whole retrieved list (mean over questions = MRR). */
  reciprocalRank: number;
}

/**
 * recall, precision, hit and nDCG at each k plus the reciprocal rank; `null` when the relevant
 * set is empty.
 *
 * @example
 * retrievalScores(['a'], ['x', 'a'], [1, 3]) // { recall: { 1: 0, 3: 1 }, …, reciprocalRank: 0.5 }
 */
export function retrievalScores(relevant: Relevance, retrieved: readonly string[], ks: readonly number[] = DEFAULT_KS): RetrievalScores | null {
  checkKs(ks);
  if (relevanceGrades(relevant).size === 0) return null;
  const scores: RetrievalScores = { recall: {}, precision: {}, hit: {}, ndcg: {}, reciprocalRank: reciprocalRank(relevant, retrieved)! };
  for (const k of ks) {
    scores.recall[k] = recallAtK(relevant, retrieved, k)!;
    scores.precision[k] = precisionAtK(relevant, retrieved, k)!;
    scores.hit[k] = hitAtK(relevant, retrieved, k)!;
    scores.ndcg[k] = ndcgAtK(relevant, retrieved, k)!;
  }
  return scores;
}

export interface RetrievalItem {
  category: string;
  relevant: Relevance;
  /** Retrieved chunk ids in rank order. */
  retrieved: readonly string[];
  /** Questions that must be refused are excluded from retrieval averages (measured by refusal rate). */
  mustRefuse?: boolean;
}

/** Means over the questions that count; every mean is `null` when `n` is 0. */
export interface RetrievalAggregate {
  /** Questions averaged. */
  n: number;
  /** Questions left out: `mustRefuse`, or an empty relevant set. */
  excluded: number;
  recall: Record<number, number | null>;
  precision: Record<number, number | null>;
  hit: Record<number, number | null>;
  ndcg: Record<number, number | null>;
  mrr: number | null;
}

export interface RetrievalReport {
  ks: number[];
  overall: RetrievalAggregate;
  /** One entry per category seen (including categories whose questions were all excluded). */
  byCategory: Record<string, RetrievalAggregate>;
}

/**
 * Overall and per-category means of the retrieval metrics. Questions with `mustRefuse` or an
 * empty relevant set are counted in `excluded`, not averaged.
 *
 * @example
 * aggregateRetrieval([
 *   { category: 'numeric', relevant: ['a'], retrieved: ['a'] },
 *   { category: 'unanswerable', relevant: [], retrieved: ['x'], mustRefuse: true },
 * ], [1]) // overall: { n: 1, excluded: 1, recall: { 1: 1 }, … }
 */
export function aggregateRetrieval(items: readonly RetrievalItem[], ks: readonly number[] = DEFAULT_KS): RetrievalReport {
  checkKs(ks);
  const overall = new Accumulator(ks);
  const byCategory = new Map<string, Accumulator>();
  for (const item of items) {
    let category = byCategory.get(item.category);
    if (!category) {
      category = new Accumulator(ks);
      byCategory.set(item.category, category);
    }
    const scores = item.mustRefuse ? null : retrievalScores(item.relevant, item.retrieved, ks);
    overall.add(scores);
    category.add(scores);
  }
  return {
    ks: [...ks],
    overall: overall.result(),
    byCategory: Object.fromEntries([...byCategory].map(([name, accumulator]) => [name, accumulator.result()])),
  };
}

class Accumulator {
  private n = 0;
  private excluded = 0;
  private readonly sums = { recall: new Map<number, number>(), precision: new Map<number, number>(), hit: new Map<number, number>(), ndcg: new Map<number, number>() };
  private reciprocalRankSum = 0;

  constructor(private readonly ks: readonly number[]) {}

  add(scores: RetrievalScores | null): void {
    if (scores === null) {
      this.excluded += 1;
      return;
    }
    this.n += 1;
    this.reciprocalRankSum += scores.reciprocalRank;
    for (const metric of ['recall', 'precision', 'hit', 'ndcg'] as const) {
      for (const k of this.ks) this.sums[metric].set(k, (this.sums[metric].get(k) ?? 0) + scores[metric][k]!);
    }
  }

  result(): RetrievalAggregate {
    const mean = (metric: 'recall' | 'precision' | 'hit' | 'ndcg') =>
      Object.fromEntries(this.ks.map((k) => [k, this.n === 0 ? null : this.sums[metric].get(k)! / this.n]));
    return {
      n: this.n,
      excluded: this.excluded,
      recall: mean('recall'),
      precision: mean('precision'),
      hit: mean('hit'),
      ndcg: mean('ndcg'),
      mrr: this.n === 0 ? null : this.reciprocalRankSum / this.n,
    };
  }
}

function countRelevant(grades: Map<string, number>, ids: readonly string[]): number {
  return ids.reduce((count, id) => count + (grades.has(id) ? 1 : 0), 0);
}

function checkK(k: number): void {
  if (!Number.isInteger(k) || k < 1) throw new InvalidInputError(`k ${String(k)} is invalid: use an integer ≥ 1`, { code: 'invalid_option' });
}

function checkKs(ks: readonly number[]): void {
  if (ks.length === 0) throw new InvalidInputError('option ks is empty: give at least one cut-off, e.g. [1, 3, 5, 8]', { code: 'invalid_option' });
  for (const k of ks) checkK(k);
}
