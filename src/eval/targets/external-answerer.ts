import { parsePlainAnswer, traceFromPlain, type PlainAnswer } from '../../contract/plain-trace.js';
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
 * when it can be, else asked through the limiter with retries, validated against the plain-answer
 * schema and stored; then made a trace by the contract's one conversion, `traceFromPlain`, so the
 * judges see exactly the chunks the target returned.
 */
export function externalAnswerer(options: ExternalAnswererOptions): Answerer {
  const { target, cache, limiter, tally } = options;
  return {
    norag: target.norag,
    async answer(question, mode, signal) {
      const source = `target ${target.name}, question ${question.id} (${mode})`;
      const key = cache ? targetCacheKey(target, question.question, mode, `run=${options.run}`) : null;
      let plain: PlainAnswer | null = key ? cachedAnswer(cache!, key) : null;
      let totalMs = 0;
      if (plain) tally.cacheHits += 1;
      else {
        const started = performance.now();
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
        totalMs = performance.now() - started;
        plain = parsePlainAnswer(reply, source);
        if (key) cache!.setValue(key, { provider: `target:${target.kind}`, modelId: target.name, value: plain });
      }
      return traceFromPlain({ ...plain, query: question.question, mode }, { totalMs, retriever: target.name, source, ...(options.refusalSentence ? { refusalSentence: options.refusalSentence } : {}) });
    },
  };
}

/** A stored answer that still validates; anything else is a miss (and is overwritten). */
function cachedAnswer(cache: LlmCache, key: string): PlainAnswer | null {
  const stored = cache.getValue(key);
  if (stored === undefined) return null;
  try {
    return parsePlainAnswer(stored);
  } catch {
    return null;
  }
}
