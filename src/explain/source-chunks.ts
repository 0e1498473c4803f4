import { renderCodeExcerpt } from '../contract/code.js';
import { contentHash, type Chunk } from '../rag/chunk.js';
import { estimateTokens } from '../text/text.js';
import { redactSecrets } from './redact-secrets.js';
import { sourceUnits, windows, type SourceUnit, type UnitOptions } from './source-units.js';

/**
 * A source file as index chunks: one per function, class, method or piece of module code (see
 * `sourceUnits`), long units cut into overlapping windows. Each chunk's model text is a code
 * excerpt (`renderCodeExcerpt`: the file path as title, the symbol as section, numbered lines),
 * so retrieval hands the model exactly what it needs to cite `file:line`. Secrets are masked
 * before anything is chunked.
 */

export interface SourceChunkOptions extends UnitOptions {
  /** Units longer than this are cut into windows of this many lines (overlapping by `overlapLines`). [maxUnitLines=80] */
  maxUnitLines?: number;
}

/**
 * Version of what {@link chunkSourceFile} produces. The source index keys each file by it, so a
 * change re-chunks every file on the next refresh.
 */
export const SOURCE_CHUNK_VERSION = 'code-chunks-v1';

/** A chunk with the unit it came from. */
export interface SourceChunk extends Chunk {
  unit: SourceUnit;
  startLine: number;
  endLine: number;
}

/**
 * @example
 * chunkSourceFile('src/routes/posts.js', source).map((chunk) => chunk.chunkId) // ['src/routes/posts.js#lines-1-3', 'src/routes/posts.js#showPost', …]
 */
export function chunkSourceFile(relativePath: string, source: string, options: SourceChunkOptions = {}): SourceChunk[] {
  const text = redactSecrets(source.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n'));
  const lines = text.split('\n');
  const maxUnitLines = Math.max(10, options.maxUnitLines ?? 80);
  const overlap = Math.min(maxUnitLines - 1, options.overlapLines ?? 10);
  const { units } = sourceUnits(relativePath, text, options);
  const chunks: SourceChunk[] = [];
  const usedIds = new Map<string, number>();
  for (const unit of units) {
    const length = unit.endLine - unit.startLine + 1;
    const parts = length > maxUnitLines ? windows(unit.startLine, unit.endLine, maxUnitLines, overlap) : [[unit.startLine, unit.endLine] as [number, number]];
    for (const [from, to] of parts) {
      const symbol = parts.length > 1 ? `${unit.symbol} (lines ${from}–${to})` : unit.symbol;
      const code = lines.slice(from - 1, to);
      const modelText = renderCodeExcerpt({ path: relativePath, symbol, startLine: from, lines: code });
      const baseId = `${relativePath}#${idPart(unit.kind === 'module' || unit.kind === 'window' || parts.length > 1 ? `${unit.name ?? 'lines'}-${from}-${to}` : unit.symbol)}`;
      const seen = usedIds.get(baseId) ?? 0;
      usedIds.set(baseId, seen + 1);
      chunks.push({
        chunkId: seen === 0 ? baseId : `${baseId}~${seen + 1}`,
        documentSlug: relativePath,
        title: relativePath,
        updated: null,
        section: symbol,
        // What full-text search reads: the code, and its identifiers split into words
        // (`findPost` → `find post`), so a question in words meets code in camelCase.
        text: `${code.join('\n')}\n${identifierWords(code.join('\n'))}`,
        modelText,
        hash: contentHash(modelText),
        ordinal: chunks.length,
        tokenCount: estimateTokens(code.join('\n')),
        unit,
        startLine: from,
        endLine: to,
      });
    }
  }
  return chunks;
}

function idPart(symbol: string): string {
  return symbol.replace(/\s+/g, '-').replace(/[^\w.$#~'()/:@-]+/g, '-').slice(0, 80);
}

/** camelCase and PascalCase identifiers split into their words, each identifier once. */
export function identifierWords(code: string): string {
  const seen = new Set<string>();
  const parts: string[] = [];
  for (const identifier of code.match(/[A-Za-z_$][\w$]*/g) ?? []) {
    if (seen.has(identifier)) continue;
    seen.add(identifier);
    const split = identifier.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2').replace(/[_$]+/g, ' ').trim();
    if (split.includes(' ')) parts.push(split.toLowerCase());
  }
  return parts.join(' ');
}
