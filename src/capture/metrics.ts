import type { Request, Response } from 'express';
import { Counter, Gauge, Registry } from 'prom-client';
import { outcomeNames } from '../contract/outcome.js';
import { STORE_HEALTH_REASONS, type StoreHealth } from './store-health.js';

/**
 * The Prometheus metrics shared by the capture middleware and the live judge worker. Each app gets
 * its own `Registry` (never prom-client's global one), so several apps in one process never collide.
 */
export interface CaptureMetrics {
  readonly registry: Registry;
  /** `groundcheck_captures_total`: captures persisted. */
  readonly captures: Counter;
  /**
   * `groundcheck_capture_failures_total{reason}`: captures lost (`store`: the store refused them;
   * `queue_full`: dropped, more waiting than `maxQueue`; `build`: not a trace, or redaction threw;
   * `shutdown`: still unwritten when the middleware closed).
   */
  readonly captureFailures: Counter<'reason'>;
  /** `groundcheck_capture_queue`: captures waiting to be written, in the batch window or for a retry (read at scrape time). */
  readonly captureQueue: Gauge;
  /** `groundcheck_capture_store_up`: 1 while the capture store takes writes, 0 while it is degraded (read at scrape time). */
  readonly storeUp: Gauge;
  /** `groundcheck_capture_store_degraded_total{reason}`: times the capture store became degraded, by reason (`StoreHealthReason`). */
  readonly storeDegraded: Counter<'reason'>;
  /** `groundcheck_captures_sampled_out_total`: traces recorded but not kept by `sampleRate`. */
  readonly sampledOut: Counter;
  /** `groundcheck_judge_queue_depth`: captures waiting for a judgment of the worker's judge version (read at scrape time). */
  readonly queueDepth: Gauge;
  /** `groundcheck_judgments_total{outcome}`: judgments stored, by outcome (the contract's outcome table). */
  readonly judgments: Counter<'outcome'>;
  /** `groundcheck_judge_errors_total{kind}`: failed judge attempts (`retryable`, `final`, `auth`). */
  readonly judgeErrors: Counter<'kind'>;
  /** `groundcheck_judge_worker_paused`: 1 while the worker is paused on an authentication or billing error. */
  readonly workerPaused: Gauge;
  /** `groundcheck_otlp_exported_total{signal}`: spans (`traces`) and log records (`logs`) the OTLP endpoint accepted. */
  readonly otlpExported: Counter<'signal'>;
  /**
   * `groundcheck_otlp_export_failures_total{signal,reason}`: spans and log records lost by the OTLP
   * export (`export`: the endpoint failed or refused them; `queue_full`: more waiting than the
   * export queue holds; `build`: a capture or judgment could not be turned into telemetry).
   */
  readonly otlpExportFailures: Counter<'signal' | 'reason'>;
  /** Where `groundcheck_judge_queue_depth` reads from (at scrape time; the store may answer asynchronously); set by the worker. */
  setQueueDepthSource(source: (() => number | Promise<number>) | null): void;
  /** Where `groundcheck_capture_queue` and `groundcheck_capture_store_up` read from; set by `captureRag`. */
  setCaptureSource(source: { readonly queued: number; health(): StoreHealth } | null): void;
}

/**
 * Create the capture and judge metrics on `registry` (a new one by default).
 *
 * @example
 * const metrics = createCaptureMetrics();
 * app.use(captureRag({ metrics }));
 * app.get('/metrics', metricsHandler(metrics.registry));
 */
export function createCaptureMetrics(registry: Registry = new Registry()): CaptureMetrics {
  let depthSource: (() => number | Promise<number>) | null = null;
  let captureSource: { readonly queued: number; health(): StoreHealth } | null = null;
  const metrics: CaptureMetrics = {
    registry,
    captures: new Counter({ name: 'groundcheck_captures_total', help: 'RAG traces captured and persisted', registers: [registry] }),
    captureFailures: new Counter({
      name: 'groundcheck_capture_failures_total',
      help: 'Captures that could not be persisted (the request itself was unaffected)',
      labelNames: ['reason'],
      registers: [registry],
    }),
    captureQueue: new Gauge({
      name: 'groundcheck_capture_queue',
      help: 'Captures waiting to be written (batch window or retry)',
      registers: [registry],
      collect() {
        if (captureSource) this.set(captureSource.queued);
      },
    }),
    storeUp: new Gauge({
      name: 'groundcheck_capture_store_up',
      help: '1 while the capture store takes writes, 0 while it is degraded',
      registers: [registry],
      collect() {
        if (captureSource) this.set(captureSource.health().status === 'ok' ? 1 : 0);
      },
    }),
    storeDegraded: new Counter({
      name: 'groundcheck_capture_store_degraded_total',
      help: 'Times the capture store became degraded (captures stay queued meanwhile), by reason',
      labelNames: ['reason'],
      registers: [registry],
    }),
    sampledOut: new Counter({ name: 'groundcheck_captures_sampled_out_total', help: 'Recorded traces not kept because of sampleRate', registers: [registry] }),
    queueDepth: new Gauge({
      name: 'groundcheck_judge_queue_depth',
      help: 'Captures waiting for a judgment from the live judge',
      registers: [registry],
      async collect() {
        if (!depthSource) return;
        try {
          this.set(await depthSource());
        } catch {
          // A closed or busy store must not break the scrape; the last value stays.
        }
      },
    }),
    judgments: new Counter({ name: 'groundcheck_judgments_total', help: 'Judgments stored by the live judge, by outcome', labelNames: ['outcome'], registers: [registry] }),
    judgeErrors: new Counter({
      name: 'groundcheck_judge_errors_total',
      help: 'Failed live-judge attempts (retryable, final, auth)',
      labelNames: ['kind'],
      registers: [registry],
    }),
    workerPaused: new Gauge({
      name: 'groundcheck_judge_worker_paused',
      help: '1 while the live judge is paused on an authentication or billing error',
      registers: [registry],
    }),
    otlpExported: new Counter({
      name: 'groundcheck_otlp_exported_total',
      help: 'Spans and log records accepted by the OTLP endpoint',
      labelNames: ['signal'],
      registers: [registry],
    }),
    otlpExportFailures: new Counter({
      name: 'groundcheck_otlp_export_failures_total',
      help: 'Spans and log records the OTLP export lost (the request itself was unaffected)',
      labelNames: ['signal', 'reason'],
      registers: [registry],
    }),
    setQueueDepthSource(source) {
      depthSource = source;
    },
    setCaptureSource(source) {
      captureSource = source;
    },
  };
  // Zero-initialise so every series is visible before the first event.
  metrics.captures.inc(0);
  metrics.sampledOut.inc(0);
  for (const reason of ['store', 'queue_full', 'build', 'shutdown']) metrics.captureFailures.inc({ reason }, 0);
  for (const reason of STORE_HEALTH_REASONS) metrics.storeDegraded.inc({ reason }, 0);
  metrics.captureQueue.set(0);
  metrics.storeUp.set(1);
  for (const outcome of outcomeNames()) metrics.judgments.inc({ outcome }, 0);
  for (const kind of ['retryable', 'final', 'auth']) metrics.judgeErrors.inc({ kind }, 0);
  for (const signal of ['traces', 'logs']) {
    metrics.otlpExported.inc({ signal }, 0);
    for (const reason of ['export', 'queue_full', 'build']) metrics.otlpExportFailures.inc({ signal, reason }, 0);
  }
  metrics.workerPaused.set(0);
  metrics.queueDepth.set(0);
  return metrics;
}

/**
 * An Express handler serving `registry` in the Prometheus text format.
 *
 * @example
 * app.get('/metrics', metricsHandler(metrics.registry));
 */
export function metricsHandler(registry: Registry) {
  return async function groundcheckMetrics(_req: Request, res: Response): Promise<void> {
    res.set('Content-Type', registry.contentType);
    res.send(await registry.metrics());
  };
}
