import { describe, expect, it } from 'vitest';
import { falseRefusalRate, refusalRate } from './refusal.js';

describe('refusal rates', () => {
  const items = [
    { mustRefuse: true, refused: true },
    { mustRefuse: true, refused: true },
    { mustRefuse: true, refused: false },
    { mustRefuse: false, refused: true },
    { mustRefuse: false, refused: false },
    { mustRefuse: false, refused: false },
    { mustRefuse: false, refused: false },
  ];

  it('refusalRate: share of must-refuse questions refused (2 of 3)', () => {
    expect(refusalRate(items)).toEqual({ rate: 2 / 3, count: 2, n: 3 });
  });

  it('falseRefusalRate: share of answerable questions refused (1 of 4)', () => {
    expect(falseRefusalRate(items)).toEqual({ rate: 0.25, count: 1, n: 4 });
  });

  it('null rate (not 0) when there is nothing to measure', () => {
    expect(refusalRate([{ mustRefuse: false, refused: false }])).toEqual({ rate: null, count: 0, n: 0 });
    expect(falseRefusalRate([])).toEqual({ rate: null, count: 0, n: 0 });
  });
});
