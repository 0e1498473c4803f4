import autocannon from 'autocannon';
import { percentile } from './stats.js';

/** One load round against an HTTP server, with per-request latencies at sub-millisecond resolution. */
export interface LoadRoundResult {
  /** 2xx responses per second over the round. */
  rps: number;
  /** Percentiles of the 2xx responses' latencies, ms, from every request's own timing. */
  p50Ms: number;
  p99Ms: number;
  /** 2xx responses. */
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  seconds: number;
  /** autocannon's own p50/p99 (its histogram keeps whole milliseconds), for comparison. */
  autocannonP50Ms: number;
  autocannonP99Ms: number;
}

export interface LoadRoundOptions {
  url: string;
  connections: number;
  /** Requests per second across all connections; absent: as fast as the server answers. */
  overallRate?: number;
  durationSeconds: number;
  /** Request bodies, sent in turn by every connection. */
  bodies: readonly string[];
}

/**
 * Run autocannon for `durationSeconds` and time every response ourselves: autocannon's latency
 * histogram records whole milliseconds (`lowestDiscernibleValue: 1`), too coarse for a 0.1 ms
 * budget, so the `response` event's `responseTime` (a float from `process.hrtime`) is kept for
 * each 2xx response and the percentiles are computed from those.
 */
export function runLoadRound(options: LoadRoundOptions): Promise<LoadRoundResult> {
  const latencies: number[] = [];
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const instance = autocannon(
      {
        url: options.url,
        connections: options.connections,
        pipelining: 1,
        ...(options.overallRate ? { overallRate: options.overallRate } : {}),
        duration: options.durationSeconds,
        requests: options.bodies.map((body) => ({ method: 'POST', path: '/api/chat', headers: { 'content-type': 'application/json' }, body })),
      },
      (error, result) => {
        if (error) {
          reject(error);
          return;
        }
        const seconds = (performance.now() - started) / 1000;
        resolve({
          rps: latencies.length / seconds,
          p50Ms: percentile(latencies, 50),
          p99Ms: percentile(latencies, 99),
          ok: latencies.length,
          non2xx: result.non2xx,
          errors: result.errors,
          timeouts: result.timeouts,
          seconds,
          autocannonP50Ms: result.latency.p50,
          autocannonP99Ms: result.latency.p99,
        });
      },
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
    });
  });
}
