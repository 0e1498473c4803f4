/**
 * Closed compounds written apart: a person types "wifi", "checkout", "payday"; a document writes
 * "Wi-Fi", "check-out", "pay day". Read by the offline answerer and the heuristic judge; retrieval's
 * term-coverage gate asks the index the same question (`splitCompound`).
 */

/**
 * The two words a closed compound is written as in this text, side by side, with a space or a
 * hyphen between them ("wifi" in "Wi-Fi", "checkout" in "late check-out"), or `null`. Parts of
 * two letters or more; words of letters only, four or more.
 *
 * @example
 * writtenApartAs('wifi', 'Facilities. Wi-Fi') // ['wi', 'fi']
 * writtenApartAs('suitcase', 'a suit and a case') // null
 */
export function writtenApartAs(word: string | undefined, text: string): [string, string] | null {
  if (word === undefined) return null;
  const lower = word.toLowerCase();
  if (lower.length < 4 || !/^[a-z]+$/.test(lower)) return null;
  for (let at = 2; at <= lower.length - 2; at++) {
    const [first, second] = [lower.slice(0, at), lower.slice(at)];
    if (new RegExp(`(?<![\\p{L}\\p{N}])${first}[\\s-]${second}(?![\\p{L}\\p{N}])`, 'iu').test(text)) return [first, second];
  }
  return null;
}

/** Whether {@link writtenApartAs} finds the compound written apart in the text. */
export function writtenApart(word: string | undefined, text: string): boolean {
  return writtenApartAs(word, text) !== null;
}
