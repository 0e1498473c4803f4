/**
 * The baseline every vector index is compared with: what a tiny personal RAG does, a plain
 * JavaScript loop over every stored vector (unit-normalised, so the dot product is the cosine)
 * keeping the best k.
 */
export function linearScanTopK(data: Float32Array, dimensions: number, query: Float32Array, k: number): { row: number; similarity: number }[] {
  const rows = data.length / dimensions;
  const bestRows = new Int32Array(k).fill(-1);
  const bestScores = new Float64Array(k).fill(Number.NEGATIVE_INFINITY);
  for (let row = 0; row < rows; row++) {
    let score = 0;
    const offset = row * dimensions;
    for (let d = 0; d < dimensions; d++) score += data[offset + d]! * query[d]!;
    if (score <= bestScores[k - 1]!) continue;
    let position = k - 1;
    while (position > 0 && bestScores[position - 1]! < score) {
      bestScores[position] = bestScores[position - 1]!;
      bestRows[position] = bestRows[position - 1]!;
      position--;
    }
    bestScores[position] = score;
    bestRows[position] = row;
  }
  const result: { row: number; similarity: number }[] = [];
  for (let index = 0; index < k; index++) if (bestRows[index]! >= 0) result.push({ row: bestRows[index]!, similarity: bestScores[index]! });
  return result;
}

/** |found ∩ truth| / |truth|. */
export function overlapRecall(found: readonly number[], truth: readonly number[]): number {
  if (truth.length === 0) return 1;
  const set = new Set(found);
  return truth.filter((item) => set.has(item)).length / truth.length;
}
