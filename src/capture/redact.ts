import { createHmac, randomBytes } from 'node:crypto';
import { InvalidInputError } from '../errors.js';
import { HashKeyedCache } from './hash-cache.js';
import { NATIONAL_INSURANCE_SPACES, NUMBER_SEPARATORS, numberRuns } from './number-runs.js';
import { renderRedactionPlaceholder, REDACTION_TOKEN_LENGTH, type RedactionKind } from '../contract/redaction.js';
import type { Capture } from './types.js';

/**
 * Redaction that keeps judging honest: each masked value becomes a keyed placeholder such as
 * `[email:3fa2c1d9]`. The same value gives the same token and a different value a different one,
 * so an answer that gives the wrong e-mail address or phone number still disagrees with its
 * evidence after redaction; the token is an HMAC under a key kept per store, so it reveals nothing
 * of the value (METHODOLOGY.md, "Live judging").
 */

export type { RedactionKind } from '../contract/redaction.js';

/** The plain marks of the first release, kept for readers that look for them. */
export const REDACTION_MARKS = { email: '[email]', phone: '[phone]', number: '[number]' } as const;

/** Digits, full-width ones included. */
const D = '[0-9\\uff10-\\uff19]';
/** A regex character class of exactly these characters (those special inside a class escaped). */
function characterClass(characters: string): string {
  return `[${characters.replace(/[\\\]^-]/g, '\\$&')}]`;
}
/** What may separate digit groups (`NUMBER_SEPARATORS`: spaces of every width, dots, dashes, slashes, underscores, commas), as a character class. */
const SEP = characterClass(NUMBER_SEPARATORS);
const EMAIL = /[\p{L}\p{N}._%+\-]+[@\uff20](?:[\p{L}\p{N}\-]+[.\uff0e\u3002])+[\p{L}\p{N}\-]*\p{L}[\p{L}\p{N}\-]*/gu;
/**
 * UK National Insurance number: two letters, six digits (often in pairs), one letter A–D. Any two
 * letters, not only the prefixes HMRC issues: the example prefix "QQ" and typos are masked too.
 */
const NI_SPACE = characterClass(NATIONAL_INSURANCE_SPACES);
const NATIONAL_INSURANCE = new RegExp(`(?<![\\p{L}\\p{N}])[A-Z]{2}(?:${NI_SPACE}?[0-9]{2}){3}${NI_SPACE}?[A-D](?![\\p{L}\\p{N}])`, 'giu');
/** 13 to 19 digits, possibly grouped by any separator (cards). */
const CARD = new RegExp(`(?<![0-9\\uff10-\\uff19])(?:${D}${SEP}{0,2}){12,18}${D}(?![0-9\\uff10-\\uff19])`, 'gu');
/** Digit groups with an optional +country code and (area) code: "020 7946 0400", "+44 (0)20 7946 0958", "0161/496 0000". */
const PHONE = new RegExp(
  `(?<![\\p{L}\\p{N}+])(?:[+\\uff0b]${D}{1,3}${SEP}{0,2})?(?:\\(${D}{1,5}\\)${SEP}{0,2})?${D}{2,6}(?:${SEP}{1,2}${D}{1,6}){1,5}(?![\\p{L}\\p{N}])`,
  'gu',
);
const ISO_DATE = /\b\d{4}-\d{2}-\d{2}\b/;
/** A UUID: 8-4-4-4-12 hex digits (36 characters). */
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const UUID_LENGTH = 36;

/**
 * Whether a number match lies inside a UUID (a request or trace id): its digit runs
 * ("…-a070-475086724366") are no card, phone or account number, and masking them broke the ids
 * that correlate log lines. Asked only of matches, which ordinary texts rarely have, so a text
 * without one pays nothing for it.
 */
function insideUuid(text: string, offset: number, length: number): boolean {
  const start = Math.max(0, offset - UUID_LENGTH);
  const window = text.slice(start, offset + length + UUID_LENGTH);
  for (const found of window.matchAll(UUID)) {
    const from = start + found.index;
    if (from <= offset && offset + length <= from + UUID_LENGTH) return true;
  }
  return false;
}
const LONG_DIGITS = new RegExp(`${D}{9,}`, 'gu');
/** Numbers with fewer digits than this are kept (prices, years, short codes). */
const MIN_PHONE_DIGITS = 9;
const MIN_CARD_DIGITS = 13;

/** Full-width characters to ASCII, so a value written either way gets one token. */
function halfWidth(text: string): string {
  return text.normalize('NFKC');
}

function digitsOf(text: string): string {
  return halfWidth(text).replace(/\D/g, '');
}

/** A redactor: masks personal data with keyed placeholders. */
export interface Redactor {
  /**
   * Mask e-mail addresses (IDN and full-width `＠` included), UK National Insurance numbers, card
   * numbers (13–19 digits, any separators), phone-like numbers (9+ digits in groups) and long digit
   * runs. ISO dates and short numbers are kept.
   */
  redactText(text: string): string;
  /** {@link Redactor.redactText} over a capture's query, answer and every chunk text (hashes kept). */
  redactCapture(capture: Capture): Capture;
  /** The token for a value of a kind (what `redactText` writes for it). */
  placeholder(kind: RedactionKind, value: string): string;
}

/**
 * A redactor keyed by `key` (at least 16 bytes or characters): give every store its own key, and
 * keep it with the store, so tokens are stable across restarts and mean nothing elsewhere.
 *
 * @example
 * const redactor = createRedactor({ key: store.redactionKey });
 * redactor.redactText('mail jo@example.com') // 'mail [email:1b6f0c2e]'
 */
export function createRedactor(options: { key: string | Uint8Array }): Redactor {
  const key = options?.key;
  const length = typeof key === 'string' ? key.length : key instanceof Uint8Array ? key.byteLength : 0;
  if (length < 16) throw new InvalidInputError('option redaction key is invalid: use a secret of at least 16 characters or bytes, kept per store', { code: 'invalid_option' });
  const normalize: Record<RedactionKind, (value: string) => string> = {
    email: (value) => halfWidth(value).toLowerCase(),
    ni: (value) => halfWidth(value).toUpperCase().replace(/[^A-Z0-9]/g, ''),
    card: digitsOf,
    phone: digitsOf,
    number: digitsOf,
  };
  const placeholder = (kind: RedactionKind, value: string) =>
    renderRedactionPlaceholder(kind, createHmac('sha256', key).update(`${kind}\u0000${normalize[kind](value)}`).digest('hex').slice(0, REDACTION_TOKEN_LENGTH));
  const cache = new ChunkCache();

  function redactText(text: string): string {
    // Cheap checks first, with the same result: an address needs an "@", and the number patterns
    // mask only matches of 9+ digits (NI numbers have 6 and two letters around them).
    let redacted = text.includes('@') || text.includes('\uff20') ? text.replace(EMAIL, (match) => placeholder('email', match)) : text;
    // Each number pattern runs only where a run of digits and separators is long enough for a
    // match it would mask (numberRuns): dates and prices alone never are.
    let runs = numberRuns(redacted);
    if (runs.digits < 6) return redacted;
    if (runs.mostSpacedAsciiDigits >= 6) {
      const beforeNi = redacted;
      redacted = redacted.replace(NATIONAL_INSURANCE, (match) => placeholder('ni', match));
      // Read again only when a number was masked (a placeholder's hex digits count too).
      if (redacted !== beforeNi) runs = numberRuns(redacted);
    }
    if (runs.mostGroupedDigits < MIN_PHONE_DIGITS) return redacted;
    // A card match has 13+ digits in one run: a text without such a run cannot hold one.
    if (runs.mostGroupedDigits >= MIN_CARD_DIGITS) {
      redacted = redacted.replace(CARD, (match, offset: number, whole: string) =>
        digitsOf(match).length >= MIN_CARD_DIGITS && !ISO_DATE.test(match) && hasGroupsOrRun(match) && !insideUuid(whole, offset, match.length) ? placeholder('card', match) : match,
      );
    }
    redacted = redacted.replace(PHONE, (match, offset: number, whole: string) =>
      digitsOf(match).length < MIN_PHONE_DIGITS || ISO_DATE.test(match) || insideUuid(whole, offset, match.length) ? match : placeholder('phone', match),
    );
    return redacted.replace(LONG_DIGITS, (match, offset: number, whole: string) => (insideUuid(whole, offset, match.length) ? match : placeholder('number', match)));
  }

  // A chunk with nothing to mask (the common case) is passed on as it is: no copy per chunk per capture.
  const redactChunks = (chunks: Capture['chunks']): Capture['chunks'] =>
    chunks.map((chunk) => {
      const text = cache.get(chunk.text, chunk.hash, redactText);
      return text === chunk.text ? chunk : { ...chunk, text };
    });

  return {
    redactText,
    placeholder,
    redactCapture(capture: Capture): Capture {
      return {
        ...capture,
        query: redactText(capture.query),
        answer: redactText(capture.answer),
        chunks: redactChunks(capture.chunks),
        ...(capture.withheldChunks !== undefined ? { withheldChunks: redactChunks(capture.withheldChunks) } : {}),
      };
    },
  };
}

/** A card number is one run of digits or groups of them; "1, 2, 3, …" lists are not. */
function hasGroupsOrRun(match: string): boolean {
  const groups = halfWidth(match).split(/[^0-9]+/).filter((group) => group !== '');
  return groups.length <= 5 && groups.every((group) => group.length >= 3);
}

/** The key of the default redactor: random per process (tokens are stable within it only). Pass a store's key for stable tokens. */
let processRedactor: Redactor | null = null;
function defaultRedactor(): Redactor {
  processRedactor ??= createRedactor({ key: randomBytes(32) });
  return processRedactor;
}

/**
 * {@link Redactor.redactText} with the process's default key (random per process). Captures are
 * redacted with the store's key by `captureRag`; use this for one-off text.
 *
 * @example
 * redactText('mail jo@example.com or call 020 7946 0400'); // 'mail [email:…] or call [phone:…]'
 */
export function redactText(text: string): string {
  return defaultRedactor().redactText(text);
}

/**
 * The default `redact` of `captureRag` when no key is configured: {@link redactText} over the query,
 * the answer and every chunk's text. Chunk hashes are kept as computed from the original text, so
 * drift checks still compare with the index.
 */
export function redactPersonalData(capture: Capture): Capture {
  return defaultRedactor().redactCapture(capture);
}

/**
 * Redacted chunk texts, by the chunk's content hash. The same passages come back request after
 * request, and running the patterns over every chunk was the largest cost of a capture
 * (bench:middleware). Keyed by the short hash rather than the text, because each request reads
 * its chunks anew and hashing every long text for a map lookup cost ~10 µs per capture; the
 * stored original is compared with the text, so a wrong or reused hash only costs a miss, never
 * a wrong result. Bounded by total size and emptied when full; one cache per redactor (per key).
 */
class ChunkCache {
  private readonly entries = new HashKeyedCache<{ original: string; redacted: string }>(4_000_000, (entry) => entry.original.length);

  get(text: string, hash: string, redact: (text: string) => string): string {
    const known = this.entries.find(hash, (entry) => entry.original === text);
    if (known !== undefined) return known.redacted;
    const redacted = redact(text);
    this.entries.remember(hash, { original: text, redacted });
    return redacted;
  }
}
