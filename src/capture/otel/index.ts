/**
 * OTLP export (optional): captures as GenAI traces, judgments as `gen_ai.evaluation.result`, over
 * OTLP/HTTP with the OpenTelemetry JS SDK, which is loaded only when an exporter is created.
 */
export { createOtlpExporter, type OtlpExporter } from './exporter.js';
export { otlpOptionsFromEnv, type OtlpExporterOptions, type OtlpEvaluationSignal } from './options.js';
export { OTEL_PACKAGES, type OtlpProtocol } from './load.js';
export { tracePlanOf, spanContentsOf, evaluationPlanOf, EVALUATION_NAME, type TracePlan, type SpanPlan, type SpanContent, type EvaluationPlan, type SpanSource, type SpanSettings } from './spans.js';
export { otelTraceIdOf, otelSpanIdOf } from './ids.js';
export { GENAI_SEMCONV_VERSION, SEMCONV_SCHEMA_URL, SEMCONV_PACKAGE_VERSION } from './semconv.js';
