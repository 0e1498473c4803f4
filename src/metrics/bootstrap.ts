import { InvalidInputError } from '../errors.js';
import { seededRng } from './random.js';

export interface BootstrapOptions {
  /** Seed of the resampling RNG; the same seed and values give the same interval. [seed=1] */
  seed?: number;
  /** Number of bootstrap resamples. [resamples=2000] */
  resamples?: number;
  /** Coverage of the interval. [level=0.95] */
  level?: number;
}

export interface ConfidenceInterval {
  lower: number;
  upper: number;
  level: number;
  resamples: number;
  seed: number;
  method: 'percentile-bootstrap';
}

/**
 * Percentile bootstrap interval for the mean of `values`: draw `resamples` samples of the same
 * size with replacement (seeded), take each sample's mean, and return the (1−level)/2 and
 * (1+level)/2 quantiles of those means (linear interpolation between order statistics).
 * `null` for an empty list: there is no mean to bound.
 *
 * @example
 * bootstrapMeanCi([1, 0.5, 0, 1], { seed: 7 }) // { lower: 0.25, upper: 1, level: 0.95, … }
 */
export function bootstrapMeanCi(values: readonly number[], options: BootstrapOptions = {}): ConfidenceInterval | null {
  const { seed, resamples, level } = normalizeBootstrapOptions(options);
  if (values.length === 0) return null;
  for (const value of values) {
    if (!Number.isFinite(value)) throw new InvalidInputError(`bootstrap values must be finite numbers; got ${String(value)}`);
  }
  const rng = seededRng(seed);
  const count = values.length;
  const means = new Float64Array(resamples);
  for (let resample = 0; resample < resamples; resample++) {
    let sum = 0;
    for (let draw = 0; draw < count; draw++) sum += values[Math.floor(rng() * count)]!;
    means[resample] = sum / count;
  }
  means.sort();
  return {
    lower: quantile(means, (1 - level) / 2),
    upper: quantile(means, (1 + level) / 2),
    level,
    resamples,
    seed,
    method: 'percentile-bootstrap',
  };
}

/** Quantile of sorted values with linear interpolation (Hyndman & Fan type 7, R's default). */
export function quantile(sorted: ArrayLike<number>, probability: number): number {
  if (sorted.length === 0) throw new InvalidInputError('quantile of an empty list');
  const position = (sorted.length - 1) * probability;
  const below = Math.floor(position);
  const above = Math.ceil(position);
  const low = sorted[below]!;
  return low + (sorted[above]! - low) * (position - below);
}

function normalizeBootstrapOptions(options: BootstrapOptions): { seed: number; resamples: number; level: number } {
  const seed = options.seed ?? 1;
  const resamples = options.resamples ?? 2000;
  const level = options.level ?? 0.95;
  if (!Number.isFinite(seed)) throw new InvalidInputError(`option seed ${String(seed)} is invalid: use a finite number`, { code: 'invalid_option' });
  if (!Number.isInteger(resamples) || resamples < 1 || resamples > 1_000_000) {
    throw new InvalidInputError(`option resamples ${String(resamples)} is invalid: use an integer from 1 to 1000000`, { code: 'invalid_option' });
  }
  if (!(level > 0 && level < 1)) throw new InvalidInputError(`option level ${String(level)} is invalid: use a number between 0 and 1`, { code: 'invalid_option' });
  return { seed, resamples, level };
}
