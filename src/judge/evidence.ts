import { InvalidInputError } from '../errors.js';
import { splitSentenceUnits } from '../providers/local/text.js';
import type { RagTrace } from '../rag/trace.js';
import type { EvidencePassage } from './types.js';

/**
 * The evidence for judging a trace: exactly the chunks the generator saw (`id` = chunk id, `text`
 * = the chunk text placed in the prompt, in prompt order), then any reference excerpts. The judge
 * must see what the generator saw: nothing retrieved again, nothing dropped.
 *
 * @example
 * const evidence = evidenceFromTrace(trace, [{ id: 'ref-1', text: 'Reference answer…', kind: 'reference' }]);
 */
export function evidenceFromTrace(trace: RagTrace, references: readonly EvidencePassage[] = []): EvidencePassage[] {
  const evidence: EvidencePassage[] = trace.chunks.map((chunk) => ({ id: chunk.chunkId, text: chunk.text, kind: 'chunk' as const }));
  const byId = new Map(evidence.map((passage) => [passage.id, passage.text]));
  for (const reference of references) {
    if (typeof reference?.id !== 'string' || reference.id === '' || typeof reference.text !== 'string') {
      throw new InvalidInputError('option references must be a list of { id, text, kind } with a non-empty string id and string text', { code: 'invalid_option' });
    }
    const existing = byId.get(reference.id);
    // The same passage twice (a reference that is also a retrieved chunk) is one passage.
    if (existing === reference.text) continue;
    if (existing !== undefined) {
      throw new InvalidInputError(`reference id "${reference.id}" is already used by another passage with different text`, { code: 'invalid_option' });
    }
    byId.set(reference.id, reference.text);
    evidence.push({ id: reference.id, text: reference.text, kind: reference.kind === 'chunk' ? 'chunk' : 'reference' });
  }
  return evidence;
}

/** A passage split into the parts the heuristic judge reads. */
export interface ParsedPassage {
  id: string;
  /** From the `[Source: <title> | Last updated: <date>]` line, when the passage has one. */
  title: string | null;
  updated: string | null;
  /** From the `Section: …` line, when present. */
  section: string | null;
  /** The passage's sentences (table rows rewritten as `Header: cell; …`), source lines excluded. */
  sentences: string[];
}

const SOURCE_LINE = /^\[Source: (.*) \| Last updated: (.*)\]$/;

/**
 * Split a passage into its source line, section and sentences. Sentences glued together without a
 * space (`…century.First for…`, common in scraped text) are separated first.
 */
export function parsePassage(passage: EvidencePassage): ParsedPassage {
  const lines = passage.text.replace(/\r\n?/g, '\n').split('\n');
  let title: string | null = null;
  let updated: string | null = null;
  let section: string | null = null;
  let start = 0;
  const source = SOURCE_LINE.exec(lines[0]?.trim() ?? '');
  if (source) {
    title = source[1]!.trim();
    updated = source[2]!.trim() === 'unknown' ? null : source[2]!.trim();
    start = 1;
  }
  if (/^Section: /.test(lines[start] ?? '')) {
    section = lines[start]!.slice('Section: '.length).trim();
    start += 1;
  }
  const body = lines.slice(start).join('\n').replace(/([\p{Ll}\d)\]"'])\.(?=\p{Lu}\p{Ll})/gu, '$1. ');
  return { id: passage.id, title, updated, section, sentences: sentenceUnits(body) };
}

/**
 * The generator's sentence units (table rows as `Header: cell; …`, see `splitSentenceUnits`), with
 * Markdown heading marks removed and empty units dropped: the judge reads a passage the way the
 * offline generator quotes it, so a verbatim quote always has a unit to match.
 */
function sentenceUnits(body: string): string[] {
  return splitSentenceUnits(body)
    .map((unit) => unit.replace(/^#+\s*/, ''))
    .filter((unit) => unit !== '');
}
