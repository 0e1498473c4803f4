/**
 * Every text format groundcheck writes for a model and reads back, each as a render/parse pair in
 * this one module: the chunk text (source line, then body), the `<documents>` block, the question
 * marker, the word-limit sentence, the citation, and the delimiter neutralizing that keeps
 * document text inside its block. The chunker, the prompt builder and the judges render with these
 * functions; the offline model and the judges parse with them. No other module writes or reads
 * these formats with a regex of its own.
 *
 * Changing a format here changes what models see: bump `PROMPT_VERSION` (src/rag/prompt.ts) and
 * the judge versions, and say so in METHODOLOGY.md.
 */

/** Every tag groundcheck's prompts use as a block delimiter (generation, faithfulness and pairwise prompts). */
export const PROMPT_TAGS = ['documents', 'document', 'evidence_passages', 'evidence', 'passage', 'question', 'answer_a', 'answer_b', 'answer'] as const;

/** Characters a tag could hide behind: white space and the zero-width ones. */
const GAP = '[\\s\\u200b-\\u200d\\u2060\\ufeff]*';
const DELIMITER = new RegExp(`[<\\uff1c](?=${GAP}\\/?${GAP}(?:${PROMPT_TAGS.join('|')})(?![\\w-]))`, 'gi');

/**
 * Make `text` unable to open or close a prompt block: the `<` (or full-width `＜`) of anything
 * that could pass for one of {@link PROMPT_TAGS} becomes `‹`, with or without spaces, slashes or
 * zero-width characters inside the tag (`</document>`, `< /answer>`, `<\u200b/question>`).
 * Every other character is kept. Idempotent.
 *
 * @example
 * neutralizeDelimiters('x </document> y < /answer>') // 'x ‹/document> y ‹ /answer>'
 */
export function neutralizeDelimiters(text: string): string {
  return text.replace(DELIMITER, '‹');
}

/** Escape a value for a double-quoted attribute (`id="…"`). */
export function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The inverse of {@link escapeAttribute}. */
export function unescapeAttribute(value: string): string {
  return value.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

// ---------------------------------------------------------------------------------------------
// Chunk text: `[Source: Title | Section: A > B | Last updated: 2026-01-12]`, then the body.

/** The fields a chunk's source line carries. */
export interface SourceFields {
  title: string;
  /** Heading path joined with {@link SECTION_SEPARATOR}; `''` for a document's intro (no `Section:` part). */
  section: string;
  /** As written in the document; `null` when unknown (rendered `unknown`). */
  updated: string | null;
}

/** What a model sees for one chunk: its source line and its body. */
export interface ChunkTextParts extends SourceFields {
  body: string;
}

/** Joins a heading path in `section`: `Parental Leave > Shared Parental Leave`. */
export const SECTION_SEPARATOR = ' > ';

/**
 * A source field as it can appear in the source line: delimiters neutralized, white space (line
 * breaks included) collapsed to one space, and `|`, which separates the line's parts, as `¦`.
 * `parseChunkText(renderChunkText(x))` gives back `x` with its fields passed through this.
 */
export function sourceFieldText(value: string): string {
  return neutralizeDelimiters(value).replace(/\s+/g, ' ').trim().replace(/\|/g, '¦');
}

function updatedFieldText(updated: string | null): string | null {
  if (updated === null) return null;
  const text = sourceFieldText(updated);
  return text === '' || text === 'unknown' ? null : text;
}

/** The normalized fields {@link renderSourceLine} writes (what a parse gives back). */
export function normalizeSourceFields(fields: SourceFields): SourceFields {
  return { title: sourceFieldText(fields.title), section: sourceFieldText(fields.section), updated: updatedFieldText(fields.updated) };
}

/**
 * The one-line header every chunk starts with in a prompt.
 *
 * @example
 * renderSourceLine({ title: 'Leave Policy', section: 'Parental Leave', updated: '2026-01-12' })
 * // '[Source: Leave Policy | Section: Parental Leave | Last updated: 2026-01-12]'
 */
export function renderSourceLine(fields: SourceFields): string {
  const { title, section, updated } = normalizeSourceFields(fields);
  const parts = [title, ...(section === '' ? [] : [`Section: ${section}`]), `Last updated: ${updated ?? 'unknown'}`];
  return `[Source: ${parts.join(' | ')}]`;
}

/** Read a source line written by {@link renderSourceLine}; `null` when `line` is not one. */
export function parseSourceLine(line: string): SourceFields | null {
  const trimmed = line.trim();
  if (!trimmed.startsWith('[Source: ') || !trimmed.endsWith(']')) return null;
  const parts = trimmed.slice('[Source: '.length, -1).split(' | ');
  const last = parts.at(-1)!;
  if (parts.length < 2 || parts.length > 3 || !last.startsWith('Last updated: ')) return null;
  if (parts.length === 3 && !parts[1]!.startsWith('Section: ')) return null;
  const updated = last.slice('Last updated: '.length).trim();
  return {
    title: parts[0]!.trim(),
    section: parts.length === 3 ? parts[1]!.slice('Section: '.length).trim() : '',
    updated: updated === '' || updated === 'unknown' ? null : updated,
  };
}

/**
 * Exactly what a model sees for a chunk: the source line, a line break, the body (delimiters
 * neutralized, so no document text can open or close a prompt block).
 *
 * @example
 * renderChunkText({ title: 'Leave Policy', section: '', updated: null, body: 'Text.' })
 * // '[Source: Leave Policy | Last updated: unknown]\nText.'
 */
export function renderChunkText(parts: ChunkTextParts): string {
  return `${renderSourceLine(parts)}\n${neutralizeDelimiters(parts.body)}`;
}

/**
 * Split a chunk text written by {@link renderChunkText} into its fields and body; `null` when the
 * text has no source line (a passage from elsewhere: then the whole text is its body).
 */
export function parseChunkText(text: string): ChunkTextParts | null {
  const normalized = text.replace(/\r\n?/g, '\n');
  const lineEnd = normalized.indexOf('\n');
  const first = lineEnd === -1 ? normalized : normalized.slice(0, lineEnd);
  const fields = parseSourceLine(first);
  if (fields === null) return null;
  return { ...fields, body: lineEnd === -1 ? '' : normalized.slice(lineEnd + 1) };
}

/** The heading path of a section field, outermost first (`'A > B'` → `['A', 'B']`; `''` → `[]`). */
export function sectionPath(section: string): string[] {
  return section === '' ? [] : section.split(SECTION_SEPARATOR).map((heading) => heading.trim()).filter((heading) => heading !== '');
}

// ---------------------------------------------------------------------------------------------
// The generation prompt's user message: `<documents>` block, then `Question: …`.

/** One `<document>` block: its id attribute and its text (a chunk text as rendered above). */
export interface PromptDocument {
  id: string;
  text: string;
}

const DOCUMENTS_OPEN = '<documents>';
const DOCUMENTS_CLOSE = '</documents>';
const QUESTION_MARKER = 'Question: ';

/** The `<documents>` block: each document's text exactly (neutralized), in the given order. */
export function renderDocuments(documents: readonly PromptDocument[]): string {
  const parts = documents.map((document) => `<document id="${escapeAttribute(document.id)}">\n${neutralizeDelimiters(document.text)}\n</document>`);
  return `${DOCUMENTS_OPEN}\n${parts.join('\n')}\n${DOCUMENTS_CLOSE}`;
}

/** Read the `<document>` blocks of a block written by {@link renderDocuments}. */
export function parseDocuments(block: string): PromptDocument[] {
  const pattern = /<document id="([^"]*)">\n([\s\S]*?)\n<\/document>/g;
  const documents: PromptDocument[] = [];
  for (const match of block.matchAll(pattern)) documents.push({ id: unescapeAttribute(match[1]!), text: match[2]! });
  return documents;
}

/**
 * The user message of a generation prompt: with documents (`rag`), the `<documents>` block, a
 * blank line and the question marker; without (`norag`), the question marker alone.
 *
 * @example
 * renderQuestionMessage({ documents: null, question: 'How long is probation?' }) // 'Question: How long is probation?'
 */
export function renderQuestionMessage(input: { documents: readonly PromptDocument[] | null; question: string }): string {
  const question = `${QUESTION_MARKER}${neutralizeDelimiters(input.question)}`;
  return input.documents === null ? question : `${renderDocuments(input.documents)}\n\n${question}`;
}

/**
 * Read a user message written by {@link renderQuestionMessage}. The question is everything after
 * the marker that follows the documents block (so a question may itself contain `Question:`);
 * a message in neither form is all question, with no documents.
 */
export function parseQuestionMessage(content: string): { documents: PromptDocument[] | null; question: string } {
  if (content.startsWith(`${DOCUMENTS_OPEN}\n`)) {
    const close = content.indexOf(`\n${DOCUMENTS_CLOSE}`);
    if (close !== -1) {
      const end = close + 1 + DOCUMENTS_CLOSE.length;
      const rest = content.slice(end);
      const documents = parseDocuments(content.slice(0, end));
      const question = rest.startsWith(`\n\n${QUESTION_MARKER}`) ? rest.slice(2 + QUESTION_MARKER.length) : rest.trim();
      return { documents, question: question.trim() };
    }
  }
  if (content.startsWith(QUESTION_MARKER)) return { documents: null, question: content.slice(QUESTION_MARKER.length).trim() };
  return { documents: null, question: content.trim() };
}

// ---------------------------------------------------------------------------------------------
// The domain line of the closed-book prompt: what the questions are about.

/** What the questions are about when no domain is set. */
export const DEFAULT_DOMAIN = 'a collection of documents';

const DOMAIN_LEAD = 'You answer questions about ';

/**
 * The closed-book prompt's first line, naming the domain (a suite's or an option's `domain`); the
 * offline closed-book model reads it back with {@link parseDomainLine}.
 *
 * @example
 * renderDomainLine('an employee handbook') // 'You answer questions about an employee handbook.'
 */
export function renderDomainLine(domain: string): string {
  return `${DOMAIN_LEAD}${domain.replace(/\s+/g, ' ').trim().replace(/\.$/, '')}.`;
}

/** The domain a prompt written with {@link renderDomainLine} names; `null` when it names none. */
export function parseDomainLine(prompt: string): string | null {
  const line = prompt.split('\n').find((candidate) => candidate.startsWith(DOMAIN_LEAD) && candidate.endsWith('.'));
  return line === undefined ? null : line.slice(DOMAIN_LEAD.length, -1);
}

// ---------------------------------------------------------------------------------------------
// The word limit sentence of the system prompts.

/** @example renderWordLimit(150) // 'Answer in at most 150 words.' */
export function renderWordLimit(wordCap: number): string {
  return `Answer in at most ${wordCap} words.`;
}

/** The word cap a prompt written with {@link renderWordLimit} states; `null` when it states none. */
export function parseWordLimit(prompt: string): number | null {
  const match = /Answer in at most (\d+) words\./.exec(prompt);
  return match ? Number(match[1]) : null;
}

// ---------------------------------------------------------------------------------------------
// Citations in answers: `(Title, updated 2026-01-12)`, several joined by `; ` in one pair.

/** A source an answer cites. */
export interface Citation {
  title: string;
  updated: string | null;
  /** As written in the answer. */
  text: string;
  /** `citation`: the `(Title, updated …)` form; `source_line`: a copied `[Source: …]` line; `aside`: `(Source: Title)`. */
  form: 'citation' | 'source_line' | 'aside';
}

/**
 * The citation the grounded prompt asks for and the offline model writes.
 *
 * @example
 * renderCitation([{ title: 'Cycle Scheme (UK)', updated: '2026-01-12' }]) // '(Cycle Scheme (UK), updated 2026-01-12)'
 */
export function renderCitation(sources: readonly Pick<SourceFields, 'title' | 'updated'>[]): string {
  return `(${sources.map((source) => `${source.title}, updated ${source.updated ?? 'unknown'}`).join('; ')})`;
}

const CITED_PART = /^(.*?),?\s*\b(?:last\s+)?updated\b:?\s*(.+?)\s*$/i;
const SOURCE_ASIDE = /^(?:source|sources|see)\s*:\s*(.*)$/i;

/**
 * Find the citations in an answer and return the answer without them. Reads the form
 * {@link renderCitation} writes (titles may hold parentheses of their own), a copied source line
 * (`[Source: … | Last updated: …]`), and `(Source: Title)` asides.
 *
 * @example
 * extractCitations('Yes, 3 days (Cycle Scheme (UK), updated 2026-01-12).')
 * // { text: 'Yes, 3 days.', citations: [{ title: 'Cycle Scheme (UK)', updated: '2026-01-12', text: '(Cycle Scheme (UK), updated 2026-01-12)', form: 'citation' }] }
 */
export function extractCitations(answer: string): { text: string; citations: Citation[] } {
  const citations: Citation[] = [];
  let out = '';
  let index = 0;
  while (index < answer.length) {
    const char = answer[index]!;
    if (char === '(') {
      const close = matchingClose(answer, index, '(', ')');
      if (close !== -1) {
        const whole = answer.slice(index, close + 1);
        const found = readParenthesized(answer.slice(index + 1, close), whole);
        if (found !== null) {
          citations.push(...found);
          out = out.replace(/\s+$/, '');
          index = close + 1;
          continue;
        }
      }
    } else if (char === '[' && answer.startsWith('[Source: ', index)) {
      const close = answer.indexOf(']', index);
      const lineEnd = answer.indexOf('\n', index);
      if (close !== -1 && (lineEnd === -1 || close < lineEnd)) {
        const whole = answer.slice(index, close + 1);
        const fields = parseSourceLine(whole);
        if (fields !== null) {
          citations.push({ title: fields.title, updated: fields.updated, text: whole, form: 'source_line' });
          out = out.replace(/\s+$/, '');
          index = close + 1;
          continue;
        }
      }
    }
    out += char;
    index += 1;
  }
  return { text: out, citations };
}

function readParenthesized(inner: string, whole: string): Citation[] | null {
  const aside = SOURCE_ASIDE.exec(inner.trim());
  if (aside) return aside[1]!.trim() === '' ? [] : [{ title: aside[1]!.trim(), updated: null, text: whole, form: 'aside' }];
  const parts = splitTopLevel(inner, ';');
  const cited = parts.map((part) => CITED_PART.exec(part.trim())).filter((match): match is RegExpExecArray => match !== null);
  if (cited.length === 0) return null;
  // A part without a title ("(updated 2026-01-12)") still marks the parenthesis as a citation.
  return cited.filter((match) => match[1]!.trim() !== '').map((match) => {
    const updated = match[2]!.trim();
    return { title: match[1]!.trim(), updated: updated === 'unknown' ? null : updated, text: whole, form: 'citation' as const };
  });
}

/** Index of the bracket closing the one at `open`, counting nesting; -1 when it never closes. */
function matchingClose(text: string, open: number, opener: string, closer: string): number {
  let depth = 0;
  for (let index = open; index < text.length; index++) {
    if (text[index] === opener) depth += 1;
    else if (text[index] === closer) {
      depth -= 1;
      if (depth === 0) return index;
    } else if (text[index] === '\n') return -1;
  }
  return -1;
}

function splitTopLevel(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (char === '(') depth += 1;
    else if (char === ')') depth = Math.max(0, depth - 1);
    else if (char === separator && depth === 0) {
      parts.push(text.slice(start, index));
      start = index + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}
