import { InvalidInputError } from '../errors.js';
import { judgeChatFromEnv, modelsFromEnv, openaiFromEnv, providerName, type JudgeEnv, type ProviderName } from '../providers/config.js';
import type { ChatModel, EmbeddingModel } from '../providers/spec.js';

/** Variables the eval reads on top of the generator's: the judge's (README, "Configuration"). */
export type EvalEnv = JudgeEnv;

export interface EvalModels {
  generator: ChatModel;
  embedder: EmbeddingModel;
  /** The LLM judge's chat model; `null` for the offline heuristic judges. */
  judgeChat: ChatModel | null;
  /** Retries per model call, applied once by the runner (the SDK's own retries are off). */
  maxRetries: number;
  /** Cache-key namespaces: the endpoints, so two servers with the same model name never share entries. */
  cacheNamespace: { generator: string; judge: string };
  description: { generator: string; embedder: string; judge: string };
}

export interface EvalModelOptions {
  /** Generator provider. [provider=GROUNDCHECK_PROVIDER, else 'local'] */
  provider?: ProviderName;
  /** Judge provider: `local` = heuristic judges. [judgeProvider=GROUNDCHECK_JUDGE_PROVIDER, else the generator's provider] */
  judgeProvider?: ProviderName;
}

/**
 * Build the eval's models from the environment. Unlike `modelsFromEnv`, the generator defaults to
 * the offline provider even when `OPENAI_API_KEY` is set: an eval that silently starts spending
 * money is a surprise; ask for `--provider openai`.
 *
 * The judge may use another endpoint than the generator: `GROUNDCHECK_JUDGE_BASE_URL`,
 * `GROUNDCHECK_JUDGE_API_KEY` and `GROUNDCHECK_JUDGE_MODEL`, each falling back to `OPENAI_BASE_URL`,
 * `OPENAI_API_KEY` and `GROUNDCHECK_CHAT_MODEL`.
 *
 * The chat models' SDK retries are turned off; the runner retries each chat call
 * `GROUNDCHECK_MAX_RETRIES` times (default 2), so retries happen at one level only. Embedding
 * calls keep the SDK's retries (the runner does not wrap them).
 *
 * @example
 * const models = evalModelsFromEnv(process.env, { provider: 'openai', judgeProvider: 'openai' });
 */
export function evalModelsFromEnv(env: EvalEnv, options: EvalModelOptions = {}): EvalModels {
  const provider = options.provider ?? providerName(env.GROUNDCHECK_PROVIDER, 'GROUNDCHECK_PROVIDER') ?? 'local';
  const judgeProvider = options.judgeProvider ?? providerName(env.GROUNDCHECK_JUDGE_PROVIDER, 'GROUNDCHECK_JUDGE_PROVIDER') ?? provider;
  const maxRetries = retriesFromEnv(env.GROUNDCHECK_MAX_RETRIES);
  // Embedding calls (ingest, retrieval) are not wrapped by the runner: they keep the SDK's retries.
  const { embedder } = modelsFromEnv(env, { provider });
  const { chat: generator } = modelsFromEnv({ ...env, GROUNDCHECK_MAX_RETRIES: '0' }, { provider });

  let judgeChat: ChatModel | null = null;
  let judgeBaseURL = '';
  if (judgeProvider === 'openai') {
    // The generator's settings (timeout, validation) with the judge's own endpoint and key; the runner retries.
    ({ chat: judgeChat, baseURL: judgeBaseURL } = judgeChatFromEnv(env, { maxRetries: 0 }));
  }
  const generatorBaseURL = provider === 'openai' ? openaiFromEnv(env).baseURL : '';
  return {
    generator,
    embedder,
    judgeChat,
    maxRetries,
    cacheNamespace: { generator: generatorBaseURL, judge: judgeBaseURL },
    description: {
      generator: `${generator.provider}:${generator.modelId}${generatorBaseURL ? ` at ${generatorBaseURL}` : ''}`,
      embedder: embedder.fingerprint,
      judge: judgeChat ? `llm ${judgeChat.provider}:${judgeChat.modelId} at ${judgeBaseURL}` : 'heuristic (offline)',
    },
  };
}

function retriesFromEnv(value: string | undefined): number {
  if (value === undefined || value === '') return 2;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0 || parsed > 20) {
    throw new InvalidInputError(`GROUNDCHECK_MAX_RETRIES=${value} is invalid: use a whole number from 0 to 20`, { code: 'invalid_config' });
  }
  return parsed;
}
