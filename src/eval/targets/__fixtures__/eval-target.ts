// A module target as a user writes one: it calls the app's own code (not built with groundcheck)
// and returns the answer with the chunks its retrieval put in the prompt.
import { shopAnswer } from '../../../test-support/foreign-rag-app.js';

export const name = 'shop-bot in process';

export const calls: { question: string; mode: string }[] = [];

export async function answer(question: string, { mode }: { mode: 'rag' | 'norag'; signal?: AbortSignal }) {
  calls.push({ question, mode });
  const result = shopAnswer(question, mode === 'rag');
  return {
    answer: result.answer,
    chunks: result.chunks.map((chunk, index) => ({ id: chunk.id, text: chunk.text, title: chunk.title, updated: chunk.updated, score: result.scores[index] })),
    model: 'shop-bot-1',
  };
}
