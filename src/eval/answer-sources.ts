import { extractCitations } from '../contract/formats.js';
import type { RagTrace } from '../contract/trace.js';

/**
 * Which documents a RAG-on answer quotes, read from its citations (the contract's
 * `extractCitations`) and matched to the trace's chunks by title and date, and which of them hold
 * none of the question's relevant chunks: an answer that carries a sentence from an unrelated
 * document cites such a document.
 */
export function answerSources(trace: Pick<RagTrace, 'answer' | 'chunks'>, relevantDocuments: ReadonlySet<string>): { cited: string[]; unrelated: string[] } {
  const cited = new Set<string>();
  for (const citation of extractCitations(trace.answer).citations) {
    for (const chunk of trace.chunks) if (chunk.title === citation.title && (citation.updated === null || chunk.updated === citation.updated)) cited.add(chunk.document);
  }
  const list = [...cited].sort();
  return { cited: list, unrelated: list.filter((document) => !relevantDocuments.has(document)) };
}
