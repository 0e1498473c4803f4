import { BenchUsageError } from './args.js';

/** One training example: its features and whether it is of the positive class. */
export interface LogisticExample {
  features: readonly number[];
  positive: boolean;
}

/** A fitted model: per feature the training mean and standard deviation, the weight on the standardised feature, and the bias. */
export interface LogisticFit {
  mean: number[];
  scale: number[];
  weights: number[];
  bias: number;
}

/**
 * Class-balanced logistic regression with an L2 penalty, by plain gradient descent (3,000 steps,
 * rate 0.5) on standardised features: each class weighs half of the loss, so a rare positive
 * class is not ignored. Deterministic (starts at zero). Figures rounded to 4 decimals, as they are
 * pasted into code.
 */
export function fitLogistic(data: readonly LogisticExample[], l2: number): LogisticFit {
  const positives = data.filter((example) => example.positive).length;
  const negatives = data.length - positives;
  if (positives === 0 || negatives === 0) throw new BenchUsageError(`fitting needs examples of both classes (${positives} positive, ${negatives} negative)`);
  const n = data[0]!.features.length;
  const mean = Array<number>(n).fill(0);
  const scale = Array<number>(n).fill(0);
  for (const example of data) example.features.forEach((value, i) => (mean[i]! += value / data.length));
  for (const example of data) example.features.forEach((value, i) => (scale[i]! += (value - mean[i]!) ** 2 / data.length));
  for (let i = 0; i < n; i++) scale[i] = Math.sqrt(scale[i]!) || 1;
  const z = data.map((example) => example.features.map((value, i) => (value - mean[i]!) / scale[i]!));
  const weights = Array<number>(n).fill(0);
  let bias = 0;
  for (let step = 0; step < 3000; step++) {
    const gradient = Array<number>(n).fill(0);
    let gradientBias = 0;
    z.forEach((row, k) => {
      const p = 1 / (1 + Math.exp(-(bias + row.reduce((sum, value, i) => sum + value * weights[i]!, 0))));
      const g = (p - (data[k]!.positive ? 1 : 0)) * (data[k]!.positive ? 0.5 / positives : 0.5 / negatives);
      gradientBias += g;
      row.forEach((value, i) => (gradient[i]! += g * value));
    });
    for (let i = 0; i < n; i++) weights[i]! -= 0.5 * (gradient[i]! + (l2 / data.length) * weights[i]!);
    bias -= 0.5 * gradientBias;
  }
  const rounded = (values: number[]) => values.map((value) => Number(value.toFixed(4)));
  return { mean: rounded(mean), scale: rounded(scale), weights: rounded(weights), bias: Number(bias.toFixed(4)) };
}
