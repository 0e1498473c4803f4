import { InvalidInputError } from '../errors.js';
import type { ChatModel } from '../providers/spec.js';

/** Runs async tasks with at most `concurrency` of them in flight; the rest wait in FIFO order. */
export interface Limiter {
  <T>(task: () => Promise<T>): Promise<T>;
  readonly concurrency: number;
  /** Tasks running now. */
  readonly active: number;
  /** Tasks waiting for a slot. */
  readonly pending: number;
}

/**
 * A small p-limit: bound how many tasks run at once.
 *
 * @example
 * const limit = createLimiter(4);
 * const answers = await Promise.all(questions.map((question) => limit(() => ask(question))));
 */
export function createLimiter(concurrency: number): Limiter {
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new InvalidInputError(`option concurrency ${String(concurrency)} is invalid: use a whole number of at least 1`, { code: 'invalid_option' });
  }
  const queue: (() => void)[] = [];
  let active = 0;
  const next = () => {
    if (active >= concurrency) return;
    const start = queue.shift();
    if (start) start();
  };
  const limit = (<T>(task: () => Promise<T>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      queue.push(() => {
        active += 1;
        // A task that throws synchronously still releases its slot.
        Promise.resolve()
          .then(task)
          .then(resolve, reject)
          .finally(() => {
            active -= 1;
            next();
          });
      });
      next();
    })) as Limiter;
  Object.defineProperties(limit, {
    concurrency: { value: concurrency },
    active: { get: () => active },
    pending: { get: () => queue.length },
  });
  return limit;
}

/**
 * A chat model whose calls go through `limiter`: share one limiter between several models (the
 * generator and the judge) to bound the model calls in flight across a whole eval run.
 */
export function withLimiter(chat: ChatModel, limiter: Limiter): ChatModel {
  return {
    provider: chat.provider,
    modelId: chat.modelId,
    generate: (call) => limiter(() => chat.generate(call)),
  };
}
