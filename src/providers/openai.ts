import OpenAI from 'openai';
import { ApiCallError, errorMessage, InvalidInputError, TimeoutError } from '../errors.js';
import { extractJsonObject } from './json.js';
import { costOf, PRICES, type ModelPrice } from './prices.js';
import type {
  ChatCallOptions,
  ChatModel,
  ChatModelId,
  ChatResult,
  ChatStreamPart,
  EmbedOptions,
  EmbedResult,
  EmbeddingModel,
  EmbeddingModelId,
  FinishReason,
  JsonResponseFormat,
} from './spec.js';

export interface OpenAIProviderSettings {
  /** API key. [apiKey=process.env.OPENAI_API_KEY] Local servers accept any non-empty string. */
  apiKey?: string;
  /** Endpoint, e.g. `http://localhost:11434/v1` for Ollama. [baseURL=process.env.OPENAI_BASE_URL ?? 'https://api.openai.com/v1'] */
  baseURL?: string;
  /** Per-request timeout in milliseconds. [timeoutMs=60000] */
  timeoutMs?: number;
  /** Retries on 408/409/429/5xx, timeouts and dropped connections, with exponential backoff (honouring Retry-After). None on other 4xx. [maxRetries=2] */
  maxRetries?: number;
  /** Prices used for cost; merged over the built-in table. */
  prices?: Record<string, ModelPrice>;
  /** A fetch implementation, for tests or proxies. */
  fetch?: typeof globalThis.fetch;
  /** Extra headers on every request. */
  headers?: Record<string, string>;
}

export interface OpenAIChatSettings {
  /**
   * How to ask for JSON: `json_schema` (strict structured output), `json_object`, or `prompt`
   * (schema in the prompt only). When the server rejects `json_schema`, the model falls back to
   * `prompt` for the rest of its life and reports a warning. [structuredOutputs='json_schema']
   */
  structuredOutputs?: 'json_schema' | 'json_object' | 'prompt';
  /** The request field that caps output tokens. [maxTokensField='max_tokens'] */
  maxTokensField?: 'max_tokens' | 'max_completion_tokens';
}

export interface OpenAIEmbeddingSettings {
  /** Vector length. Known for OpenAI's models; required for others (see `detectEmbeddingDimensions`). */
  dimensions?: number;
  /** Send `dimensions` to the API to shorten vectors (text-embedding-3 only). [requestDimensions=false] */
  requestDimensions?: boolean;
  /** Minimum cosine similarity for the retrieval gate. [suggestedMinSimilarity=0.25] */
  suggestedMinSimilarity?: number;
  /** Inputs per request. [maxBatchSize=256] */
  maxBatchSize?: number;
}

const KNOWN_DIMENSIONS: Record<string, number> = {
  'text-embedding-3-small': 1536,
  'text-embedding-3-large': 3072,
  'text-embedding-ada-002': 1536,
};

/**
 * A provider for any OpenAI-compatible endpoint: OpenAI itself, Ollama, vLLM, llama.cpp's server.
 *
 * @example
 * const openai = createOpenAI({ baseURL: 'http://localhost:11434/v1', apiKey: 'ollama' });
 * const chat = openai.chat('llama3.1');
 * const embedder = openai.embedding('nomic-embed-text', { dimensions: 768 });
 */
export function createOpenAI(settings: OpenAIProviderSettings = {}) {
  const apiKey = settings.apiKey ?? process.env.OPENAI_API_KEY;
  const baseURL = settings.baseURL ?? process.env.OPENAI_BASE_URL ?? undefined;
  if (!apiKey) {
    throw new InvalidInputError(
      'the openai provider needs an API key: set OPENAI_API_KEY (any non-empty value for Ollama, vLLM or llama.cpp)',
      { code: 'missing_api_key' },
    );
  }
  const client = new OpenAI({
    apiKey,
    baseURL,
    timeout: settings.timeoutMs ?? 60_000,
    maxRetries: settings.maxRetries ?? 2,
    ...(settings.fetch ? { fetch: settings.fetch } : {}),
    ...(settings.headers ? { defaultHeaders: settings.headers } : {}),
  });
  const prices = { ...PRICES, ...settings.prices };
  return {
    client,
    baseURL: client.baseURL,
    chat: (modelId: ChatModelId, chatSettings: OpenAIChatSettings = {}): ChatModel => new OpenAIChatModel(client, modelId, prices, chatSettings),
    embedding: (modelId: EmbeddingModelId, embeddingSettings: OpenAIEmbeddingSettings = {}): EmbeddingModel =>
      new OpenAIEmbeddingModel(client, modelId, prices, embeddingSettings),
  };
}

export type OpenAIProvider = ReturnType<typeof createOpenAI>;

class OpenAIChatModel implements ChatModel {
  readonly provider = 'openai';
  private structuredOutputs: 'json_schema' | 'json_object' | 'prompt';
  private readonly maxTokensField: 'max_tokens' | 'max_completion_tokens';

  constructor(
    private readonly client: OpenAI,
    readonly modelId: ChatModelId,
    private readonly prices: Record<string, ModelPrice>,
    settings: OpenAIChatSettings,
  ) {
    this.structuredOutputs = settings.structuredOutputs ?? 'json_schema';
    this.maxTokensField = settings.maxTokensField ?? 'max_tokens';
  }

  async generate(options: ChatCallOptions): Promise<ChatResult> {
    const warnings: string[] = [];
    try {
      return await this.request(options, warnings);
    } catch (error) {
      const mapped = mapError(error, this.client.baseURL);
      const rejectedFormat =
        options.responseFormat?.type === 'json' &&
        this.structuredOutputs !== 'prompt' &&
        mapped.statusCode === 400 &&
        /response_format|json_schema|structured/i.test(`${mapped.message} ${mapped.responseBody ?? ''}`);
      if (!rejectedFormat) throw mapped;
      warnings.push(`${this.modelId} at ${this.client.baseURL} rejected response_format ${this.structuredOutputs}; asking for JSON in the prompt instead`);
      this.structuredOutputs = 'prompt';
      try {
        return await this.request(options, warnings);
      } catch (retryError) {
        throw mapError(retryError, this.client.baseURL);
      }
    }
  }

  /**
   * The reply as it arrives (`stream: true`, with `stream_options.include_usage` so the last
   * chunk carries the token counts; a server that ignores it gives `null` usage). A server that
   * rejects `json_schema` is not retried here: stream JSON replies with `structuredOutputs: 'prompt'`.
   */
  async *stream(options: ChatCallOptions): AsyncGenerator<ChatStreamPart, void, undefined> {
    const warnings: string[] = [];
    const { body, format } = this.requestBody(options);
    const url = this.client.baseURL;
    let text = '';
    let finishReason: string | null | undefined;
    let usage: OpenAI.CompletionUsage | undefined;
    let modelId = this.modelId;
    try {
      const stream = await this.client.chat.completions.create(
        { ...body, stream: true, stream_options: { include_usage: true } },
        { ...(options.abortSignal ? { signal: options.abortSignal } : {}) },
      );
      for await (const chunk of stream) {
        if (chunk.model) modelId = chunk.model;
        if (chunk.usage) usage = chunk.usage;
        const choice = chunk.choices[0];
        if (choice?.finish_reason) finishReason = choice.finish_reason;
        const delta = choice?.delta?.content;
        if (delta) {
          text += delta;
          yield { type: 'text-delta', text: delta };
        }
      }
    } catch (error) {
      throw mapError(error, url);
    }
    // The SDK ends the iteration quietly when the signal aborts: a cut reply is no finished one.
    if (options.abortSignal?.aborted) throw new ApiCallError(`request to ${url} was aborted`, { url, cause: options.abortSignal.reason, isRetryable: false, code: 'aborted' });
    yield { type: 'finish', result: this.result(text, usage, finishReason, modelId, format, warnings) };
  }

  private async request(options: ChatCallOptions, warnings: string[]): Promise<ChatResult> {
    const { body, format } = this.requestBody(options);
    const completion = await this.client.chat.completions.create(
      { ...body, stream: false },
      { ...(options.abortSignal ? { signal: options.abortSignal } : {}) },
    );
    const choice = completion.choices[0];
    return this.result(choice?.message?.content ?? '', completion.usage, choice?.finish_reason, completion.model || this.modelId, format, warnings);
  }

  /** The request body both `generate` and `stream` send (without `stream`). */
  private requestBody(options: ChatCallOptions): { body: OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming; format: JsonResponseFormat | undefined } {
    const messages = options.messages.map((message) => ({ role: message.role, content: message.content }));
    const format = options.responseFormat?.type === 'json' ? options.responseFormat : undefined;
    let responseFormat: OpenAI.Chat.Completions.ChatCompletionCreateParams['response_format'];
    if (format && this.structuredOutputs === 'json_schema') {
      responseFormat = {
        type: 'json_schema',
        json_schema: { name: format.name, schema: format.schema, strict: true, ...(format.description ? { description: format.description } : {}) },
      };
    } else if (format && this.structuredOutputs === 'json_object') {
      responseFormat = { type: 'json_object' };
    }
    if (format && this.structuredOutputs !== 'json_schema') {
      messages.push({
        role: 'system',
        content: `Reply with only one JSON object that matches this JSON Schema, and no other text:\n${JSON.stringify(format.schema)}`,
      });
    }
    const body: OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming = {
      model: this.modelId,
      messages,
      ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
      ...(options.maxOutputTokens !== undefined ? { [this.maxTokensField]: options.maxOutputTokens } : {}),
      ...(options.seed !== undefined ? { seed: options.seed } : {}),
      ...(responseFormat ? { response_format: responseFormat } : {}),
    };
    return { body, format };
  }

  private result(
    text: string,
    usage: OpenAI.CompletionUsage | undefined | null,
    finishReason: string | null | undefined,
    modelId: string,
    format: JsonResponseFormat | undefined,
    warnings: string[],
  ): ChatResult {
    const inputTokens = usage?.prompt_tokens ?? null;
    const outputTokens = usage?.completion_tokens ?? null;
    const result: ChatResult = {
      text,
      usage: { inputTokens, outputTokens, totalTokens: usage?.total_tokens ?? null },
      finishReason: mapFinishReason(finishReason),
      costUsd: costOf(modelId, inputTokens, outputTokens, this.prices) ?? costOf(this.modelId, inputTokens, outputTokens, this.prices),
      warnings,
      modelId,
    };
    if (format) {
      const parsed = extractJsonObject(text);
      if (parsed.ok) result.json = parsed.value;
    }
    return result;
  }
}

class OpenAIEmbeddingModel implements EmbeddingModel {
  readonly provider = 'openai';
  readonly dimensions: number;
  readonly fingerprint: string;
  readonly suggestedMinSimilarity: number;
  readonly maxBatchSize: number;
  private readonly requestDimensions: boolean;

  constructor(
    private readonly client: OpenAI,
    readonly modelId: EmbeddingModelId,
    private readonly prices: Record<string, ModelPrice>,
    settings: OpenAIEmbeddingSettings,
  ) {
    const dimensions = settings.dimensions ?? KNOWN_DIMENSIONS[modelId];
    if (dimensions === undefined) {
      throw new InvalidInputError(
        `the vector length of embedding model "${modelId}" is unknown: set GROUNDCHECK_EMBED_DIMENSIONS (or the dimensions option)`,
        { code: 'unknown_dimensions' },
      );
    }
    if (!Number.isInteger(dimensions) || dimensions < 1 || dimensions > 8192) {
      throw new InvalidInputError(`option dimensions ${String(dimensions)} is invalid: use an integer from 1 to 8192`, { code: 'invalid_option' });
    }
    this.dimensions = dimensions;
    this.requestDimensions = settings.requestDimensions ?? false;
    this.suggestedMinSimilarity = settings.suggestedMinSimilarity ?? 0.25;
    this.maxBatchSize = settings.maxBatchSize ?? 256;
    this.fingerprint = `openai:${modelId};d=${dimensions}`;
  }

  async embed(options: EmbedOptions): Promise<EmbedResult> {
    if (options.values.length === 0) return { embeddings: [], usage: { tokens: 0 }, costUsd: 0 };
    let response;
    try {
      response = await this.client.embeddings.create(
        {
          model: this.modelId,
          input: options.values,
          // Without this the SDK asks for base64 and decodes it; servers that ignore the field
          // answer with floats that the SDK would then mis-decode into garbage.
          encoding_format: 'float',
          ...(this.requestDimensions ? { dimensions: this.dimensions } : {}),
        },
        { ...(options.abortSignal ? { signal: options.abortSignal } : {}) },
      );
    } catch (error) {
      throw mapError(error, this.client.baseURL);
    }
    const ordered = [...response.data].sort((a, b) => a.index - b.index);
    if (ordered.length !== options.values.length) {
      throw new ApiCallError(`embedding endpoint returned ${ordered.length} vectors for ${options.values.length} inputs`, { isRetryable: false });
    }
    const embeddings = ordered.map((item) => {
      if (!Array.isArray(item.embedding) || item.embedding.length !== this.dimensions) {
        throw new ApiCallError(
          `embedding model "${this.modelId}" returned ${Array.isArray(item.embedding) ? item.embedding.length : 'non-array'} values; expected ${this.dimensions} (check GROUNDCHECK_EMBED_DIMENSIONS)`,
          { isRetryable: false },
        );
      }
      return Float32Array.from(item.embedding);
    });
    const tokens = response.usage?.prompt_tokens ?? null;
    return { embeddings, usage: { tokens }, costUsd: costOf(this.modelId, tokens, 0, this.prices) };
  }
}

/** Ask the endpoint for one embedding to learn a model's vector length. */
export async function detectEmbeddingDimensions(provider: OpenAIProvider, modelId: string): Promise<number> {
  try {
    const response = await provider.client.embeddings.create({ model: modelId, input: ['dimension probe'], encoding_format: 'float' });
    const length = response.data[0]?.embedding.length;
    if (!length) throw new ApiCallError(`embedding model "${modelId}" returned no vector`, { isRetryable: false });
    return length;
  } catch (error) {
    throw mapError(error, provider.client.baseURL);
  }
}

function mapFinishReason(reason: string | null | undefined): FinishReason {
  switch (reason) {
    case 'stop':
      return 'stop';
    case 'length':
      return 'length';
    case 'content_filter':
      return 'content-filter';
    case 'tool_calls':
    case 'function_call':
      return 'tool-calls';
    case null:
    case undefined:
      return 'unknown';
    default:
      return 'other';
  }
}

/** Turn an SDK error into our typed errors, keeping the original as `cause`. */
export function mapError(error: unknown, url: string): ApiCallError {
  if (error instanceof ApiCallError) return error;
  if (error instanceof OpenAI.APIConnectionTimeoutError) {
    return new TimeoutError(`request to ${url} timed out`, { url, cause: error });
  }
  if (error instanceof OpenAI.APIUserAbortError) {
    return new ApiCallError(`request to ${url} was aborted`, { url, cause: error, isRetryable: false, code: 'aborted' });
  }
  if (error instanceof OpenAI.APIConnectionError) {
    return new ApiCallError(`could not reach ${url}: ${causeMessage(error)}`, { url, cause: error, isRetryable: true, code: 'connection_failed' });
  }
  if (error instanceof OpenAI.APIError) {
    const body = error.error === undefined ? undefined : JSON.stringify(error.error);
    return new ApiCallError(`${url} answered ${error.status ?? 'with an error'}: ${error.message}`, {
      url,
      cause: error,
      ...(error.status !== undefined ? { statusCode: error.status } : {}),
      ...(body !== undefined ? { responseBody: body } : {}),
    });
  }
  return new ApiCallError(`request to ${url} failed: ${errorMessage(error)}`, {
    url,
    cause: error,
    isRetryable: false,
  });
}

function causeMessage(error: Error): string {
  const cause = (error as { cause?: unknown }).cause;
  return cause instanceof Error ? cause.message : error.message;
}
