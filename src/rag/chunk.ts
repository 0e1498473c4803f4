import { neutralizeDelimiters, renderChunkText, SECTION_SEPARATOR } from '../contract/formats.js';
import { textHash } from '../contract/hash.js';
import { estimateTokens } from '../text/text.js';

/** A document parsed from a Markdown or text file. */
export interface ParsedDocument {
  /** Stable id from the file path: relative path without extension, e.g. `leave-policy`. */
  slug: string;
  title: string;
  /** `updated` from front matter (as written), or `null`. */
  updated: string | null;
  sections: Section[];
}

export interface Section {
  /** Heading texts below the document title, outermost first; empty for text before the first heading. */
  headingPath: string[];
  /** Paragraph-level blocks (paragraphs, whole lists, whole tables, code blocks). */
  blocks: string[];
}

/** A chunk ready to store. */
export interface Chunk {
  /** `leave-policy#parental-leave`, with `~2`, `~3`… on the later parts of a split section. */
  chunkId: string;
  documentSlug: string;
  title: string;
  updated: string | null;
  /** Heading path joined with ` > `, e.g. `Parental Leave > Shared Parental Leave`; `''` for the intro. */
  section: string;
  /** The chunk's own text (its blocks joined by blank lines). */
  text: string;
  /** Exactly what a model sees for this chunk: the source line (title, section, date), then the text (`renderChunkText`). */
  modelText: string;
  /** Content hash of `modelText` (sha256, hex, first 20 characters). */
  hash: string;
  ordinal: number;
  tokenCount: number;
}

export interface ChunkOptions {
  /** Token budget per chunk; sections longer than this are split between paragraphs. [maxTokens=350] */
  maxTokens?: number;
  /** How many trailing blocks of a split chunk are repeated at the start of the next one. [overlapBlocks=1] */
  overlapBlocks?: number;
}

/**
 * Version of what `chunkDocument` produces from a document (the split, the ids, the model text).
 * Ingest keys each stored document by it, so a change here re-chunks every document on the next
 * ingest instead of leaving chunks of the old format in an index.
 * - `chunks-v2`: model text rendered by the contract (one-line source line with the section).
 */
export const CHUNK_FORMAT_VERSION = 'chunks-v2';

/** Lowercase, non-alphanumerics collapsed to `-`, trimmed: `Training Under £1,000` → `training-under-1-000`. */
export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** Content hash of a chunk's model text (the contract's `textHash`: sha256, hex, first 20 characters). */
export const contentHash = textHash;

/**
 * Parse a Markdown or plain-text file: optional front matter (`title`, `updated`), an optional H1
 * used as the title when front matter has none, then sections by heading.
 */
export function parseDocument(relativePath: string, source: string): ParsedDocument {
  const slug = documentSlug(relativePath);
  const { data, body } = parseFrontMatter(source.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n'));
  const lines = body.split('\n');
  let title = data.title;
  const sections: Section[] = [];
  let current: Section = { headingPath: [], blocks: [] };
  const stack: { level: number; text: string }[] = [];
  let titleLevel: number | null = null;
  let buffer: string[] = [];
  let fence: string | null = null;

  const flushBlock = () => {
    const block = buffer.join('\n').trim();
    if (block !== '') current.blocks.push(block);
    buffer = [];
  };
  const startSection = (headingPath: string[]) => {
    flushBlock();
    if (current.blocks.length > 0 || current.headingPath.length > 0) sections.push(current);
    current = { headingPath, blocks: [] };
  };

  for (const line of lines) {
    const fenceMatch = /^\s*(```|~~~)/.exec(line);
    if (fence !== null) {
      buffer.push(line);
      if (fenceMatch && fenceMatch[1] === fence) fence = null;
      continue;
    }
    if (fenceMatch) {
      if (buffer.length > 0 && !isListOrTable(buffer)) flushBlock();
      fence = fenceMatch[1]!;
      buffer.push(line);
      continue;
    }
    const heading = /^(#{1,6})\s+(.+?)\s*#*\s*$/.exec(line);
    if (heading) {
      const level = heading[1]!.length;
      const text = heading[2]!.trim();
      if (titleLevel === null && level === 1 && sections.length === 0 && current.blocks.length === 0 && buffer.every((l) => l.trim() === '')) {
        titleLevel = 1;
        title ??= text;
        continue;
      }
      while (stack.length > 0 && stack[stack.length - 1]!.level >= level) stack.pop();
      stack.push({ level, text });
      startSection(stack.map((entry) => entry.text));
      continue;
    }
    if (line.trim() === '') {
      flushBlock();
      continue;
    }
    // A table or list line right after a paragraph line of another kind starts a new block.
    if (buffer.length > 0 && blockKind(line) !== blockKind(buffer[buffer.length - 1]!) && blockKind(line) === 'table') flushBlock();
    buffer.push(line);
  }
  flushBlock();
  if (current.blocks.length > 0 || current.headingPath.length > 0) sections.push(current);

  return {
    slug,
    title: title ?? titleFromSlug(slug),
    updated: data.updated ?? null,
    sections,
  };
}

/** Turn a parsed document into chunks: one per section, split between blocks within the budget. */
export function chunkDocument(document: ParsedDocument, options: ChunkOptions = {}): Chunk[] {
  const maxTokens = options.maxTokens ?? 350;
  const overlapBlocks = options.overlapBlocks ?? 1;
  const chunks: Chunk[] = [];
  const usedIds = new Set<string>();
  for (const section of document.sections) {
    if (section.blocks.length === 0) continue;
    const baseId = uniqueId(
      `${document.slug}#${section.headingPath.length === 0 ? 'intro' : section.headingPath.map(slugify).join('/') || 'section'}`,
      usedIds,
    );
    const sectionTitle = section.headingPath.join(SECTION_SEPARATOR);
    // Neutralized before packing, so the stored text (and its full-text index) is the one the model sees.
    const parts = packBlocks(section.blocks.map(neutralizeDelimiters), maxTokens, overlapBlocks);
    parts.forEach((blocks, partIndex) => {
      const chunkId = partIndex === 0 ? baseId : `${baseId}~${partIndex + 1}`;
      const text = blocks.join('\n\n');
      const modelText = renderChunkText({ title: document.title, section: sectionTitle, updated: document.updated, body: text });
      chunks.push({
        chunkId,
        documentSlug: document.slug,
        title: document.title,
        updated: document.updated,
        section: sectionTitle,
        text,
        modelText,
        hash: contentHash(modelText),
        ordinal: chunks.length,
        tokenCount: estimateTokens(modelText),
      });
    });
  }
  return chunks;
}

function packBlocks(blocks: string[], maxTokens: number, overlapBlocks: number): string[][] {
  const parts: string[][] = [];
  let current: string[] = [];
  let currentTokens = 0;
  let freshInCurrent = 0;
  for (const block of blocks) {
    const tokens = estimateTokens(block);
    if (current.length > 0 && freshInCurrent > 0 && currentTokens + tokens > maxTokens) {
      parts.push(current);
      const overlap = overlapBlocks > 0 ? current.slice(-overlapBlocks) : [];
      const overlapTokens = overlap.reduce((sum, text) => sum + estimateTokens(text), 0);
      // Overlap only when it leaves room for the new block; never at the cost of the budget.
      current = overlapTokens + tokens <= maxTokens ? [...overlap] : [];
      currentTokens = current.length > 0 ? overlapTokens : 0;
      freshInCurrent = 0;
    }
    current.push(block);
    currentTokens += tokens;
    freshInCurrent += 1;
  }
  if (freshInCurrent > 0) parts.push(current);
  return parts;
}

function uniqueId(id: string, used: Set<string>): string {
  let candidate = id;
  for (let suffix = 2; used.has(candidate); suffix++) candidate = `${id}-${suffix}`;
  used.add(candidate);
  return candidate;
}

/**
 * A page's document (a crawled page, or an HTML file of a folder): its extracted Markdown parsed
 * as any document, with the page's title and date as fields; the text's own front matter date, or
 * its `# Title` where the page has none, wins.
 */
export function pageDocument(path: string, page: { title: string | null; updated: string | null; markdown: string }): ParsedDocument {
  const parsed = parseDocument(path, page.markdown);
  return { ...parsed, title: page.title ?? parsed.title, updated: parsed.updated ?? page.updated };
}

/** The text file names ingest reads as they are; the extension is not part of a document's slug. */
export const TEXT_FILE_EXTENSION = /\.(md|markdown|mdx|txt)$/i;

/** The HTML file names ingest reads through the crawler's extractor (main content as Markdown). */
export const HTML_FILE_EXTENSION = /\.html?$/i;

/** The extensions of both, as messages name them. */
export const DOCUMENT_EXTENSIONS = '.md, .markdown, .mdx, .txt or .html';

export function documentSlug(relativePath: string): string {
  const withoutExtension = relativePath.replace(/\\/g, '/').replace(TEXT_FILE_EXTENSION, '').replace(HTML_FILE_EXTENSION, '');
  return withoutExtension
    .split('/')
    .map((segment) => slugify(segment))
    .filter((segment) => segment !== '')
    .join('/');
}

function titleFromSlug(slug: string): string {
  const last = slug.split('/').pop() ?? slug;
  const words = last.split('-').filter(Boolean);
  return words.map((word, index) => (index === 0 ? word[0]!.toUpperCase() + word.slice(1) : word)).join(' ') || slug;
}

function blockKind(line: string): 'table' | 'list' | 'text' {
  if (/^\s*\|/.test(line)) return 'table';
  if (/^\s*(?:[-*+]|\d+[.)])\s+/.test(line)) return 'list';
  return 'text';
}

function isListOrTable(lines: string[]): boolean {
  return lines.some((line) => blockKind(line) !== 'text');
}

interface FrontMatter {
  title?: string;
  updated?: string;
  [key: string]: string | undefined;
}

/** A deliberately small front-matter reader: `key: value` lines between `---` fences. */
export function parseFrontMatter(source: string): { data: FrontMatter; body: string } {
  const match = /^---\n([\s\S]*?)\n---[ \t]*(?:\n|$)/.exec(source);
  if (!match) return { data: {}, body: source };
  const data: FrontMatter = {};
  for (const line of match[1]!.split('\n')) {
    const entry = /^([A-Za-z_][\w-]*)\s*:\s*(.*)$/.exec(line);
    if (!entry) continue;
    let value = entry[2]!.trim();
    if ((value.startsWith('"') && value.endsWith('"')) || (value.startsWith("'") && value.endsWith("'"))) {
      value = value.slice(1, -1);
    }
    if (value !== '') data[entry[1]!.toLowerCase()] = value;
  }
  return { data, body: source.slice(match[0].length) };
}
