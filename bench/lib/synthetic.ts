import { seededRng } from '../../src/metrics/random.js';
import { gaussian } from './stats.js';

export type Distribution = 'clustered' | 'uniform';

export interface SyntheticOptions {
  dimensions: number;
  /** `clustered` (default): shaped like text embeddings; `uniform`: isotropic, a pessimistic bound. */
  distribution?: Distribution;
  /** Mixture components for `clustered`. [clusters=300] */
  clusters?: number;
  seed?: number;
}

/** A deterministic stream of unit vectors: the same options give the same rows in the same order. */
export interface SyntheticSource {
  /** Write the next `target.length / dimensions` rows into `target`. */
  fill(target: Float32Array): void;
  /** `count` query vectors from the same distribution (fresh draws, not copies of stored rows). */
  queries(count: number, seed?: number): Float32Array;
}

/**
 * Synthetic vectors.
 *
 * `clustered` is meant to look like text embeddings, not to flatter any index:
 * - a mixture of Gaussians around `clusters` random centroids (topics) with Zipf-like sizes (a
 *   few big topics, a long tail), so neighbourhoods have realistic, uneven density;
 * - a shared mean direction and uneven per-dimension scales, because real embedding spaces are
 *   anisotropic (random pairs of sentence embeddings have cosine ≈ 0.1–0.3, not 0): the shared
 *   offset is what hurts sign-based (binary) quantization, so leaving it out would flatter it;
 * - within-topic spread as large as the centroid itself, so a query's neighbours crowd together
 *   (measured at 100k × 384: cosine to the nearest stored vector 0.62, to the 8th 0.60, to the
 *   100th 0.54; random pairs 0.14): many near-ties make recall@8 a real test rather than "find
 *   the obvious cluster".
 *
 * `uniform` draws points uniformly on the sphere: every pair nearly orthogonal, the worst case
 * for any approximate index (there is no structure to exploit), and unlike any real corpus.
 */
export function syntheticSource(options: SyntheticOptions): SyntheticSource {
  const dimensions = options.dimensions;
  const seed = options.seed ?? 1;
  const random = seededRng(seed);
  const normal = gaussian(random);
  if ((options.distribution ?? 'clustered') === 'uniform') {
    const draw = (target: Float32Array, noise: () => number) => {
      for (let offset = 0; offset < target.length; offset += dimensions) normalize(target.subarray(offset, offset + dimensions), noise);
    };
    return {
      fill: (target) => draw(target, normal),
      queries(count, querySeed = seed + 1000) {
        const out = new Float32Array(count * dimensions);
        draw(out, gaussian(seededRng(querySeed)));
        return out;
      },
    };
  }

  const clusters = Math.max(1, options.clusters ?? 300);
  const meanDirection = unit(Array.from({ length: dimensions }, normal));
  const scale = Array.from({ length: dimensions }, () => Math.exp(0.35 * normal())); // log-normal per-dimension spread
  const centroids = Array.from({ length: clusters }, () => unit(Array.from({ length: dimensions }, (_, d) => normal() * scale[d]!)));
  const weights = Array.from({ length: clusters }, (_, index) => 1 / (index + 1) ** 0.8);
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  let running = 0;
  const cumulative = weights.map((weight) => (running += weight) / total);
  const meanWeight = 0.6;
  const perDimension = 1 / Math.sqrt(dimensions); // noise norm ≈ the centroid's (unit) norm

  const sample = (cluster: number, target: Float32Array, noise: () => number) => {
    const centroid = centroids[cluster]!;
    let norm = 0;
    for (let d = 0; d < dimensions; d++) {
      const value = meanWeight * meanDirection[d]! + centroid[d]! + perDimension * scale[d]! * noise();
      target[d] = value;
      norm += value * value;
    }
    const inverse = 1 / Math.sqrt(norm);
    for (let d = 0; d < dimensions; d++) target[d]! *= inverse;
  };
  const pickCluster = (u: number) => {
    let low = 0;
    let high = clusters - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (cumulative[middle]! < u) low = middle + 1;
      else high = middle;
    }
    return low;
  };

  return {
    fill(target) {
      for (let offset = 0; offset < target.length; offset += dimensions) sample(pickCluster(random()), target.subarray(offset, offset + dimensions), normal);
    },
    queries(count, querySeed = seed + 1000) {
      const queryRandom = seededRng(querySeed);
      const queryNormal = gaussian(queryRandom);
      const out = new Float32Array(count * dimensions);
      // Queries follow the data's topic mix, so busy topics get asked about more, as in real use.
      for (let row = 0; row < count; row++) sample(pickCluster(queryRandom()), out.subarray(row * dimensions, (row + 1) * dimensions), queryNormal);
      return out;
    },
  };
}

function normalize(target: Float32Array, noise: () => number): void {
  let norm = 0;
  for (let d = 0; d < target.length; d++) {
    const value = noise();
    target[d] = value;
    norm += value * value;
  }
  const inverse = 1 / Math.sqrt(norm);
  for (let d = 0; d < target.length; d++) target[d]! *= inverse;
}

function unit(values: number[]): number[] {
  const norm = Math.sqrt(values.reduce((sum, value) => sum + value * value, 0)) || 1;
  return values.map((value) => value / norm);
}
