/**
 * The message and usage shapes every layer shares: what a chat model is sent and what it reports.
 * They live on the ground floor so the trace (`trace.ts`) can name them without pointing up at the
 * providers; `providers/spec.ts` re-exports them for provider authors.
 */

export type ChatRole = 'system' | 'user' | 'assistant';

export interface ChatMessage {
  role: ChatRole;
  content: string;
}

/** Token counts as reported by the endpoint; `null` when it did not say. */
export interface Usage {
  inputTokens: number | null;
  outputTokens: number | null;
  totalTokens: number | null;
}

export const EMPTY_USAGE: Usage = Object.freeze({ inputTokens: 0, outputTokens: 0, totalTokens: 0 });
