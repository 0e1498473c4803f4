/**
 * At most `max` explanations per `windowMs` (a sliding window): a loop of failing requests must
 * not turn into a loop of model calls. Over the limit the error page still shows the trimmed
 * stack, without an explanation.
 */
export interface RateLimiter {
  /** Takes a slot and returns true, or returns false when the window is full. */
  take(): boolean;
}

export function createRateLimiter(options: { max: number; windowMs: number; now?: () => number }): RateLimiter {
  const now = options.now ?? Date.now;
  const taken: number[] = [];
  return {
    take() {
      const time = now();
      while (taken.length > 0 && taken[0]! <= time - options.windowMs) taken.shift();
      if (taken.length >= options.max) return false;
      taken.push(time);
      return true;
    },
  };
}
