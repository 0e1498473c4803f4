import { InvalidInputError } from '../errors.js';
import { createLocalEmbedder } from './local/embedder.js';
import { createLocalChatModel } from './local/generator.js';
import { createSentenceEncoderEmbedder } from './local/sentence-embedder.js';
import { createOpenAI } from './openai.js';
import type { ChatModel, EmbeddingModel } from './spec.js';

/** Environment variables groundcheck reads; every one is listed in the README's configuration table. */
export interface GroundcheckEnv {
  OPENAI_API_KEY?: string | undefined;
  OPENAI_BASE_URL?: string | undefined;
  GROUNDCHECK_PROVIDER?: string | undefined;
  GROUNDCHECK_EMBED_PROVIDER?: string | undefined;
  GROUNDCHECK_CHAT_MODEL?: string | undefined;
  GROUNDCHECK_EMBED_MODEL?: string | undefined;
  GROUNDCHECK_EMBED_DIMENSIONS?: string | undefined;
  GROUNDCHECK_TIMEOUT_MS?: string | undefined;
  GROUNDCHECK_MAX_RETRIES?: string | undefined;
  [key: string]: string | undefined;
}

export type ProviderName = 'local' | 'openai';

/**
 * Who embeds: `local` (hashed words and word pieces, `local-hash-v1`), `use` (the pretrained
 * Universal Sentence Encoder lite, offline, `use-lite`) or `openai`.
 */
export type EmbedProviderName = ProviderName | 'use';

export interface ModelSelection {
  chat: ChatModel;
  embedder: EmbeddingModel;
  /** For logs and banners: `local (offline)` or `openai gpt-4o-mini at https://…`. */
  description: string;
}

export interface ModelOverrides {
  provider?: ProviderName;
  embedProvider?: EmbedProviderName;
  chatModel?: string;
  embedModel?: string;
}

export const DEFAULT_CHAT_MODEL = 'gpt-4o-mini';
export const DEFAULT_EMBED_MODEL = 'text-embedding-3-small';

/**
 * Pick the chat model and embedder from the environment: the offline `local` provider unless
 * `GROUNDCHECK_PROVIDER=openai` or `OPENAI_API_KEY` is set.
 *
 * @example
 * const { chat, embedder, description } = modelsFromEnv(process.env);
 */
export function modelsFromEnv(env: GroundcheckEnv = process.env, overrides: ModelOverrides = {}): ModelSelection {
  const provider = overrides.provider ?? providerName(env.GROUNDCHECK_PROVIDER, 'GROUNDCHECK_PROVIDER') ?? (env.OPENAI_API_KEY ? 'openai' : 'local');
  const embedProvider = overrides.embedProvider ?? embedProviderName(env.GROUNDCHECK_EMBED_PROVIDER, 'GROUNDCHECK_EMBED_PROVIDER') ?? provider;
  const dimensions = optionalInteger(env.GROUNDCHECK_EMBED_DIMENSIONS, 'GROUNDCHECK_EMBED_DIMENSIONS');
  if (embedProvider === 'use' && dimensions !== undefined && dimensions !== 512) {
    throw new InvalidInputError(`GROUNDCHECK_EMBED_DIMENSIONS=${dimensions} is invalid with GROUNDCHECK_EMBED_PROVIDER=use: its vectors have 512 dimensions`, {
      code: 'invalid_config',
    });
  }

  const openai = provider === 'openai' || embedProvider === 'openai' ? openaiFromEnv(env) : undefined;
  const chatModelId = overrides.chatModel ?? env.GROUNDCHECK_CHAT_MODEL ?? DEFAULT_CHAT_MODEL;
  const embedModelId = overrides.embedModel ?? env.GROUNDCHECK_EMBED_MODEL ?? DEFAULT_EMBED_MODEL;

  const chat = provider === 'openai' ? openai!.chat(chatModelId) : createLocalChatModel();
  const embedder =
    embedProvider === 'openai'
      ? openai!.embedding(embedModelId, dimensions !== undefined ? { dimensions } : {})
      : embedProvider === 'use'
        ? createSentenceEncoderEmbedder()
        : createLocalEmbedder(dimensions !== undefined ? { dimensions } : {});
  const where = openai ? ` at ${openai.baseURL}` : '';
  const description =
    provider === 'local' && embedProvider === 'local'
      ? 'local (offline: extractive answers, hashed embeddings)'
      : provider === 'local' && embedProvider === 'use'
        ? 'local (offline: extractive answers, sentence-encoder embeddings)'
        : `chat ${chat.provider}:${chat.modelId}, embeddings ${embedder.provider}:${embedder.modelId}${where}`;
  return { chat, embedder, description };
}

/** An OpenAI-compatible provider configured from the environment. */
export function openaiFromEnv(env: GroundcheckEnv = process.env) {
  const timeoutMs = optionalInteger(env.GROUNDCHECK_TIMEOUT_MS, 'GROUNDCHECK_TIMEOUT_MS');
  const maxRetries = optionalInteger(env.GROUNDCHECK_MAX_RETRIES, 'GROUNDCHECK_MAX_RETRIES');
  const apiKey = env.OPENAI_API_KEY;
  const baseURL = env.OPENAI_BASE_URL;
  return createOpenAI({
    ...(apiKey ? { apiKey } : { apiKey: '' }),
    ...(baseURL ? { baseURL } : {}),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    ...(maxRetries !== undefined ? { maxRetries } : {}),
  });
}

/** Variables of the LLM judge's endpoint, read by the eval and the live judge (README, "Configuration"). */
export interface JudgeEnv extends GroundcheckEnv {
  GROUNDCHECK_JUDGE_PROVIDER?: string | undefined;
  GROUNDCHECK_JUDGE_BASE_URL?: string | undefined;
  GROUNDCHECK_JUDGE_API_KEY?: string | undefined;
  GROUNDCHECK_JUDGE_MODEL?: string | undefined;
}

/**
 * The LLM judge's chat model from the environment: `GROUNDCHECK_JUDGE_BASE_URL`,
 * `GROUNDCHECK_JUDGE_API_KEY` and `GROUNDCHECK_JUDGE_MODEL`, each falling back to
 * `OPENAI_BASE_URL`, `OPENAI_API_KEY` and `GROUNDCHECK_CHAT_MODEL`; the generator's other
 * settings (timeout) apply. Used by the eval (`evalModelsFromEnv`) and the live judge
 * (`liveJudgeFromEnv`), so both call the same endpoint with the same model.
 *
 * @param options.maxRetries the SDK's retries [maxRetries=GROUNDCHECK_MAX_RETRIES, else the SDK's default]
 * @throws InvalidInputError `missing_api_key` when neither key is set.
 * @example
 * const { chat, baseURL } = judgeChatFromEnv(process.env, { maxRetries: 0 });
 */
export function judgeChatFromEnv(env: JudgeEnv, options: { maxRetries?: number } = {}): { chat: ChatModel; baseURL: string } {
  const apiKey = env.GROUNDCHECK_JUDGE_API_KEY || env.OPENAI_API_KEY;
  if (!apiKey) {
    throw new InvalidInputError('the openai judge needs an API key: set GROUNDCHECK_JUDGE_API_KEY or OPENAI_API_KEY (any non-empty value for a local server)', {
      code: 'missing_api_key',
    });
  }
  const openai = openaiFromEnv({
    ...env,
    OPENAI_API_KEY: apiKey,
    OPENAI_BASE_URL: env.GROUNDCHECK_JUDGE_BASE_URL || env.OPENAI_BASE_URL,
    ...(options.maxRetries !== undefined ? { GROUNDCHECK_MAX_RETRIES: String(options.maxRetries) } : {}),
  });
  return { chat: openai.chat(env.GROUNDCHECK_JUDGE_MODEL || env.GROUNDCHECK_CHAT_MODEL || DEFAULT_CHAT_MODEL), baseURL: openai.baseURL };
}

/** A provider name from an environment variable (`local` or `openai`); unset or empty is `undefined`. */
export function providerName(value: string | undefined, name: string): ProviderName | undefined {
  if (value === undefined || value === '') return undefined;
  if (value === 'local' || value === 'openai') return value;
  throw new InvalidInputError(`${name}=${value} is invalid: use local or openai`, { code: 'invalid_config' });
}

/** An embedding provider name from an environment variable (`local`, `use` or `openai`); unset or empty is `undefined`. */
export function embedProviderName(value: string | undefined, name: string): EmbedProviderName | undefined {
  if (value === 'use') return value;
  if (value === 'local' || value === 'openai' || value === undefined || value === '') return providerName(value, name);
  throw new InvalidInputError(`${name}=${value} is invalid: use local (hashed), use (Universal Sentence Encoder lite, offline) or openai`, { code: 'invalid_config' });
}

function optionalInteger(value: string | undefined, name: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) throw new InvalidInputError(`${name}=${value} is invalid: use a whole number`, { code: 'invalid_config' });
  return parsed;
}
