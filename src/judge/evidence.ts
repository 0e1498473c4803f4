import { evidenceFromChunks, passageParts, withReferences, type EvidencePassage, type PassageSource } from '../contract/evidence.js';
import { judgedChunks, type RagTrace } from '../contract/trace.js';
import { splitSentenceUnits } from '../text/text.js';

/**
 * The evidence for judging a trace: exactly the chunks the generator saw (`id` = chunk id, `text`
 * = the chunk text placed in the prompt, in prompt order, with title, section and date as fields),
 * then any reference excerpts. The judge must see what the generator saw: nothing retrieved
 * again, nothing dropped. For a refusal by the relevance gate, which showed the model nothing,
 * the chunks the gate withheld (`judgedChunks`): what tells a correct refusal from an over-refusal.
 * A stored capture reads the same way (the live judge's evidence).
 *
 * @throws InvalidInputError `invalid_option` for a malformed reference or one whose id clashes.
 * @example
 * const evidence = evidenceFromTrace(trace, [{ id: 'ref-1', text: 'Reference answer…', kind: 'reference' }]);
 */
export function evidenceFromTrace(
  trace: { chunks: readonly PassageSource[]; withheldChunks?: readonly PassageSource[] | undefined; refusalReason: RagTrace['refusalReason'] },
  references: readonly EvidencePassage[] = [],
): EvidencePassage[] {
  return withReferences(evidenceFromChunks(judgedChunks(trace)), references);
}

/** A passage split into the parts the heuristic judge reads. */
export interface ParsedPassage {
  id: string;
  /** The passage's title field (or its source line's), when it has one. */
  title: string | null;
  updated: string | null;
  /** The full heading path (`A > B`), when the passage has a section. */
  section: string | null;
  /** The passage's sentences (table rows rewritten as `Header: cell; …`), the source line excluded. */
  sentences: string[];
}

/**
 * A passage's fields (see `passageParts`) and the sentences of its body. Sentences glued together
 * without a space (`…century.First for…`, common in scraped text) are separated first.
 */
export function parsePassage(passage: EvidencePassage): ParsedPassage {
  const parts = passageParts(passage);
  const body = parts.body.replace(/\r\n?/g, '\n').replace(/([\p{Ll}\d)\]"'])\.(?=\p{Lu}\p{Ll})/gu, '$1. ');
  return { id: passage.id, title: parts.title, updated: parts.updated, section: parts.section, sentences: sentenceUnits(body) };
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
