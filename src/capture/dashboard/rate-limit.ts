/** Wrong-token attempts a client may make per window before it is refused for the rest of it. */
export interface FailureLimitOptions {
  /** [maxFailures=10] */
  maxFailures?: number;
  /** [windowMs=900000] (15 minutes) */
  windowMs?: number;
  /** Clients remembered at once; beyond it the oldest are forgotten. [maxClients=10000] */
  maxClients?: number;
}

export interface FailureLimiter {
  /** Milliseconds until this client may try again, or 0 when it may try now. */
  retryAfterMs(client: string): number;
  /** Count a wrong attempt. */
  fail(client: string): void;
  /** Forget a client's failures (it signed in). */
  reset(client: string): void;
}

/**
 * A fixed window per client, from its first wrong attempt: `maxFailures` wrong tokens, then every
 * attempt (right or wrong) is refused until the window ends. Memory is bounded by `maxClients`.
 */
export function createFailureLimiter(options: Required<FailureLimitOptions>, now: () => number): FailureLimiter {
  const clients = new Map<string, { failures: number; resetAt: number }>();
  const current = (client: string) => {
    const entry = clients.get(client);
    if (entry === undefined) return undefined;
    if (entry.resetAt <= now()) {
      clients.delete(client);
      return undefined;
    }
    return entry;
  };
  return {
    retryAfterMs(client) {
      const entry = current(client);
      return entry !== undefined && entry.failures >= options.maxFailures ? entry.resetAt - now() : 0;
    },
    fail(client) {
      const entry = current(client);
      if (entry !== undefined) {
        entry.failures += 1;
        return;
      }
      if (clients.size >= options.maxClients) {
        const time = now();
        for (const [key, value] of clients) if (value.resetAt <= time) clients.delete(key);
        // Still full: forget the oldest (Map keeps insertion order).
        while (clients.size >= options.maxClients) clients.delete(clients.keys().next().value!);
      }
      clients.set(client, { failures: 1, resetAt: now() + options.windowMs });
    },
    reset(client) {
      clients.delete(client);
    },
  };
}
