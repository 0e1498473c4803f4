import { ApiCallError } from '../errors.js';
import type { ChatCallOptions, ChatModel, ChatResult, ChatStreamPart } from './spec.js';

/**
 * Stream a reply from any chat model: its own `stream` when it has one, else `generate`'s reply
 * as one `text-delta` (so a caller needs no second code path for models that cannot stream).
 *
 * @example
 * for await (const part of streamChat(chat, { messages })) {
 *   if (part.type === 'text-delta') answer.write(part.text);
 * }
 */
export async function* streamChat(model: ChatModel, options: ChatCallOptions): AsyncGenerator<ChatStreamPart, void, undefined> {
  if (model.stream) {
    yield* model.stream(options);
    return;
  }
  const result = await model.generate(options);
  if (result.text !== '') yield { type: 'text-delta', text: result.text };
  yield { type: 'finish', result };
}

/**
 * A finished result as stream parts: its text in word-sized pieces (each piece a word with the
 * whitespace before it), then `finish`. For models that compute the whole reply at once (the
 * offline model) but are streamed by an app; it does not make the first token come any sooner.
 */
export function* partsOf(result: ChatResult, pieces: readonly string[] = splitPieces(result.text)): Generator<ChatStreamPart, void, undefined> {
  for (const text of pieces) yield { type: 'text-delta', text };
  yield { type: 'finish', result };
}

/** `"Twenty weeks, at full pay."` → `["Twenty", " weeks,", " at", " full", " pay."]`; joined, they give the text back exactly. */
export function splitPieces(text: string): string[] {
  return text.match(/\s*\S+|\s+$/g) ?? [];
}

/**
 * `stream` for a model that only has `generate`: the whole reply, then its pieces. The abort
 * signal is checked between pieces, as a streaming endpoint would stop sending.
 */
export function streamFromGenerate(generate: (options: ChatCallOptions) => Promise<ChatResult>): (options: ChatCallOptions) => AsyncIterable<ChatStreamPart> {
  return async function* stream(options) {
    const result = await generate(options);
    for (const part of partsOf(result)) {
      if (options.abortSignal?.aborted) throw new ApiCallError('the request was aborted', { code: 'aborted', isRetryable: false, cause: options.abortSignal.reason });
      yield part;
    }
  };
}
