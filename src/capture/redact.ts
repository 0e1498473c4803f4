import type { Capture } from './types.js';

/** What replaces each kind of masked text. */
export const REDACTION_MARKS = { email: '[email]', phone: '[phone]', number: '[number]' } as const;

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+/g;
// Digit groups joined by single spaces, dots or dashes, optionally with a +country code and an
// (area) code: "020 7946 0400", "+44 (0)20 7946 0958", "4111-1111-1111-1111".
const PHONE_LIKE = /(?<![\w+])(?:\+\d{1,3}[ .-]?)?(?:\(\d{1,5}\)[ .-]?)?\d{2,6}(?:[ .-]\d{1,6}){1,5}(?![\w])/g;
const ISO_DATE = /\b\d{4}-\d{2}-\d{2}\b/;
const LONG_DIGITS = /\d{9,}/g;
/** Phone-like matches with fewer digits than this are kept (prices, years, short codes). */
const MIN_PHONE_DIGITS = 9;

/**
 * Mask e-mail addresses, phone-like numbers (9+ digits in groups) and long digit runs (9+ digits:
 * account, card or ID numbers). ISO dates and short numbers are kept.
 *
 * @example
 * redactText('mail jo@example.com or call 020 7946 0400'); // 'mail [email] or call [phone]'
 */
export function redactText(text: string): string {
  // Cheap checks first, with the same result: an address needs an "@", and both number patterns
  // mask only matches of 9+ digits, so a text with fewer digits in all is left as it is.
  let redacted = text.includes('@') ? text.replace(EMAIL, REDACTION_MARKS.email) : text;
  if (countDigits(redacted) < MIN_PHONE_DIGITS) return redacted;
  redacted = redacted.replace(PHONE_LIKE, (match) => {
    const digits = match.replace(/\D/g, '').length;
    if (digits < MIN_PHONE_DIGITS || ISO_DATE.test(match)) return match;
    return REDACTION_MARKS.phone;
  });
  return redacted.replace(LONG_DIGITS, REDACTION_MARKS.number);
}

function countDigits(text: string): number {
  let digits = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code >= 48 && code <= 57) digits += 1;
  }
  return digits;
}

/**
 * The default `redact` of `captureRag`: {@link redactText} applied to the query, the answer and
 * every chunk's text. Chunk hashes are kept as computed from the original text, so drift checks
 * still compare with the index.
 */
export function redactPersonalData(capture: Capture): Capture {
  return {
    ...capture,
    query: redactText(capture.query),
    answer: redactText(capture.answer),
    chunks: capture.chunks.map((chunk) => ({ ...chunk, text: redactChunkText(chunk.text, chunk.hash) })),
  };
}

/**
 * Redacted chunk texts, by the chunk's content hash. The same passages come back request after
 * request, and running the patterns over every chunk was the largest cost of a capture
 * (bench:middleware). Keyed by the short hash rather than the text, because each request reads
 * its chunks anew and hashing every long text for a map lookup cost ~10 µs per capture; the
 * stored original is compared with the text, so a wrong or reused hash only costs a miss, never
 * a wrong result. Bounded by total size and emptied when full.
 */
const redactedChunks = new Map<string, { original: string; redacted: string }>();
const MAX_REMEMBERED_CHARS = 4_000_000;
let rememberedChars = 0;

function redactChunkText(text: string, hash: string): string {
  const known = redactedChunks.get(hash);
  if (known !== undefined && known.original === text) return known.redacted;
  const redacted = redactText(text);
  if (known !== undefined) {
    redactedChunks.delete(hash);
    rememberedChars -= known.original.length;
  }
  if (rememberedChars + text.length > MAX_REMEMBERED_CHARS) {
    redactedChunks.clear();
    rememberedChars = 0;
  }
  if (text.length <= MAX_REMEMBERED_CHARS) {
    redactedChunks.set(hash, { original: text, redacted });
    rememberedChars += text.length;
  }
  return redacted;
}
