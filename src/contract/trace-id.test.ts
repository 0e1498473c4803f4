import { describe, expect, it } from 'vitest';
import { createTraceIdGenerator, newTraceId } from './trace-id.js';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('trace ids (UUID version 7)', () => {
  it('are version-7 UUIDs whose first 48 bits are the milliseconds', () => {
    const at = Date.UTC(2026, 11, 4, 15, 0, 0, 123);
    const id = createTraceIdGenerator(() => at)();
    expect(id).toMatch(UUID_V7);
    expect(Number.parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBe(at);
    expect(newTraceId()).toMatch(UUID_V7);
  });

  it('sort in the order they were made: across milliseconds, within one, and when the clock goes back', () => {
    const clock = [1000, 1000, 1000, 1001, 999, 999, 1002];
    let at = 0;
    const next = createTraceIdGenerator(() => clock[at++]!);
    const ids = clock.map(() => next());
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('borrows the next millisecond after 4,096 ids in one, and stays in order', () => {
    const next = createTraceIdGenerator(() => 5000);
    const ids = Array.from({ length: 6000 }, () => next());
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.every((id) => UUID_V7.test(id))).toBe(true);
  });

  it('two generators in the same millisecond give different ids (the random part)', () => {
    const a = createTraceIdGenerator(() => 7000);
    const b = createTraceIdGenerator(() => 7000);
    const fromA = new Set(Array.from({ length: 200 }, () => a()));
    expect(Array.from({ length: 200 }, () => b()).some((id) => fromA.has(id))).toBe(false);
  });
});
