/**
 * Test doubles for apps built on groundcheck: mock models that implement the provider spec, record
 * every call, and answer with a value, a list (one item per call, the last repeated) or a function.
 *
 * @example
 * import { MockChatModel } from 'groundcheck/testing';
 * const chat = new MockChatModel({ text: ['first answer', 'second answer'] });
 * await chat.generate({ messages: [{ role: 'user', content: 'hi' }] });
 * expect(chat.calls).toHaveLength(1);
 */
import { extractJsonObject } from '../providers/json.js';
import { fnv1a, words } from '../text/text.js';
import type { ChatCallOptions, ChatModel, ChatResult, ChatStreamPart, EmbedOptions, EmbedResult, EmbeddingModel } from '../providers/spec.js';
import { streamFromGenerate } from '../providers/stream.js';

/** A fixed value, one value per call (the last one repeats), or a function of the call. */
export type MockResponse<Value, Call> = Value | Value[] | ((call: Call, callIndex: number) => Value | Promise<Value>);

async function resolve<Value, Call>(response: MockResponse<Value, Call>, call: Call, callIndex: number): Promise<Value> {
  if (typeof response === 'function') return (response as (call: Call, index: number) => Value | Promise<Value>)(call, callIndex);
  if (Array.isArray(response)) {
    if (response.length === 0) throw new Error('mock response list is empty');
    return response[Math.min(callIndex, response.length - 1)]!;
  }
  return response;
}

export interface MockChatModelOptions {
  provider?: string;
  modelId?: string;
  /**
   * What to answer: a string, a partial result, an Error to throw, a list of those (one per call)
   * or a function of the call. [text='mock answer']
   */
  text?: MockResponse<string | Partial<ChatResult> | Error, ChatCallOptions>;
}

export class MockChatModel implements ChatModel {
  readonly provider: string;
  readonly modelId: string;
  /** Every call, in order. */
  readonly calls: ChatCallOptions[] = [];
  private readonly response: MockResponse<string | Partial<ChatResult> | Error, ChatCallOptions>;

  constructor(options: MockChatModelOptions = {}) {
    this.provider = options.provider ?? 'mock';
    this.modelId = options.modelId ?? 'mock-chat';
    this.response = options.text ?? 'mock answer';
  }

  async generate(call: ChatCallOptions): Promise<ChatResult> {
    const index = this.calls.length;
    this.calls.push(call);
    const value = await resolve(this.response, call, index);
    if (value instanceof Error) throw value;
    const partial: Partial<ChatResult> = typeof value === 'string' ? { text: value } : value;
    const text = partial.text ?? '';
    const result: ChatResult = {
      text,
      usage: partial.usage ?? { inputTokens: 10, outputTokens: 5, totalTokens: 15 },
      finishReason: partial.finishReason ?? 'stop',
      costUsd: partial.costUsd === undefined ? null : partial.costUsd,
      warnings: partial.warnings ?? [],
      modelId: partial.modelId ?? this.modelId,
    };
    if (partial.json !== undefined) result.json = partial.json;
    else if (call.responseFormat?.type === 'json') {
      const parsed = extractJsonObject(text);
      if (parsed.ok) result.json = parsed.value;
    }
    return result;
  }

  /** The same answer as `generate` (and recorded in `calls` the same way), in word-sized `text-delta` pieces. */
  stream(call: ChatCallOptions): AsyncIterable<ChatStreamPart> {
    return streamFromGenerate((options) => this.generate(options))(call);
  }
}

export interface MockEmbeddingModelOptions {
  provider?: string;
  modelId?: string;
  /** [dimensions=64] */
  dimensions?: number;
  /**
   * Vectors to return per input text: a vector, a list of vectors (one per call, the last repeats),
   * or a function of the text. [embedding=a deterministic bag-of-words hash of the text]
   */
  embedding?: MockResponse<number[] | Float32Array, { value: string; purpose: 'query' | 'document' }>;
  suggestedMinSimilarity?: number;
}

export class MockEmbeddingModel implements EmbeddingModel {
  readonly provider: string;
  readonly modelId: string;
  readonly dimensions: number;
  readonly fingerprint: string;
  readonly suggestedMinSimilarity: number;
  /** Every call, in order. */
  readonly calls: EmbedOptions[] = [];
  private readonly response: MockResponse<number[] | Float32Array, { value: string; purpose: 'query' | 'document' }>;

  constructor(options: MockEmbeddingModelOptions = {}) {
    this.provider = options.provider ?? 'mock';
    this.modelId = options.modelId ?? 'mock-embedding';
    this.dimensions = options.dimensions ?? 64;
    this.fingerprint = `${this.provider}:${this.modelId};d=${this.dimensions}`;
    this.suggestedMinSimilarity = options.suggestedMinSimilarity ?? 0.1;
    const given = options.embedding;
    // A flat list of numbers is one vector, not a list of per-call values.
    const isVector = given instanceof Float32Array || (Array.isArray(given) && typeof given[0] === 'number');
    this.response = isVector ? () => given as number[] | Float32Array : (given ?? ((call) => bagOfWords(call.value, this.dimensions)));
  }

  async embed(options: EmbedOptions): Promise<EmbedResult> {
    const callIndex = this.calls.length;
    this.calls.push(options);
    const purpose = options.purpose ?? 'document';
    const embeddings: Float32Array[] = [];
    for (const value of options.values) {
      const vector = await resolve(this.response, { value, purpose }, callIndex);
      if (vector.length !== this.dimensions) throw new Error(`mock embedding has ${vector.length} values; expected ${this.dimensions}`);
      embeddings.push(Float32Array.from(vector));
    }
    return { embeddings, usage: { tokens: null }, costUsd: null };
  }
}

/** A normalized hashed bag of lowercased words: texts sharing words get similar vectors. */
export function bagOfWords(text: string, dimensions: number): Float32Array {
  const vector = new Float32Array(dimensions);
  for (const word of words(text)) {
    if (word.length < 3) continue;
    vector[fnv1a(word) % dimensions]! += 1;
  }
  const norm = Math.hypot(...vector);
  if (norm === 0) vector[0] = 1;
  else for (let index = 0; index < dimensions; index++) vector[index]! /= norm;
  return vector;
}

export { chatReply, errorReply, pseudoVector, startMockOpenAIServer, streamReply } from './openai-server.js';
export type { MockOpenAIServer, MockOpenAIServerOptions, MockServerReply, MockStream, RecordedRequest } from './openai-server.js';
export { groundcheckMatchers, toAnswerCorrectly, toBeGrounded, toCite, toHaveOutcome, toRefuse } from './matchers.js';
export type { GroundedOptions, MatcherContext, MatcherResult, OutcomeOptions, RefuseOptions } from './matchers.js';
export { faithfulnessJudgeReply } from './judge-replies.js';
