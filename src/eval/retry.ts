import { ApiCallError } from '../errors.js';
import type { ChatModel } from '../providers/spec.js';

export interface RetryOptions {
  /** Retries after the first attempt, on retryable errors only (`ApiCallError.isRetryable`). [maxRetries=2] */
  maxRetries?: number;
  /** First backoff delay; doubles each retry, with ±25% jitter. [initialDelayMs=500] */
  initialDelayMs?: number;
  /** Longest backoff delay (a server's Retry-After is honoured up to this). [maxDelayMs=20000] */
  maxDelayMs?: number;
  /** Wait function, for tests. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Random source for jitter, for tests. [random=Math.random] */
  random?: () => number;
  /** Called before each retry. */
  onRetry?: (event: { attempt: number; delayMs: number; error: ApiCallError }) => void;
}

/**
 * Retry a chat model's calls with exponential backoff on retryable errors (408/409/429/5xx,
 * timeouts, dropped connections). Other errors, and authentication failures, fail at once.
 *
 * Wrap at one level only: the `openai` provider retries inside its SDK (`maxRetries`), so give it
 * `maxRetries: 0` when you wrap it here, or the attempts multiply (3 × 3 = 9 per call). The eval
 * CLI does exactly that.
 *
 * @example
 * const chat = withRetry(createOpenAI({ maxRetries: 0 }).chat('gpt-4o-mini'), { maxRetries: 2 });
 */
export function withRetry(chat: ChatModel, options: RetryOptions = {}): ChatModel {
  const maxRetries = checkedRetries(options);
  if (maxRetries === 0) return chat;
  return {
    provider: chat.provider,
    modelId: chat.modelId,
    generate: (call) => retrying(() => chat.generate(call), options, call.abortSignal),
  };
}

/**
 * Run any operation (a model call, a request to an eval target) with the retry rules of
 * {@link withRetry}: exponential backoff with jitter on retryable `ApiCallError`s only, honouring
 * `Retry-After`, never on authentication errors or after `signal` aborted.
 *
 * @example
 * const reply = await retrying(() => fetchAnswer(question), { maxRetries: 2 });
 */
export async function retrying<T>(operation: () => Promise<T>, options: RetryOptions = {}, signal?: AbortSignal): Promise<T> {
  const maxRetries = checkedRetries(options);
  const initialDelayMs = options.initialDelayMs ?? 500;
  const maxDelayMs = options.maxDelayMs ?? 20_000;
  const sleep = options.sleep ?? defaultSleep;
  const random = options.random ?? Math.random;
  for (let attempt = 1; ; attempt++) {
    try {
      return await operation();
    } catch (error) {
      if (!(error instanceof ApiCallError) || !error.isRetryable || error.isAuthError || attempt > maxRetries || signal?.aborted) throw error;
      const backoff = initialDelayMs * 2 ** (attempt - 1) * (0.75 + random() * 0.5);
      const delayMs = Math.min(maxDelayMs, Math.max(backoff, retryAfterMs(error) ?? 0));
      options.onRetry?.({ attempt, delayMs, error });
      await sleep(delayMs, signal);
    }
  }
}

function checkedRetries(options: RetryOptions): number {
  const maxRetries = options.maxRetries ?? 2;
  if (!Number.isInteger(maxRetries) || maxRetries < 0) throw new RangeError(`option maxRetries ${String(maxRetries)} is invalid: use a whole number`);
  return maxRetries;
}

/** A server's `Retry-After` (seconds or HTTP date) from the error's `cause` (the SDK error or the fetch response), if any. */
function retryAfterMs(error: ApiCallError): number | null {
  const headers = (error.cause as { headers?: { get?: (name: string) => string | null } } | undefined)?.headers;
  const value = typeof headers?.get === 'function' ? headers.get('retry-after') : null;
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}

function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
