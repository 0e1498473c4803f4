/**
 * The check that an LLM judge's quote is really in the passage it cites: a verdict resting on words
 * the passage does not contain cannot be trusted, so such a reply is retried, then becomes a judge
 * error (METHODOLOGY.md, "The LLM judge").
 */

/** Quotes shorter than this (after normalizing) say nothing checkable. */
const MIN_QUOTE_CHARS = 3;

/** Case, curly quotes, dashes, white space (zero-width included) and the passage's Markdown marks do not count. */
function normalize(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\u2018\u2019\u201b\u2032]/g, "'")
    .replace(/[\u201c\u201d\u201f\u2033]/g, '"')
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    .replace(/[\u200b-\u200d\u2060\ufeff]/g, '')
    .replace(/\*\*|__|`/g, '')
    .replace(/\s*\|\s*/g, ' | ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Whether `quote` is copied from `passage`: each part of it (parts joined by "…" or "...") occurs in
 * the passage, in order, once case, quote marks, dashes and white space are normalized; the outer
 * quote marks and final punctuation of a part do not count.
 *
 * @example
 * quoteInPassage('Loans last 3 weeks', 'Members may borrow 12 books. Loans last 3 weeks.') // true
 * quoteInPassage('Loans last 4 weeks', 'Members may borrow 12 books. Loans last 3 weeks.') // false
 */
export function quoteInPassage(quote: string, passage: string): boolean {
  const text = normalize(passage);
  const parts = normalize(quote)
    .split(/\s*(?:…|\.\.\.)\s*/)
    .map((part) => part.replace(/^["'\s]+|["'\s.,;:!?]+$/g, ''))
    .filter((part) => part !== '');
  if (parts.length === 0 || parts.join('').length < MIN_QUOTE_CHARS) return false;
  let from = 0;
  for (const part of parts) {
    const at = text.indexOf(part, from);
    if (at === -1) return false;
    from = at + part.length;
  }
  return true;
}
