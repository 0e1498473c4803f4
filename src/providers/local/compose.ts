import { renderCitation } from '../../contract/formats.js';
import { countWords } from '../../text/text.js';
import type { SourceDocument, SourceUnit } from './prompt-sources.js';

export interface ComposeSettings {
  /** Most words, citations included. */
  wordCap: number;
  /** Cite each document's group of sentences as `(Title, updated date)`. [cite=true] */
  cite?: boolean;
}

/**
 * Write the picked units as an answer: grouped by document (the document of the best unit
 * first), in reading order within a document, each group followed by its citation. List items
 * stay a list, one `- item` per line after the sentence that introduces them. Units past the word
 * cap are left out (the first one is shortened instead, so an answer is never empty).
 */
export function composeAnswer(units: readonly SourceUnit[], settings: ComposeSettings): string {
  const cite = settings.cite ?? true;
  const order: SourceDocument[] = [];
  for (const unit of units) if (!order.some((document) => sameSource(document, unit.document))) order.push(unit.document);
  const groups = order.map((document) => ({
    document,
    units: units.filter((unit) => sameSource(unit.document, document)).sort((a, b) => a.document.rank - b.document.rank || a.position - b.position),
  }));

  const citationWords = cite ? 4 : 0;
  let words = 0;
  const parts: string[] = [];
  for (const group of groups) {
    const lines: string[] = [];
    for (const unit of group.units) {
      const text = unit.kind === 'item' ? `- ${unit.text.trim()}` : ensurePeriod(unit.text.trim());
      const unitWords = countWords(text);
      const extra = lines.length === 0 ? citationWords : 0;
      if (words > 0 && words + unitWords + extra > settings.wordCap) continue;
      lines.push(words + unitWords + extra > settings.wordCap ? truncateWords(text, settings.wordCap - words - extra) : text);
      words += unitWords + extra;
    }
    if (lines.length === 0) continue;
    // A list item goes on a line of its own, and so does the sentence after a list: joined to the
    // last item it read as part of it ("…self-assessment Access to customer systems…", v35).
    let body = '';
    let afterItem = false;
    for (const line of lines) {
      const item = line.startsWith('- ');
      body += body === '' ? line : item || afterItem || body.endsWith(':') ? `\n${line}` : ` ${line}`;
      afterItem = item;
    }
    parts.push(cite ? `${body} ${renderCitation([group.document])}` : body);
  }
  return parts.join(parts.some((part) => part.includes('\n')) ? '\n\n' : ' ');
}

function sameSource(a: SourceDocument, b: SourceDocument): boolean {
  return a.title === b.title && a.updated === b.updated;
}

function ensurePeriod(sentence: string): string {
  return /[.!?:]$/.test(sentence) ? sentence : `${sentence}.`;
}

function truncateWords(sentence: string, limit: number): string {
  const parts = sentence.split(/\s+/);
  return parts.length <= limit ? sentence : `${parts.slice(0, Math.max(1, limit)).join(' ')}…`;
}
