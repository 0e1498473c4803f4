import { InvalidInputError } from '../errors.js';
import { JUDGMENT_FLAG_NAMES, type JudgmentFlags } from './judgment.js';
import { outcomeOf, type JudgmentOutcome } from './outcome.js';

/**
 * The flags key: a judgment's flags as one canonical text, so that a store can keep them in an
 * indexed column and count judgments by it without reading each judgment's record. Equal flags
 * give equal keys (the flag names in {@link JUDGMENT_FLAG_NAMES} order, absent ones left out, as
 * JSON). A failed judgment has no flags and no key (`null`).
 *
 * Stores keep the key, never the outcome: the outcome is decided when counts are read, by
 * {@link outcomeOfFlagsKey} (the outcome table as it is now), so an outcome table changed by a
 * release re-classifies stored judgments at once instead of leaving stale outcomes in a column.
 *
 * @example
 * renderFlagsKey({ faithful: true, hallucinated: false, refused: false, undetermined: false })
 * // '{"faithful":true,"hallucinated":false,"refused":false,"undetermined":false}'
 */
export function renderFlagsKey(flags: JudgmentFlags | null): string | null {
  if (flags === null) return null;
  const ordered: Record<string, unknown> = {};
  for (const name of JUDGMENT_FLAG_NAMES) {
    const value = flags[name];
    if (value !== undefined) ordered[name] = value;
  }
  return JSON.stringify(ordered);
}

/**
 * The flags of a key written by {@link renderFlagsKey} (`null` for `null`). Flags stored before
 * judgment v2 lack the newer names, and very old ones may lack more: a key holds the names the
 * flags had, and the outcome table reads a missing one as unknown.
 *
 * @throws InvalidInputError `invalid_flags_key` when the text is not a flags key.
 */
export function parseFlagsKey(key: string | null): JudgmentFlags | null {
  if (key === null) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(key);
  } catch {
    throw invalidKey(key);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw invalidKey(key);
  const known = new Set<string>(JUDGMENT_FLAG_NAMES);
  if (Object.keys(parsed).some((name) => !known.has(name))) throw invalidKey(key);
  return parsed as JudgmentFlags;
}

/** The outcome of a stored flags key under the outcome table as it is now (`null`: `judge_error`). */
export function outcomeOfFlagsKey(key: string | null): JudgmentOutcome {
  return outcomeOf(parseFlagsKey(key));
}

function invalidKey(key: string): InvalidInputError {
  return new InvalidInputError(`not a judgment flags key: ${key.slice(0, 80)}`, { code: 'invalid_flags_key' });
}
