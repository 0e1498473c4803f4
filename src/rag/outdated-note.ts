import { extractCitations } from '../contract/formats.js';
import { OUTDATED_NOTE } from '../contract/notes.js';
import type { RetrievedChunk } from '../contract/trace.js';
import { InvalidInputError } from '../errors.js';

export interface OutdatedNoteOptions {
  /** A cited document last updated more than this many months before now gets the note. [maxAgeMonths=6] */
  maxAgeMonths?: number;
  /** The note's wording. [text=OUTDATED_NOTE] */
  text?: string;
}

/** Validated settings of the outdated-document note. */
export function outdatedNoteSettings(options: OutdatedNoteOptions = {}): { maxAgeMonths: number; text: string } {
  const maxAgeMonths = options.maxAgeMonths ?? 6;
  if (!Number.isInteger(maxAgeMonths) || maxAgeMonths < 0 || maxAgeMonths > 1200) {
    throw new InvalidInputError(`option outdatedNote.maxAgeMonths ${String(maxAgeMonths)} is invalid: use a whole number of months from 0 to 1200`, { code: 'invalid_option' });
  }
  const text = (options.text ?? OUTDATED_NOTE).replace(/\s+/g, ' ').trim();
  if (text === '') throw new InvalidInputError('option outdatedNote.text is empty', { code: 'invalid_option' });
  return { maxAgeMonths, text };
}

/**
 * The chunks an answer cites (its `(Title, updated date)` citations, read with the contract's
 * `extractCitations`, matched to the trace's chunks by title and date) whose document was last
 * updated more than `maxAgeMonths` before `now`. The date is the chunk's `updated` field, never
 * text read back from the answer; a chunk with no date is not judged old.
 */
export function outdatedCitedChunks(answer: string, chunks: readonly RetrievedChunk[], now: Date, maxAgeMonths: number): RetrievedChunk[] {
  const cutoff = new Date(now.getTime());
  cutoff.setUTCMonth(cutoff.getUTCMonth() - maxAgeMonths);
  const cited = extractCitations(answer).citations;
  return chunks.filter((chunk) => {
    if (chunk.updated === null) return false;
    const isCited = cited.some((citation) => citation.title === chunk.title && (citation.updated === null || citation.updated === chunk.updated));
    const updated = Date.parse(`${chunk.updated}T00:00:00Z`);
    return isCited && Number.isFinite(updated) && updated < cutoff.getTime();
  });
}
