import { MAX_QUERY_LENGTH, retrieve, retrievedChunk, type RetrievalResult } from '../rag/retrieve.js';
import { definesName } from './called-names.js';
import type { GroundcheckIndex } from '../rag/store.js';
import type { RetrievedChunk } from '../contract/trace.js';
import { renderFrame, type ReportFrame } from '../contract/code.js';

/**
 * Retrieval for an explanation: the query is the error plus the code around the innermost app
 * frame; the results are capped per file and in total so one long file cannot crowd out the
 * others or blow the prompt.
 */

export interface SourceRetrievalOptions {
  /** Excerpts handed to the model. [topK=6] */
  topK?: number;
  /** Candidates taken from the hybrid search before the caps. [candidates=20] */
  candidates?: number;
  /** At most this many excerpts from one file. [maxChunksPerFile=2] */
  maxChunksPerFile?: number;
  /** At most this many characters of excerpts in the prompt. [maxChars=8000] */
  maxChars?: number;
  /**
   * The relevance gate. Code rarely shares many words with an error message, so by default every
   * candidate passes and the caps decide. [minSimilarity=0]
   */
  minSimilarity?: number;
  /**
   * Functions the failing code calls (`findPost` for `const post = findPost(id)`): the excerpt
   * that defines each one in the index is handed to the model right after the best-ranked
   * excerpt, whatever its rank and the per-file cap, because where a bad value came from is what
   * an explanation most often needs and what an error message's words least often find. At most
   * {@link MAX_DEFINITIONS}; names no excerpt defines are ignored. [definitions=[]]
   */
  definitions?: readonly string[];
}

/** At most this many called functions' excerpts are brought in by name. */
export const MAX_DEFINITIONS = 2;

/**
 * The retrieval query: the error's header, the innermost app frame, and the source lines around it.
 * Cut to the longest query retrieval accepts.
 *
 * @example
 * explainQuery("TypeError: Cannot read properties of undefined (reading 'id')", frame, ['const post = findPost(id);'])
 */
export function explainQuery(header: string, frame: ReportFrame | null, sourceLines: readonly string[]): string {
  const parts = [header];
  if (frame !== null) parts.push(renderFrame(frame));
  if (sourceLines.length > 0) parts.push(sourceLines.join('\n'));
  const query = parts.join('\n').trim();
  return query.length > MAX_QUERY_LENGTH ? query.slice(0, MAX_QUERY_LENGTH) : query;
}

/**
 * Hybrid retrieval over the source index, then at most `maxChunksPerFile` excerpts per file,
 * `topK` in all and `maxChars` of text, in rank order (ranks renumbered).
 */
export async function retrieveSource(index: GroundcheckIndex, query: string, options: SourceRetrievalOptions = {}): Promise<RetrievalResult> {
  const topK = options.topK ?? 6;
  // An error report is not a question: neither half of the relevance gate applies to it.
  const retrieval = await retrieve(index, query, { topK: Math.max(topK, options.candidates ?? 20), minSimilarity: options.minSimilarity ?? 0, termCoverage: false });
  const defined = definitionChunks(index, options.definitions ?? [], retrieval.chunks[0]?.chunkId ?? null);
  const definedIds = new Set(defined.map((chunk) => chunk.chunkId));
  const ordered = [...retrieval.chunks.slice(0, 1), ...defined, ...retrieval.chunks.slice(1).filter((chunk) => !definedIds.has(chunk.chunkId))];
  const perFile = new Map<string, number>();
  const chunks: RetrievedChunk[] = [];
  let chars = 0;
  for (const chunk of ordered) {
    if (chunks.length >= topK) break;
    const count = perFile.get(chunk.document) ?? 0;
    if (count >= (options.maxChunksPerFile ?? 2) && !definedIds.has(chunk.chunkId)) continue;
    if (chars + chunk.text.length > (options.maxChars ?? 8000) && chunks.length > 0) continue;
    perFile.set(chunk.document, count + 1);
    chars += chunk.text.length;
    chunks.push({ ...chunk, rank: chunks.length + 1 });
  }
  return { ...retrieval, chunks, gated: chunks.length === 0 };
}

/**
 * The excerpts that define the named functions: a chunk whose symbol is the name, or a method
 * ending in `.name` (`User.toJSON` for `toJSON`), one per name, in the order named; not `except`
 * (the best-ranked excerpt, already first). Found by id (`path#symbol`), so no ranking is involved:
 * such a chunk carries no similarity (`score` 0, no ranks).
 */
function definitionChunks(index: GroundcheckIndex, names: readonly string[], except: string | null): RetrievedChunk[] {
  if (names.length === 0) return [];
  const ids = [...index.chunkHashes().keys()];
  const found: RetrievedChunk[] = [];
  for (const name of new Set(names)) {
    if (found.length >= MAX_DEFINITIONS) break;
    const id = ids.find((candidate) => definesName(candidate.slice(candidate.indexOf('#') + 1), name));
    if (id === undefined || id === except || found.some((chunk) => chunk.chunkId === id)) continue;
    const stored = index.getChunk(id);
    if (stored === undefined) continue;
    found.push(retrievedChunk(stored, { score: 0, fusedScore: 0, rank: 0, vectorRank: null, textRank: null }));
  }
  return found;
}
