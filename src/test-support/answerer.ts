import { renderChunkText } from '../contract/formats.js';
import type { RetrievedChunk } from '../contract/trace.js';
import { createLocalChatModel } from '../providers/local/generator.js';
import { buildMessages } from '../rag/prompt.js';

/** A retrieved chunk with its model-visible text rendered from a title, a section and a body, for the offline answerer's tests. */
export function answererChunk(chunkId: string, title: string, section: string, body: string): RetrievedChunk {
  return {
    chunkId, document: chunkId.split('#')[0]!, title, section, updated: '2026-01-12',
    text: renderChunkText({ title, section, updated: '2026-01-12', body }),
    hash: 'h', score: 0.5, fusedScore: 0.03, rank: 1, vectorRank: 1, textRank: 1,
  };
}

/** The offline answerer's answer to a question, given these chunks as its prompt's sources. */
export async function offlineAnswer(question: string, chunks: RetrievedChunk[]): Promise<string> {
  return (await createLocalChatModel().generate({ messages: buildMessages(question, chunks, 'rag') })).text;
}
