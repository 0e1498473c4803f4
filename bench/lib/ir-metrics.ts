/** Graded relevance judgments of one query: document id → grade (> 0 is relevant). */
export type Judgments = ReadonlyMap<string, number>;

/**
 * nDCG@k with the standard (trec_eval / BEIR) gain: DCG = Σ grade / log2(rank + 1), normalised by
 * the DCG of the ideal ordering of the judged documents.
 */
export function ndcgAt(ranked: readonly string[], judgments: Judgments, k: number): number {
  let dcg = 0;
  ranked.slice(0, k).forEach((id, index) => {
    const grade = judgments.get(id) ?? 0;
    if (grade > 0) dcg += grade / Math.log2(index + 2);
  });
  const ideal = [...judgments.values()].filter((grade) => grade > 0).sort((a, b) => b - a).slice(0, k);
  const idcg = ideal.reduce((sum, grade, index) => sum + grade / Math.log2(index + 2), 0);
  return idcg === 0 ? 0 : dcg / idcg;
}

/** Fraction of the relevant documents found in the first k. */
export function recallAt(ranked: readonly string[], judgments: Judgments, k: number): number {
  const relevant = [...judgments.entries()].filter(([, grade]) => grade > 0).map(([id]) => id);
  if (relevant.length === 0) return 0;
  const top = new Set(ranked.slice(0, k));
  return relevant.filter((id) => top.has(id)).length / relevant.length;
}
