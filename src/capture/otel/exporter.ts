import type { Context, Span, SpanKind, Tracer } from '@opentelemetry/api';
import type { Logger as OtelLogger } from '@opentelemetry/api-logs';
import type { IdGenerator } from '@opentelemetry/sdk-trace';
import type { Logger } from 'pino';
import { createLogger } from '../logging.js';
import { createCaptureMetrics, type CaptureMetrics } from '../metrics.js';
import type { Capture, StoredJudgment } from '../types.js';
import { admit, countingExporter, type CountingContext, type OtlpSignal } from './counted.js';
import { loadOtelPackages, type OtelPackages, type OtlpProtocol } from './load.js';
import { normalizeOtlpOptions, type OtlpEvaluationSignal, type OtlpExporterOptions } from './options.js';
import { EVENT_GEN_AI_EVALUATION_RESULT, GENAI_SEMCONV_VERSION, SEMCONV_SCHEMA_URL, ATTR_SERVICE_NAME } from './semconv.js';
import { evaluationPlanOf, tracePlanOf, type Attributes, type SpanPlan, type SpanSettings } from './spans.js';

export interface OtlpExporter {
  /** Export written captures as traces; pass as (or call from) `captureRag({ onWritten })`. Never throws. */
  readonly onWritten: (captures: readonly Capture[]) => void;
  /** Export a stored judgment as a `gen_ai.evaluation.result`; pass as `createJudgeWorker({ onJudged })`. Never throws. */
  readonly onJudged: (capture: Capture, judgment: StoredJudgment) => void;
  /** Send everything queued now; resolves when the endpoint answered (failures are counted, not thrown). */
  flush(): Promise<void>;
  /** Flush, then stop; later captures and judgments are ignored. */
  shutdown(): Promise<void>;
  readonly endpoint: string;
  readonly protocol: OtlpProtocol;
  readonly captureContent: boolean;
  readonly evaluations: OtlpEvaluationSignal;
  /** The semantic-conventions release whose GenAI names are sent. */
  readonly semconvVersion: string;
  readonly metrics: CaptureMetrics;
}

const SCOPE_NAME = 'groundcheck';

/**
 * Export captures and judgments over OTLP/HTTP with the OpenTelemetry JS SDK: each capture as a
 * trace (a request span, a GenAI `retrieval` span and a `chat` span), each judgment as a
 * `gen_ai.evaluation.result` linked to the span it evaluates. Batched, off the request path (it
 * runs when captures are written and judgments stored); a failure is counted on `/metrics`
 * (`groundcheck_otlp_export_failures_total`) and logged, never thrown into the app.
 *
 * Its providers are its own: nothing global is registered, so an app with its own OpenTelemetry
 * setup keeps it untouched. The ids derive from groundcheck's trace id, so a judge worker in
 * another process links its judgments to the app's spans. The OpenTelemetry packages are loaded
 * here, so they are needed only when the export is on (they are optional peer dependencies).
 *
 * @throws InvalidInputError `invalid_option` for a bad option, `otel_packages_missing` when the packages are not installed.
 * @example
 * const otlp = await createOtlpExporter({ endpoint: 'http://localhost:4318', metrics, logger });
 * const worker = createJudgeWorker({ store, judge, metrics, onJudged: otlp.onJudged });
 * app.use(captureRag({ store, metrics, onWritten: (captures) => { worker.nudge(); otlp.onWritten(captures); } }));
 */
export async function createOtlpExporter(options: OtlpExporterOptions): Promise<OtlpExporter> {
  const config = normalizeOtlpOptions(options);
  const metrics = options.metrics ?? createCaptureMetrics();
  const logger = options.logger ?? createLogger();
  const evaluationLogs = config.evaluations !== 'spans';
  const evaluationSpans = config.evaluations !== 'logs';
  const otel = await loadOtelPackages(config.protocol, evaluationLogs);
  const { api } = otel;
  const settings: SpanSettings = { captureContent: config.captureContent, dataSourceId: config.dataSourceId, topK: config.topK };
  const resource = otel.resources.resourceFromAttributes({ [ATTR_SERVICE_NAME]: config.serviceName });
  const exporterConfig = (path: string) => ({ url: `${config.endpoint}/${path}`, headers: config.headers, timeoutMillis: config.timeoutMs });
  const batching = { maxQueueSize: config.maxQueueSize, scheduledDelayMillis: config.scheduledDelayMs, exportTimeoutMillis: config.timeoutMs + 1000 };
  const counting = (signal: OtlpSignal): CountingContext => ({ signal, metrics, logger, endpoint: config.endpoint, ledger: { handed: 0, exported: 0 } });

  const spanCounting = counting('traces');
  const ids = new PlannedIds(otel);
  const tracerProvider = new otel.sdkTrace.TracerProvider({
    resource,
    // groundcheck's own sampleRate already chose what to capture; OTEL_TRACES_SAMPLER must not thin it again.
    sampler: new otel.sdkTrace.AlwaysOnSampler(),
    idGenerator: ids,
    spanProcessors: [new otel.sdkTrace.BatchSpanProcessor({ exporter: countingExporter(new otel.TraceExporter(exporterConfig('v1/traces')), spanCounting), ...batching })],
  });
  const tracer = tracerProvider.getTracer(SCOPE_NAME, undefined, { schemaUrl: SEMCONV_SCHEMA_URL });

  const logCounting = counting('logs');
  let loggerProvider: { forceFlush(): Promise<void>; shutdown(): Promise<void> } | null = null;
  let eventLogger: OtelLogger | null = null;
  if (otel.logs) {
    const { sdkLogs, LogExporter } = otel.logs;
    const provider = new sdkLogs.LoggerProvider({
      resource,
      processors: [new sdkLogs.BatchLogRecordProcessor({ exporter: countingExporter(new LogExporter(exporterConfig('v1/logs')), logCounting), ...batching })],
    });
    loggerProvider = provider;
    eventLogger = provider.getLogger(SCOPE_NAME, undefined, { schemaUrl: SEMCONV_SCHEMA_URL });
  }

  const kinds: Record<SpanPlan['kind'], SpanKind> = { internal: api.SpanKind.INTERNAL, client: api.SpanKind.CLIENT };
  /** The context of a span known only by its ids (in this process or another). */
  const parentContext = (traceId: string, spanId: string): Context =>
    api.trace.setSpanContext(api.ROOT_CONTEXT, { traceId, spanId, traceFlags: api.TraceFlags.SAMPLED, isRemote: true });
  let stopped = false;

  function startSpan(traceId: string, plan: { name: string; kind: SpanPlan['kind']; spanId: string; parentSpanId: string | null; startMs: number; attributes: Attributes }): Span {
    ids.next(traceId, plan.spanId);
    const context = plan.parentSpanId === null ? api.ROOT_CONTEXT : parentContext(traceId, plan.parentSpanId);
    return tracer.startSpan(plan.name, { kind: kinds[plan.kind], startTime: plan.startMs, attributes: plan.attributes }, context);
  }

  function exportCapture(capture: Capture): void {
    const trace = tracePlanOf(capture, settings);
    if (!admit(spanCounting, config.maxQueueSize, trace.spans.length)) return;
    for (const plan of trace.spans) startSpan(trace.traceId, plan).end(plan.endMs);
  }

  function exportJudgment(capture: Capture, judgment: StoredJudgment): void {
    const evaluation = evaluationPlanOf(capture, judgment);
    if (eventLogger && admit(logCounting, config.maxQueueSize, 1)) {
      eventLogger.emit({
        eventName: EVENT_GEN_AI_EVALUATION_RESULT,
        timestamp: evaluation.timeMs,
        // INFO for a verdict; WARN for a judge error, as the conventions do for failed GenAI operations.
        severityNumber: judgment.status === 'error' ? 13 : 9,
        attributes: evaluation.attributes,
        context: parentContext(evaluation.traceId, evaluation.parentSpanId),
      });
    }
    if (evaluationSpans && admit(spanCounting, config.maxQueueSize, 1)) {
      const span = startSpan(evaluation.traceId, {
        name: `evaluation ${String(evaluation.attributes['gen_ai.evaluation.name'])}`,
        kind: 'internal',
        spanId: evaluation.spanId,
        parentSpanId: evaluation.parentSpanId,
        startMs: evaluation.startMs,
        attributes: evaluation.attributes,
      });
      span.addEvent(EVENT_GEN_AI_EVALUATION_RESULT, evaluation.attributes, evaluation.timeMs);
      if (judgment.status === 'error') span.setStatus({ code: api.SpanStatusCode.ERROR, message: judgment.error ?? 'judge error' });
      span.end(evaluation.timeMs);
    }
  }

  /** Anything thrown while turning a capture or judgment into telemetry is counted and logged here, never passed on. */
  function guarded<Args extends unknown[]>(signal: OtlpSignal, what: string, fn: (...args: Args) => void) {
    return (...args: Args): void => {
      if (stopped) return;
      try {
        fn(...args);
      } catch (error) {
        metrics.otlpExportFailures.inc({ signal, reason: 'build' });
        logger.error({ event: 'otlp.export_failed', signal, err: error }, `OTLP export: could not turn a ${what} into telemetry; it is not exported`);
      }
    };
  }

  const onWritten = guarded('traces', 'capture', (captures: readonly Capture[]) => {
    for (const capture of captures) guarded('traces', 'capture', exportCapture)(capture);
  });
  const onJudged = guarded(evaluationLogs ? 'logs' : 'traces', 'judgment', exportJudgment);

  async function flush(): Promise<void> {
    await Promise.all([tracerProvider.forceFlush(), loggerProvider?.forceFlush()]).catch((error: unknown) => {
      // The failed batch was counted and logged by the counting exporter.
      logger.debug({ event: 'otlp.flush_failed', err: error }, 'OTLP flush finished with a failed export');
    });
  }

  return {
    onWritten,
    onJudged,
    flush,
    async shutdown() {
      if (stopped) return;
      await flush();
      stopped = true;
      await Promise.all([tracerProvider.shutdown(), loggerProvider?.shutdown()]).catch(() => undefined);
    },
    endpoint: config.endpoint,
    protocol: config.protocol,
    captureContent: config.captureContent,
    evaluations: config.evaluations,
    semconvVersion: GENAI_SEMCONV_VERSION,
    metrics,
  };
}

/**
 * The SDK asks its id generator for a new span's ids (the span id first, then, for a root, the
 * trace id) synchronously inside `startSpan`; this one hands out the ids planned for that span, so
 * the ids are groundcheck's (see ids.ts). Random ids only if something else starts a span.
 */
class PlannedIds implements IdGenerator {
  private traceId: string | null = null;
  private spanId: string | null = null;

  constructor(private readonly otel: OtelPackages) {}

  next(traceId: string, spanId: string): void {
    this.traceId = traceId;
    this.spanId = spanId;
  }

  generateTraceId(): string {
    const id = this.traceId ?? this.random.generateTraceId();
    this.traceId = null;
    return id;
  }

  generateSpanId(): string {
    const id = this.spanId ?? this.random.generateSpanId();
    this.spanId = null;
    return id;
  }

  private get random(): IdGenerator {
    return new this.otel.sdkTrace.RandomIdGenerator();
  }
}
