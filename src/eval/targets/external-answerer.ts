import { GroundcheckError } from '../../errors.js';
import { traceFromPlain } from '../../contract/plain-trace.js';
import type { RagMode, RagTrace } from '../../contract/trace.js';
import { targetCacheKey, type LlmCache } from '../cache.js';
import type { Limiter } from '../limiter.js';
import { retrying, type RetryOptions } from '../retry.js';
import type { Answerer, TargetTally } from './answerer.js';
import type { EvalTarget } from './types.js';

export interface ExternalAnswererOptions {
  target: EvalTarget;
  /** The run's 0-based index: part of the cache key, so `--runs 3` asks three times and a rerun hits. */
  run: number;
  cache: LlmCache | null;
  /** The run's one limiter over every call (target and judge together). */
  limiter: Limiter;
  retry: RetryOptions;
  tally: TargetTally;
  /** The app's refusal sentence, for refusal detection. [refusalSentence=REFUSAL_SENTENCE] */
  refusalSentence?: string;
}

/**
 * An external target as the runner's answerer: each (question, mode) is served from the cache
 * when it can be, else asked through the limiter with retries; the reply is validated and made a
 * trace by the contract's one conversion, `traceFromPlain`, so the judges see exactly the chunks
 * the target returned. Only a reply that converts is cached.
 */
export function externalAnswerer(options: ExternalAnswererOptions): Answerer {
  const { target, cache, limiter, tally } = options;
  const convert = (reply: unknown, query: string, mode: RagMode) =>
    traceFromPlain({ ...(reply !== null && typeof reply === 'object' ? reply : { answer: reply }), query, mode }, options.refusalSentence ? { refusalSentence: options.refusalSentence } : {});
  return {
    norag: target.norag,
    async answer(question, mode, signal): Promise<RagTrace> {
      const key = cache ? targetCacheKey(target, question.question, mode, `run=${options.run}`) : null;
      const stored = key ? cache!.getValue(key) : undefined;
      if (stored !== undefined) {
        // A stored reply that no longer converts (the schema changed) is a miss, and is overwritten.
        const fromCache = convert(stored, question.question, mode);
        if (fromCache.ok) {
          tally.cacheHits += 1;
          return fromCache.trace;
        }
      }
      const reply = await limiter(() =>
        retrying(
          async () => {
            try {
              const value = await target.answer(question.question, { mode, ...(signal ? { signal } : {}) });
              tally.calls += 1;
              return value;
            } catch (error) {
              tally.failedCalls += 1;
              throw error;
            }
          },
          options.retry,
          signal,
        ),
      );
      const result = convert(reply, question.question, mode);
      if (!result.ok) throw new GroundcheckError('invalid_target_response', `target ${target.name} (mode ${mode}) answered something that is not { answer, chunks: [{ id, text }] }: ${result.error}`);
      if (key) cache!.setValue(key, { provider: `target:${target.kind}`, modelId: target.name, value: reply });
      return result.trace;
    },
  };
}
