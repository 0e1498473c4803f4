import type { Logger } from 'pino';
import type { CaptureMetrics } from '../metrics.js';

/**
 * Wrappers that make the OpenTelemetry SDK's batch processors loud. On their own they drop items
 * when their queue is full and report export failures only through OpenTelemetry's global `diag`
 * logger, which is silent unless the app configured it (and configuring it is the app's business,
 * not ours). Here every lost span or log record is counted on `/metrics` and logged.
 */

export type OtlpSignal = 'traces' | 'logs';

/** `ExportResultCode.SUCCESS` of `@opentelemetry/core` (a transitive dependency, not imported). */
const EXPORT_SUCCESS = 0;

interface ExportResult {
  code: number;
  error?: Error;
}

/** What the span and the log record exporters share. */
export interface ItemExporter<Item> {
  export(items: Item[], resultCallback: (result: ExportResult) => void): void;
  shutdown(): Promise<void>;
  forceFlush?(): Promise<void>;
}

/** The wrapped exporter: `forceFlush` always there, as the log record exporter's interface wants it. */
export interface CountingExporter<Item> extends ItemExporter<Item> {
  forceFlush(): Promise<void>;
}

/** Items handed to the processor and items it has passed on to the exporter: their difference is its queue. */
export interface QueueLedger {
  handed: number;
  exported: number;
}

export interface CountingContext {
  signal: OtlpSignal;
  metrics: CaptureMetrics;
  logger: Logger;
  endpoint: string;
  ledger: QueueLedger;
}

/** The exporter, counting what the endpoint accepted and what it failed or refused. */
export function countingExporter<Item, Inner extends ItemExporter<Item>>(inner: Inner, context: CountingContext): CountingExporter<Item> {
  const { signal, metrics, logger, endpoint, ledger } = context;
  return {
    export(items, resultCallback) {
      // The batch processor takes items off its queue right before this call.
      ledger.exported += items.length;
      inner.export(items, (result) => {
        if (result.code === EXPORT_SUCCESS) {
          metrics.otlpExported.inc({ signal }, items.length);
        } else {
          metrics.otlpExportFailures.inc({ signal, reason: 'export' }, items.length);
          logger.error(
            { event: 'otlp.export_failed', signal, endpoint, count: items.length, err: result.error },
            `OTLP export of ${items.length} ${signal === 'traces' ? 'span(s)' : 'log record(s)'} to ${endpoint} failed; they are lost`,
          );
        }
        resultCallback(result);
      });
    },
    shutdown: () => inner.shutdown(),
    forceFlush: () => inner.forceFlush?.() ?? Promise.resolve(),
  };
}

/**
 * Whether `count` more items fit in the batch processor's queue (`maxQueueSize`); when they do not,
 * they are counted as lost and not recorded at all (the processor would drop them without a word,
 * and a trace that lost its root span to a full queue is worse than a trace not sent). The queue
 * is what was handed to the processor and not yet passed to the exporter: the processor's own
 * check, on the same numbers.
 */
export function admit(context: CountingContext, maxQueueSize: number, count: number): boolean {
  const { ledger, metrics, logger, signal } = context;
  if (ledger.handed - ledger.exported + count > maxQueueSize) {
    metrics.otlpExportFailures.inc({ signal, reason: 'queue_full' }, count);
    // One line per burst: the first drop after the queue had room.
    if (!dropping.has(ledger)) {
      dropping.add(ledger);
      logger.error({ event: 'otlp.queue_full', signal, maxQueueSize }, `OTLP ${signal} queue full (${maxQueueSize}): dropping until the endpoint catches up`);
    }
    return false;
  }
  dropping.delete(ledger);
  ledger.handed += count;
  return true;
}

const dropping = new WeakSet<QueueLedger>();
