import { InvalidInputError } from '../errors.js';
import { parseChunkText } from './formats.js';
import type { RetrievedChunk } from './trace.js';

/**
 * A passage a judge may use as evidence. `text` is exactly what the generator saw; `title`,
 * `section` and `updated` travel as fields beside it, so no reader has to recover them from the
 * text. Passages built from a trace or a capture always carry them; a passage given as bare text
 * (a label file, a benchmark) gets them from {@link passageParts}, which reads the source line
 * with the one parser that owns its format.
 */
export interface EvidencePassage {
  /** A chunk id from the trace, or an id for a reference excerpt. */
  id: string;
  /** Exactly the text the generator saw (for trace chunks: the source line, then the body). */
  text: string;
  /** `chunk`: from the trace; `reference`: an extra excerpt supplied by the eval (e.g. the reference answer). */
  kind: 'chunk' | 'reference';
  /** Document title; `null` when the passage has none. Absent: read from `text` by {@link passageParts}. */
  title?: string | null;
  /** Heading path (`A > B`); `''` or `null` when none. */
  section?: string | null;
  /** Last-updated date as the document states it; `null` when unknown. */
  updated?: string | null;
  /** The passage's own words: `text` without its source line. Absent: read from `text`. */
  body?: string;
}

/** A passage's fields and body, whichever way it was given. */
export interface PassageParts {
  title: string | null;
  /** `null` when the passage has no section (a document intro, or no source line at all). */
  section: string | null;
  updated: string | null;
  body: string;
}

/**
 * The fields and body of a passage: the fields it carries, or else those of its source line; its
 * body, or else its text without the source line.
 *
 * @example
 * passageParts({ id: 'a', kind: 'chunk', text: '[Source: Pay | Last updated: unknown]\nPaid monthly.' })
 * // { title: 'Pay', section: null, updated: null, body: 'Paid monthly.' }
 */
export function passageParts(passage: EvidencePassage): PassageParts {
  const parsed = passage.title === undefined || passage.body === undefined ? parseChunkText(passage.text) : null;
  const title = passage.title !== undefined ? passage.title : (parsed?.title ?? null);
  const section = passage.section !== undefined ? passage.section : (parsed?.section ?? null);
  const updated = passage.updated !== undefined ? passage.updated : (parsed?.updated ?? null);
  const body = passage.body ?? parsed?.body ?? passage.text;
  return { title: title === '' ? null : title, section: section === '' ? null : section, updated, body };
}

/** The chunk fields a passage is built from: a trace's or a capture's chunk. */
export type PassageSource = Pick<RetrievedChunk, 'chunkId' | 'text' | 'title' | 'section' | 'updated'>;

/**
 * Evidence passages for chunks exactly as the generator saw them, in prompt order, with their
 * fields carried over.
 *
 * @example
 * const evidence = evidenceFromChunks(trace.chunks);
 */
export function evidenceFromChunks(chunks: readonly PassageSource[]): EvidencePassage[] {
  return chunks.map((chunk) => {
    const parsed = parseChunkText(chunk.text);
    return {
      id: chunk.chunkId,
      text: chunk.text,
      kind: 'chunk' as const,
      title: chunk.title === '' ? null : chunk.title,
      section: chunk.section === '' ? null : chunk.section,
      updated: chunk.updated,
      body: parsed?.body ?? chunk.text,
    };
  });
}

/**
 * Append reference passages to evidence: a reference with the id and text of a passage already
 * there is the same passage (kept once); the same id with other text is an input error.
 *
 * @throws InvalidInputError `invalid_option` for a malformed reference or a clashing id.
 */
export function withReferences(evidence: readonly EvidencePassage[], references: readonly EvidencePassage[] = []): EvidencePassage[] {
  const result = [...evidence];
  const byId = new Map(result.map((passage) => [passage.id, passage.text]));
  for (const reference of references) {
    if (typeof reference?.id !== 'string' || reference.id === '' || typeof reference.text !== 'string') {
      throw new InvalidInputError('option references must be a list of { id, text, kind } with a non-empty string id and string text', { code: 'invalid_option' });
    }
    const existing = byId.get(reference.id);
    if (existing === reference.text) continue;
    if (existing !== undefined) {
      throw new InvalidInputError(`reference id "${reference.id}" is already used by another passage with different text`, { code: 'invalid_option' });
    }
    byId.set(reference.id, reference.text);
    result.push({ ...reference, kind: reference.kind === 'chunk' ? 'chunk' : 'reference' });
  }
  return result;
}
