/** The clock a crawl waits by; tests pass their own so a politeness delay costs no real time. */
export interface CrawlClock {
  /** Milliseconds, monotonic. [now=performance.now] */
  now(): number;
  /** Resolve after `ms` milliseconds (or reject when `signal` aborts). [sleep=timers/promises setTimeout] */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/**
 * Requests to one host go one at a time, each starting at least the host's delay after the previous
 * one started: the delay given for every host, or a longer one a host asked for (robots.txt
 * `Crawl-delay`). Hosts do not wait for each other.
 *
 * @example
 * const queue = new HostQueue({ delayMs: 1000, clock });
 * await queue.run('docs.example.com', () => fetch(url));
 */
export class HostQueue {
  private readonly delayMs: number;
  private readonly clock: CrawlClock;
  private readonly hostDelays = new Map<string, number>();
  private readonly lastStart = new Map<string, number>();
  private readonly tails = new Map<string, Promise<unknown>>();

  constructor(options: { delayMs: number; clock: CrawlClock }) {
    this.delayMs = options.delayMs;
    this.clock = options.clock;
  }

  /** A host's own delay (robots.txt `Crawl-delay`): used when longer than the default. */
  setHostDelay(host: string, delayMs: number): void {
    this.hostDelays.set(host, delayMs);
  }

  /** The delay between two requests to `host`. */
  delayFor(host: string): number {
    return Math.max(this.delayMs, this.hostDelays.get(host) ?? 0);
  }

  /** Run `request` in `host`'s turn. */
  run<T>(host: string, request: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const previous = this.tails.get(host) ?? Promise.resolve();
    const turn = previous
      .catch(() => undefined)
      .then(async () => {
        const last = this.lastStart.get(host);
        if (last !== undefined) {
          const wait = last + this.delayFor(host) - this.clock.now();
          if (wait > 0) await this.clock.sleep(wait, signal);
        }
        this.lastStart.set(host, this.clock.now());
        return request();
      });
    this.tails.set(host, turn);
    return turn;
  }
}
