import type * as Api from '@opentelemetry/api';
import type * as Resources from '@opentelemetry/resources';
import type * as SdkLogs from '@opentelemetry/sdk-logs';
import type * as SdkTrace from '@opentelemetry/sdk-trace';
import { InvalidInputError } from '../../errors.js';

/**
 * The OpenTelemetry packages are optional peer dependencies: an app that never turns the OTLP
 * export on never installs or loads them. They are imported here, when an exporter is created,
 * and only the ones its options need.
 */

export type OtlpProtocol = 'http/protobuf' | 'http/json';

/** What the OTLP/HTTP span and log exporters of both encodings take (the part we set). */
export interface OtlpHttpExporterConfig {
  url: string;
  headers: Record<string, string>;
  timeoutMillis: number;
}

export interface OtelPackages {
  api: typeof Api;
  resources: typeof Resources;
  sdkTrace: typeof SdkTrace;
  TraceExporter: new (config: OtlpHttpExporterConfig) => SdkTrace.SpanExporter;
  /** `null` when no evaluation goes out as a log record. */
  logs: { sdkLogs: typeof SdkLogs; LogExporter: new (config: OtlpHttpExporterConfig) => SdkLogs.LogRecordExporter } | null;
}

/** The exact versions tested (devDependencies); peers accept their compatible releases. */
export const OTEL_PACKAGES = {
  '@opentelemetry/api': '1.9.1',
  '@opentelemetry/resources': '2.12.1',
  '@opentelemetry/sdk-trace': '2.12.1',
  '@opentelemetry/sdk-logs': '0.223.1',
  '@opentelemetry/api-logs': '0.223.1',
  '@opentelemetry/exporter-trace-otlp-proto': '0.223.1',
  '@opentelemetry/exporter-logs-otlp-proto': '0.223.1',
  '@opentelemetry/exporter-trace-otlp-http': '0.223.1',
  '@opentelemetry/exporter-logs-otlp-http': '0.223.1',
} as const;

/**
 * Import the packages an exporter needs.
 *
 * @throws InvalidInputError `otel_packages_missing` naming the `npm install` line when one is not installed.
 */
export async function loadOtelPackages(protocol: OtlpProtocol, withLogs: boolean): Promise<OtelPackages> {
  const json = protocol === 'http/json';
  const needed: (keyof typeof OTEL_PACKAGES)[] = [
    '@opentelemetry/api',
    '@opentelemetry/resources',
    '@opentelemetry/sdk-trace',
    json ? '@opentelemetry/exporter-trace-otlp-http' : '@opentelemetry/exporter-trace-otlp-proto',
    ...(withLogs ? (['@opentelemetry/api-logs', '@opentelemetry/sdk-logs', json ? '@opentelemetry/exporter-logs-otlp-http' : '@opentelemetry/exporter-logs-otlp-proto'] as const) : []),
  ];
  try {
    const [api, resources, sdkTrace, traceExporter] = await Promise.all([
      import('@opentelemetry/api'),
      import('@opentelemetry/resources'),
      import('@opentelemetry/sdk-trace'),
      json ? import('@opentelemetry/exporter-trace-otlp-http') : import('@opentelemetry/exporter-trace-otlp-proto'),
    ]);
    let logs: OtelPackages['logs'] = null;
    if (withLogs) {
      const [sdkLogs, logExporter] = await Promise.all([
        import('@opentelemetry/sdk-logs'),
        json ? import('@opentelemetry/exporter-logs-otlp-http') : import('@opentelemetry/exporter-logs-otlp-proto'),
      ]);
      logs = { sdkLogs, LogExporter: logExporter.OTLPLogExporter };
    }
    return { api, resources, sdkTrace, TraceExporter: traceExporter.OTLPTraceExporter, logs };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') throw error;
    const install = needed.map((name) => `${name}@${OTEL_PACKAGES[name]}`).join(' ');
    throw new InvalidInputError(`the OTLP export needs the OpenTelemetry packages, which are optional: npm install ${install}`, { code: 'otel_packages_missing', cause: error });
  }
}
