import { describe, expect, it } from 'vitest';
import { fitLogistic, type LogisticExample } from '../bench/lib/logistic.js';
import { paraphraseProbability } from '../src/judge/heuristic-paraphrase.js';

// A deterministic spread: feature 0 separates the classes, feature 1 is noise.
function data(positives: number, negatives: number): LogisticExample[] {
  const out: LogisticExample[] = [];
  for (let i = 0; i < positives; i++) out.push({ features: [2 + (i % 5) * 0.3, (i * 7) % 3], positive: true });
  for (let i = 0; i < negatives; i++) out.push({ features: [-2 + (i % 5) * 0.3, (i * 5) % 3], positive: false });
  return out;
}

describe('fitLogistic (bench:paraphrase)', () => {
  it('weighs the separating feature, not the noise, and scores the classes apart', () => {
    const fit = fitLogistic(data(20, 200), 1);
    expect(fit.weights[0]).toBeGreaterThan(1);
    expect(Math.abs(fit.weights[1]!)).toBeLessThan(Math.abs(fit.weights[0]!) / 5);
    const model = { ...fit, features: ['a', 'b'], threshold: 0.5 };
    expect(paraphraseProbability(model, [2.5, 1])).toBeGreaterThan(0.9);
    expect(paraphraseProbability(model, [-1.5, 1])).toBeLessThan(0.1);
  });

  it('balances the classes: a rare positive class still gets a probability above one half at its mean', () => {
    const fit = fitLogistic(data(5, 500), 1);
    expect(paraphraseProbability({ ...fit, features: ['a', 'b'], threshold: 0.5 }, [2.6, 1])).toBeGreaterThan(0.5);
  });

  it('refuses data of one class', () => {
    expect(() => fitLogistic(data(10, 0), 1)).toThrow(/both classes/);
  });
});
