import { createHash } from 'node:crypto';

/**
 * Content hash of a chunk text: sha256, hex, first 20 characters. The index stores it for every
 * chunk, traces and captures carry it, and drift checks compare it: one definition for all.
 *
 * @example
 * textHash('Probation lasts 6 months.') // 20 hex characters
 */
export function textHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 20);
}
