/**
 * The OpenTelemetry JS SDK baseline of `bench:middleware`: the demo's pipeline, instrumented the
 * way an app would instrument it with the SDK, recording the same request, retrieval and chat
 * spans (same names and attributes, from `spanContentsOf`, the OTLP export's own) through a
 * `BatchSpanProcessor` with its default settings, into an exporter that only counts what it is
 * given, so the network is not measured. The spans are recorded inside the request, as
 * instrumentation does; ids are the SDK's random ones.
 */
import { ROOT_CONTEXT, SpanKind, trace as traceApi } from '@opentelemetry/api';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { AlwaysOnSampler, BatchSpanProcessor, TracerProvider, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace';
import { spanContentsOf, type SpanSettings, type SpanSource } from '../../src/capture/otel/spans.js';
import type { RagTrace } from '../../src/contract/trace.js';
import type { RagPipeline } from '../../src/rag/pipeline.js';
import { DEFAULT_TOP_K } from '../../src/rag/retrieve.js';

export interface OtelBaseline {
  pipeline: RagPipeline;
  /** Record one answered trace's spans, as the instrumented pipeline does after each answer. */
  record(trace: RagTrace, startedAt: number): void;
  /** Spans ended and spans the processor handed to the exporter so far. */
  stats(): { ended: number; exported: number };
  flush(): Promise<void>;
  shutdown(): Promise<void>;
}

const SETTINGS: SpanSettings = { captureContent: false, dataSourceId: 'harbourline-handbook', topK: DEFAULT_TOP_K };

/**
 * `onRecorded` gets the time each trace's spans took to record, µs (the benchmark's per-call
 * figure). `exporter`: where the counted spans go on (an OTLP exporter, bench:capture-path);
 * without one they stop at the count.
 */
export function instrumentWithOtelSdk(pipeline: RagPipeline, onRecorded: (micros: number) => void = () => {}, next?: SpanExporter): OtelBaseline {
  let ended = 0;
  let exported = 0;
  const exporter: SpanExporter = {
    export(spans: ReadableSpan[], resultCallback) {
      exported += spans.length;
      if (next) next.export(spans, resultCallback);
      else resultCallback({ code: 0 });
    },
    shutdown: () => next?.shutdown() ?? Promise.resolve(),
  };
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'groundcheck-bench' }),
    sampler: new AlwaysOnSampler(),
    spanProcessors: [new BatchSpanProcessor({ exporter })],
  });
  const tracer = provider.getTracer('groundcheck-bench');
  const kinds = { internal: SpanKind.INTERNAL, client: SpanKind.CLIENT } as const;

  function record(trace: RagTrace, startedAt: number): void {
    const source: SpanSource = {
      ...trace,
      traceId: trace.id,
      requestId: trace.id,
      capturedAt: new Date().toISOString(),
      route: '/api/chat',
      method: 'POST',
      status: 200,
      latencyMs: Date.now() - startedAt,
      truncated: false,
      aborted: false,
      firstTokenMs: null,
    };
    const [root, ...children] = spanContentsOf(source, SETTINGS);
    const rootSpan = tracer.startSpan(root!.name, { kind: kinds[root!.kind], startTime: root!.startMs, attributes: root!.attributes }, ROOT_CONTEXT);
    const parent = traceApi.setSpan(ROOT_CONTEXT, rootSpan);
    for (const plan of children) tracer.startSpan(plan.name, { kind: kinds[plan.kind], startTime: plan.startMs, attributes: plan.attributes }, parent).end(plan.endMs);
    rootSpan.end(root!.endMs);
    ended += 1 + children.length;
  }

  return {
    pipeline: {
      ...pipeline,
      async ask(question, options) {
        const startedAt = Date.now();
        const trace = await pipeline.ask(question, options);
        const recording = performance.now();
        record(trace, startedAt);
        onRecorded((performance.now() - recording) * 1000);
        return trace;
      },
    },
    record,
    stats: () => ({ ended, exported }),
    flush: () => provider.forceFlush(),
    shutdown: () => provider.shutdown(),
  };
}
