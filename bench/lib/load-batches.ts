import { Agent, request } from 'node:http';

/** One batch's figures; a batch that saw anything but 2xx responses throws {@link BatchLoadError} instead. */
export interface BatchResult {
  /** From the first request sent to the last response read, ms. */
  elapsedMs: number;
  /** 2xx responses (every request of a batch that returns). */
  ok: number;
  /** Always 0 in a returned result: kept so a result and an error's counts read alike. */
  non2xx: number;
  errors: number;
  /** Most requests in flight at once (at most the loader's `concurrency`). */
  maxInFlight: number;
}

/** A batch that saw a non-2xx response or a request error: its figures mean nothing for a comparison. */
export class BatchLoadError extends Error {
  constructor(
    message: string,
    /** The batch's counts when it stopped (requests not yet sent when the first failure came are not sent). */
    readonly counts: { ok: number; non2xx: number; errors: number },
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'BatchLoadError';
  }
}

export interface BatchLoaderOptions {
  /** The server's origin, e.g. `http://127.0.0.1:3000`. */
  url: string;
  /** Requests in flight at once, each connection sending its next request when the last is answered. */
  concurrency: number;
  /** [path='/api/chat'] */
  path?: string;
  /** A request not answered within this fails the batch. [timeoutMs=30000] */
  timeoutMs?: number;
}

/** A closed-loop load generator for one server, its connections kept alive between batches. */
export interface BatchLoader {
  /**
   * Send exactly `bodies.length` JSON POSTs, in order, with at most `concurrency` in flight;
   * resolves when the last response has been read, rejects with {@link BatchLoadError} on a
   * non-2xx response or a request error (after the requests in flight have ended).
   */
  run(bodies: readonly string[]): Promise<BatchResult>;
  /** Close the kept-alive connections. */
  close(): void;
}

/**
 * A fixed amount of work at a fixed concurrency, timed: where a duration-bound round (autocannon)
 * measures how much is done in a time, a batch measures how long a given list of requests takes,
 * so batches of different apps in the same list and order do the same work and can be paired.
 * Node's own `http` with one keep-alive agent per server (`maxSockets` = `concurrency`): after
 * the first batch no connection is opened inside a timed batch.
 *
 * @example
 * const loader = batchLoader({ url: 'http://127.0.0.1:3000', concurrency: 10 });
 * const { elapsedMs } = await loader.run(bodies); // bodies: JSON strings
 * loader.close();
 */
export function batchLoader(options: BatchLoaderOptions): BatchLoader {
  const { concurrency } = options;
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new RangeError(`option concurrency ${concurrency} is invalid: use a positive integer`);
  const target = new URL(options.path ?? '/api/chat', options.url);
  const timeoutMs = options.timeoutMs ?? 30_000;
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency, maxFreeSockets: concurrency });

  /** One request; resolves with its status once the whole response body has been read. */
  function send(body: string): Promise<number> {
    return new Promise((resolve, reject) => {
      const outgoing = request(
        target,
        { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
        (response) => {
          response.on('error', reject);
          response.on('end', () => resolve(response.statusCode ?? 0));
          response.on('close', () => {
            if (!response.complete) reject(new Error('the response ended before its body was complete'));
          });
          response.resume();
        },
      );
      outgoing.setTimeout(timeoutMs, () => outgoing.destroy(new Error(`no response within ${timeoutMs} ms`)));
      outgoing.on('error', reject);
      outgoing.end(body);
    });
  }

  return {
    async run(bodies) {
      const counts = { ok: 0, non2xx: 0, errors: 0 };
      let next = 0;
      let inFlight = 0;
      let maxInFlight = 0;
      let failure: string | null = null;
      let cause: unknown;
      const connection = async () => {
        while (failure === null && next < bodies.length) {
          const body = bodies[next++]!;
          inFlight++;
          maxInFlight = Math.max(maxInFlight, inFlight);
          try {
            const status = await send(body);
            if (status >= 200 && status < 300) counts.ok++;
            else {
              counts.non2xx++;
              failure ??= `HTTP ${status}`;
            }
          } catch (error) {
            counts.errors++;
            failure ??= (error as Error).message;
            cause ??= error;
          } finally {
            inFlight--;
          }
        }
      };
      const started = performance.now();
      await Promise.all(Array.from({ length: Math.min(concurrency, bodies.length) }, connection));
      const elapsedMs = performance.now() - started;
      if (failure !== null) {
        throw new BatchLoadError(`${target.href}: ${counts.ok} 2xx, ${counts.non2xx} non-2xx, ${counts.errors} errors in a batch of ${bodies.length} (first: ${failure})`, counts, { cause });
      }
      return { elapsedMs, ...counts, maxInFlight };
    },
    close() {
      agent.destroy();
    },
  };
}
