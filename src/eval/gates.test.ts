import { describe, expect, it } from 'vitest';
import { evaluateGates, mergeGates, parseGateConfig, parseGateExpression } from './gates.js';

describe('gates', () => {
  it.each([
    ['hallucinationRate<=0.08', { metric: 'hallucinationRate', op: '<=', threshold: 0.08 }],
    ['recall@5 >= 0.8', { metric: 'recall@5', op: '>=', threshold: 0.8 }],
    ['judgeErrorRate<=0', { metric: 'judgeErrorRate', op: '<=', threshold: 0 }],
  ])('parses %s', (expression, gate) => {
    expect(parseGateExpression(expression)).toEqual(gate);
  });

  it.each([
    ['recall@5>0.8', /--gate "recall@5>0.8" is invalid/],
    ['recal@5>=0.8', /unknown metric "recal@5"/],
    ['recall@5>=high', /is invalid/],
  ])('rejects %s', (expression, message) => {
    expect(() => parseGateExpression(expression)).toThrow(message);
  });

  it('parses config objects with max/min and expression strings, naming the file on errors', () => {
    expect(parseGateConfig({ hallucinationRate: { max: 0.08 }, 'recall@5': '>= 0.8', mrr: { min: 0.5, max: 1 } }, 'suite.json')).toEqual([
      { metric: 'hallucinationRate', op: '<=', threshold: 0.08 },
      { metric: 'recall@5', op: '>=', threshold: 0.8 },
      { metric: 'mrr', op: '<=', threshold: 1 },
      { metric: 'mrr', op: '>=', threshold: 0.5 },
    ]);
    expect(parseGateConfig(undefined, 'x')).toEqual([]);
    expect(() => parseGateConfig({ hallucinationRate: { below: 1 } }, 'suite.json')).toThrow('suite.json: gates.hallucinationRate must have "max" and/or "min" (found below)');
    expect(() => parseGateConfig({ hallucinationRate: { max: '0.1' } }, 'suite.json')).toThrow('suite.json: gates.hallucinationRate.max must be a number');
    expect(() => parseGateConfig([1], 'suite.json')).toThrow(/gates must be an object/);
  });

  it('later lists override earlier ones on the same metric and direction', () => {
    expect(
      mergeGates([{ metric: 'mrr', op: '>=', threshold: 0.5 }, { metric: 'mrr', op: '<=', threshold: 1 }], [{ metric: 'mrr', op: '>=', threshold: 0.7 }]),
    ).toEqual([
      { metric: 'mrr', op: '>=', threshold: 0.7 },
      { metric: 'mrr', op: '<=', threshold: 1 },
    ]);
  });

  it('passes on the boundary, fails beyond it, and fails a metric that was not measured', () => {
    const gates = [
      { metric: 'hallucinationRate', op: '<=' as const, threshold: 0.08 },
      { metric: 'recall@5', op: '>=' as const, threshold: 0.8 },
      { metric: 'refusalRate', op: '>=' as const, threshold: 0.9 },
      { metric: 'pairwiseWinRate', op: '>=' as const, threshold: 0.5 },
    ];
    expect(evaluateGates(gates, { hallucinationRate: 0.08, 'recall@5': 0.75, refusalRate: null, pairwiseWinRate: Number.NaN })).toEqual([
      { ...gates[0], actual: 0.08, passed: true, message: 'hallucinationRate 0.080 <= 0.08 (max)' },
      { ...gates[1], actual: 0.75, passed: false, message: 'recall@5 0.750 < 0.8 (min)' },
      { ...gates[2], actual: null, passed: false, message: 'refusalRate was not measured (no data), min 0.9' },
      { ...gates[3], actual: null, passed: false, message: 'pairwiseWinRate was not measured (no data), min 0.5' },
    ]);
  });

  it('gates can name the judgment-v2 measures', () => {
    expect(parseGateExpression('correctAnswerRate>=0.8')).toEqual({ metric: 'correctAnswerRate', op: '>=', threshold: 0.8 });
    expect(parseGateConfig({ overRefusalRate: { max: 0.05 }, shouldHaveRefusedRate: '<= 0.05', referenceRecall: { min: 0.6 } }, 'suite.json').map((gate) => gate.metric)).toEqual([
      'overRefusalRate',
      'shouldHaveRefusedRate',
      'referenceRecall',
    ]);
  });
});
