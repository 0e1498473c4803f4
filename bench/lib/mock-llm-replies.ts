import { chatReply, type MockServerReply, type RecordedRequest } from '../../src/testing/openai-server.js';
import { REFUSAL_SENTENCE } from '../../src/contract/refusal.js';
import { faithfulnessJudgeReply } from '../../src/testing/judge-replies.js';

/** What kind of call a chat request is, from its response format (or, failing that, its prompt). */
export type MockCallKind = 'generator' | 'faithfulness' | 'pairwise';

/**
 * Classify a chat-completion request: the LLM faithfulness judge asks for the
 * `faithfulness_judgment` JSON schema, the pairwise judge for `pairwise_judgment`; anything else is
 * the generator. When an endpoint was switched to prompt-only JSON, the system prompts tell.
 */
export function callKind(body: Record<string, unknown>): MockCallKind {
  const format = body.response_format as { json_schema?: { name?: string } } | undefined;
  const name = format?.json_schema?.name;
  if (name === 'faithfulness_judgment') return 'faithfulness';
  if (name === 'pairwise_judgment') return 'pairwise';
  const system = messagesOf(body).find((message) => message.role === 'system')?.content ?? '';
  if (system.startsWith('You are a strict fact-checker')) return 'faithfulness';
  if (system.startsWith('You compare two answers')) return 'pairwise';
  return 'generator';
}

/**
 * A deterministic model behind the mock OpenAI server, answering every call after `delayMs`
 * with a reply the caller accepts: the generator quotes the first sentence of the first
 * `<document>` (or answers from "memory" without documents, or refuses when none are given in RAG
 * mode), the faithfulness judge returns one claim verified by the first evidence passage, and the
 * pairwise judge returns a valid verdict. Replies are valid on the first attempt, so every judge
 * makes exactly one call.
 */
export function benchChatHandler(delayMs: number, counts: Record<MockCallKind, number>) {
  return (request: RecordedRequest): MockServerReply => {
    const kind = callKind(request.body);
    counts[kind] += 1;
    const user = messagesOf(request.body).findLast((message) => message.role === 'user')?.content ?? '';
    let content: string;
    if (kind === 'faithfulness') content = faithfulnessJudgeReply(user);
    else if (kind === 'pairwise') content = JSON.stringify(PAIRWISE_REPLY);
    else content = generatorReply(user);
    return { ...chatReply(content, { model: 'bench-model', promptTokens: Math.ceil(user.length / 4), completionTokens: Math.ceil(content.length / 4) }), delayMs };
  };
}

function messagesOf(body: Record<string, unknown>): { role: string; content: string }[] {
  const messages = Array.isArray(body.messages) ? (body.messages as { role?: unknown; content?: unknown }[]) : [];
  return messages.map((message) => ({ role: String(message.role ?? ''), content: typeof message.content === 'string' ? message.content : '' }));
}

function generatorReply(user: string): string {
  if (!user.includes('<document')) return 'Most employers ask for manager approval first; check the policy that applies to you.';
  const document = /<document id="[^"]*">\n([\s\S]*?)\n<\/document>/.exec(user)?.[1];
  if (!document) return REFUSAL_SENTENCE;
  const sentence = document.split(/(?<=[.!?])\s+/).find((part) => part.trim().length > 20) ?? document.slice(0, 200);
  return sentence.trim();
}

const SIDE = { citesRightSource: false, statesConditions: true };
const PAIRWISE_REPLY = { reason: 'Both answers address the question; A states the condition.', a: SIDE, b: { ...SIDE, statesConditions: false }, winner: 'A' };
