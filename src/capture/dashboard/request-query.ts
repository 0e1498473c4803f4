import type { Request } from 'express';
import { MAX_OUTCOME_BUCKETS, OUTCOME_BUCKET_MS } from '../capture-store.js';
import { HttpError } from '../errors.js';

/**
 * The dashboard APIs' query parameters, read once per request: a bad one is a 400
 * `request.invalid` naming it.
 */

/** Captures per page the list sends, by default and at most. */
export const DEFAULT_PAGE = 50;
export const MAX_SHOWN_PAGE = 200;
/** Ranges up to this long are counted per hour; longer ones per day, up to {@link MAX_OUTCOME_BUCKETS} days, then as one bucket. */
export const HOURLY_UP_TO_MS = 2 * OUTCOME_BUCKET_MS.day;
/** The range when none is asked for: the last 24 hours, to the next full hour. */
export const DEFAULT_RANGE_MS = OUTCOME_BUCKET_MS.day;

function invalid(name: string, expected: string): HttpError {
  return new HttpError(400, 'request.invalid', `query parameter ${name} is invalid: ${expected}`);
}

/** A string parameter (`undefined` when absent or empty), at most `maxLength` characters. */
export function stringParam(req: Request, name: string, maxLength = 200): string | undefined {
  const value = req.query[name];
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string') throw invalid(name, 'give it once, as text');
  if (value.length > maxLength) throw invalid(name, `at most ${maxLength} characters`);
  return value;
}

/** A whole-number parameter within bounds, or `undefined` when absent. */
export function integerParam(req: Request, name: string, min: number, max: number): number | undefined {
  const text = stringParam(req, name, 20);
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!/^-?\d+$/.test(text) || !Number.isSafeInteger(value) || value < min || value > max) throw invalid(name, `use a whole number from ${min} to ${max}`);
  return value;
}

/** `from` and `to` (ms since epoch) as the list's time filter: each optional. */
export function listRange(req: Request): { from?: number; to?: number } {
  const from = integerParam(req, 'from', 0, Number.MAX_SAFE_INTEGER);
  const to = integerParam(req, 'to', 0, Number.MAX_SAFE_INTEGER);
  if (from !== undefined && to !== undefined && to <= from) throw invalid('to', 'it must be after from');
  return { ...(from !== undefined ? { from } : {}), ...(to !== undefined ? { to } : {}) };
}

/**
 * The rates' range and bucket: `from` and `to` (ms since epoch; default the last 24 hours to the
 * next full hour, `from=0` for all time). Per hour up to two days, per day up to 1,000 days,
 * else one bucket.
 */
export function ratesRange(req: Request, now: number): { from: number; to: number; bucket: 'hour' | 'day' | null } {
  const asked = listRange(req);
  const to = asked.to ?? Math.ceil((now + 1) / OUTCOME_BUCKET_MS.hour) * OUTCOME_BUCKET_MS.hour;
  const from = asked.from ?? to - DEFAULT_RANGE_MS;
  if (to <= from) throw invalid('from', 'it must be before to');
  const span = to - from;
  const bucket = span <= HOURLY_UP_TO_MS ? 'hour' : span <= MAX_OUTCOME_BUCKETS * OUTCOME_BUCKET_MS.day ? 'day' : null;
  return { from, to, bucket };
}
