import type { Logger } from 'pino';
import { InvalidInputError } from '../../errors.js';
import type { CaptureMetrics } from '../metrics.js';
import type { OtlpProtocol } from './load.js';

/** Where judgments go: `logs` (the spec's event, a log record), `spans` (for trace-only backends), or both. */
export type OtlpEvaluationSignal = 'logs' | 'spans' | 'both';

export interface OtlpExporterOptions {
  /**
   * The OTLP/HTTP base URL: `/v1/traces` and `/v1/logs` are appended, as with
   * `OTEL_EXPORTER_OTLP_ENDPOINT` (`http://localhost:4318`, Langfuse's
   * `https://cloud.langfuse.com/api/public/otel`, Phoenix's `http://localhost:6006`). Required.
   */
  endpoint: string;
  /** Sent with every export request (authentication). [headers={}] */
  headers?: Record<string, string>;
  /** The encoding: protobuf (every backend takes it; Phoenix takes only it) or JSON. [protocol='http/protobuf'] */
  protocol?: OtlpProtocol;
  /**
   * Also send the question (`gen_ai.retrieval.query.text`), the answer (`gen_ai.output.messages`)
   * and the chunk texts (in `gen_ai.retrieval.documents`), after `captureRag`'s redaction. Off, only
   * ids, scores, models, token counts, timings and verdicts leave the process. [captureContent=false]
   */
  captureContent?: boolean;
  /**
   * How each judgment's `gen_ai.evaluation.result` is sent: `logs`, as the conventions define it (a
   * log record with the event name, in the trace of the evaluated span); `spans`, as a short span
   * under the evaluated span carrying the same attributes and a span event of that name, for
   * backends that take traces only (Langfuse, Phoenix); or `both`. [evaluations='logs']
   */
  evaluations?: OtlpEvaluationSignal;
  /** `service.name` of the exported telemetry. [serviceName='groundcheck'] */
  serviceName?: string;
  /** `gen_ai.data_source.id` of the retrieval span: name your index. [dataSourceId='groundcheck'] */
  dataSourceId?: string;
  /** `gen_ai.request.top_k` of the retrieval span: your pipeline's `topK`. Left out when not given (the capture does not record it). */
  topK?: number;
  /** Per export request. [timeoutMs=10000] */
  timeoutMs?: number;
  /** Spans (and, apart, log records) waiting to be exported; beyond it new ones are dropped and counted. [maxQueueSize=2048] */
  maxQueueSize?: number;
  /** Longest wait before a batch is sent. [scheduledDelayMs=1000] */
  scheduledDelayMs?: number;
  /** Where `groundcheck_otlp_exported_total` and `groundcheck_otlp_export_failures_total` count: share the app's. [metrics=createCaptureMetrics()] */
  metrics?: CaptureMetrics;
  /** Export failures are logged here. [logger=createLogger()] */
  logger?: Logger;
}

export interface NormalizedOtlpOptions {
  endpoint: string;
  headers: Record<string, string>;
  protocol: OtlpProtocol;
  captureContent: boolean;
  evaluations: OtlpEvaluationSignal;
  serviceName: string;
  dataSourceId: string;
  topK: number | null;
  timeoutMs: number;
  maxQueueSize: number;
  scheduledDelayMs: number;
}

const PROTOCOLS: readonly OtlpProtocol[] = ['http/protobuf', 'http/json'];
const EVALUATION_SIGNALS: readonly OtlpEvaluationSignal[] = ['logs', 'spans', 'both'];

function invalid(name: string, value: unknown, expected: string): InvalidInputError {
  const shown = typeof value === 'string' ? JSON.stringify(value) : String(value);
  return new InvalidInputError(`createOtlpExporter: option ${name} ${shown} is invalid: ${expected}`, { code: 'invalid_option' });
}

/** Check every option once, at construction, naming the one at fault. */
export function normalizeOtlpOptions(options: OtlpExporterOptions): NormalizedOtlpOptions {
  const endpoint = normalizeEndpoint(options.endpoint);
  const headers = options.headers ?? {};
  if (typeof headers !== 'object' || headers === null || Object.values(headers).some((value) => typeof value !== 'string')) {
    throw invalid('headers', JSON.stringify(headers), 'use an object of header names to string values');
  }
  const protocol = options.protocol ?? 'http/protobuf';
  if (!PROTOCOLS.includes(protocol)) throw invalid('protocol', protocol, `use ${PROTOCOLS.join(' or ')}`);
  const evaluations = options.evaluations ?? 'logs';
  if (!EVALUATION_SIGNALS.includes(evaluations)) throw invalid('evaluations', evaluations, `use ${EVALUATION_SIGNALS.join(', ')}`);
  if (options.captureContent !== undefined && typeof options.captureContent !== 'boolean') throw invalid('captureContent', options.captureContent, 'use true or false');
  const text = (name: 'serviceName' | 'dataSourceId', fallback: string) => {
    const value = options[name] ?? fallback;
    if (typeof value !== 'string' || value.trim() === '') throw invalid(name, value, 'use a non-empty string');
    return value;
  };
  const whole = (name: 'topK' | 'timeoutMs' | 'maxQueueSize' | 'scheduledDelayMs', fallback: number, min: number) => {
    const value = options[name] ?? fallback;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min) throw invalid(name, value, `use a whole number of at least ${min}`);
    return value;
  };
  return {
    endpoint,
    headers: { ...headers },
    protocol,
    captureContent: options.captureContent ?? false,
    evaluations,
    serviceName: text('serviceName', 'groundcheck'),
    dataSourceId: text('dataSourceId', 'groundcheck'),
    topK: options.topK === undefined ? null : whole('topK', 0, 1),
    timeoutMs: whole('timeoutMs', 10_000, 1),
    maxQueueSize: whole('maxQueueSize', 2048, 1),
    scheduledDelayMs: whole('scheduledDelayMs', 1000, 0),
  };
}

function normalizeEndpoint(endpoint: unknown): string {
  if (typeof endpoint !== 'string' || endpoint === '') throw invalid('endpoint', endpoint, 'use the OTLP/HTTP base URL, e.g. http://localhost:4318');
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw invalid('endpoint', endpoint, 'use the OTLP/HTTP base URL, e.g. http://localhost:4318');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalid('endpoint', endpoint, 'use an http or https URL');
  const base = url.href.replace(/\/+$/, '');
  if (/\/v1\/(traces|logs|metrics)$/.test(base)) throw invalid('endpoint', endpoint, 'give the base URL: /v1/traces and /v1/logs are appended');
  return base;
}

/**
 * OTLP export options from the environment, or `null` when `GROUNDCHECK_OTLP_ENDPOINT` is unset
 * (the export is off). The demo and `groundcheck judge-worker` read it:
 * `GROUNDCHECK_OTLP_ENDPOINT`, `GROUNDCHECK_OTLP_HEADERS` (`name=value,name2=value2`, values
 * URL-decoded, as `OTEL_EXPORTER_OTLP_HEADERS`), `GROUNDCHECK_OTLP_PROTOCOL`,
 * `GROUNDCHECK_OTLP_EVALUATIONS`, `GROUNDCHECK_OTLP_CAPTURE_CONTENT` (`true`/`false`).
 *
 * @example
 * const options = otlpOptionsFromEnv(process.env);
 * const otlp = options ? await createOtlpExporter({ ...options, metrics, logger }) : null;
 */
export function otlpOptionsFromEnv(env: Record<string, string | undefined>): OtlpExporterOptions | null {
  const endpoint = env.GROUNDCHECK_OTLP_ENDPOINT;
  if (endpoint === undefined || endpoint === '') return null;
  const options: OtlpExporterOptions = { endpoint, headers: parseHeaders(env.GROUNDCHECK_OTLP_HEADERS ?? '') };
  if (env.GROUNDCHECK_OTLP_PROTOCOL) options.protocol = env.GROUNDCHECK_OTLP_PROTOCOL as OtlpProtocol;
  if (env.GROUNDCHECK_OTLP_EVALUATIONS) options.evaluations = env.GROUNDCHECK_OTLP_EVALUATIONS as OtlpEvaluationSignal;
  const content = env.GROUNDCHECK_OTLP_CAPTURE_CONTENT;
  if (content !== undefined && content !== '') {
    if (content !== 'true' && content !== 'false') throw new InvalidInputError(`GROUNDCHECK_OTLP_CAPTURE_CONTENT=${content} is invalid: use true or false`, { code: 'invalid_config' });
    options.captureContent = content === 'true';
  }
  return options;
}

/** `Authorization=Basic%20abc,x-langfuse-ingestion-version=4` → headers. */
function parseHeaders(text: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const part of text.split(',')) {
    if (part.trim() === '') continue;
    const equals = part.indexOf('=');
    if (equals <= 0) throw new InvalidInputError(`GROUNDCHECK_OTLP_HEADERS: "${part.trim()}" is not name=value`, { code: 'invalid_config' });
    headers[part.slice(0, equals).trim()] = decodeURIComponent(part.slice(equals + 1).trim());
  }
  return headers;
}
