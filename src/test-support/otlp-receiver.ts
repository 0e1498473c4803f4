import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local OTLP/HTTP receiver for tests: listens on 127.0.0.1, port 0, records every request, and
 * decodes the JSON encoding (`http/json`) into flat spans and log records. Protobuf bodies are
 * kept as bytes (strings inside them are plain UTF-8, which is what the protobuf test checks).
 */

export interface ReceivedRequest {
  path: string;
  contentType: string | undefined;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export type OtlpValue = string | number | boolean | OtlpValue[] | null;

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  name: string;
  kind: number;
  startMs: number;
  endMs: number;
  attributes: Record<string, OtlpValue>;
  events: { name: string; timeMs: number; attributes: Record<string, OtlpValue> }[];
  status: { code: number; message?: string };
  scope: { name: string; schemaUrl: string | undefined };
  resource: Record<string, OtlpValue>;
}

export interface ReceivedLogRecord {
  eventName: string | undefined;
  traceId: string;
  spanId: string;
  timeMs: number;
  severityNumber: number;
  attributes: Record<string, OtlpValue>;
  scope: { name: string; schemaUrl: string | undefined };
}

export interface OtlpReceiver {
  url: string;
  requests: ReceivedRequest[];
  /** The status to answer each signal's path with (`/v1/traces`, `/v1/logs`); 200 unless set. */
  statusFor: Map<string, number>;
  spans(): ReceivedSpan[];
  logRecords(): ReceivedLogRecord[];
  close(): Promise<void>;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const requests: ReceivedRequest[] = [];
  const statusFor = new Map<string, number>();
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      const path = (req.url ?? '').replace(/\?.*$/, '');
      requests.push({ path, contentType: req.headers['content-type'], headers: req.headers, body: Buffer.concat(parts) });
      const status = statusFor.get(path) ?? 200;
      const json = (req.headers['content-type'] ?? '').includes('json');
      res.writeHead(status, { 'content-type': json ? 'application/json' : 'application/x-protobuf' });
      res.end(json ? '{}' : undefined);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const jsonBodies = (path: string) =>
    requests.filter((request) => request.path === path && (request.contentType ?? '').includes('json') && (statusFor.get(path) ?? 200) === 200).map((request) => JSON.parse(request.body.toString('utf8')) as Record<string, unknown>);
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    statusFor,
    spans: () => jsonBodies('/v1/traces').flatMap(decodeSpans),
    logRecords: () => jsonBodies('/v1/logs').flatMap(decodeLogs),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

interface KeyValue {
  key: string;
  value: AnyValue;
}
interface AnyValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values?: AnyValue[] };
}

function valueOf(value: AnyValue): OtlpValue {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.arrayValue !== undefined) return (value.arrayValue.values ?? []).map(valueOf);
  return null;
}

function attributesOf(list: KeyValue[] | undefined): Record<string, OtlpValue> {
  return Object.fromEntries((list ?? []).map(({ key, value }) => [key, valueOf(value)]));
}

const nanosToMs = (nanos: string | number) => Number(BigInt(String(nanos)) / 1_000_000n);

function decodeSpans(body: Record<string, unknown>): ReceivedSpan[] {
  const resourceSpans = (body.resourceSpans ?? []) as { resource?: { attributes?: KeyValue[] }; scopeSpans?: { scope?: { name: string }; schemaUrl?: string; spans?: Record<string, unknown>[] }[] }[];
  return resourceSpans.flatMap((resourceSpan) =>
    (resourceSpan.scopeSpans ?? []).flatMap((scopeSpan) =>
      (scopeSpan.spans ?? []).map((span) => ({
        traceId: span.traceId as string,
        spanId: span.spanId as string,
        parentSpanId: (span.parentSpanId as string | undefined) || null,
        name: span.name as string,
        kind: span.kind as number,
        startMs: nanosToMs(span.startTimeUnixNano as string),
        endMs: nanosToMs(span.endTimeUnixNano as string),
        attributes: attributesOf(span.attributes as KeyValue[]),
        events: ((span.events ?? []) as { name: string; timeUnixNano: string; attributes?: KeyValue[] }[]).map((event) => ({
          name: event.name,
          timeMs: nanosToMs(event.timeUnixNano),
          attributes: attributesOf(event.attributes),
        })),
        status: (span.status ?? { code: 0 }) as { code: number; message?: string },
        scope: { name: scopeSpan.scope?.name ?? '', schemaUrl: scopeSpan.schemaUrl },
        resource: attributesOf(resourceSpan.resource?.attributes),
      })),
    ),
  );
}

function decodeLogs(body: Record<string, unknown>): ReceivedLogRecord[] {
  const resourceLogs = (body.resourceLogs ?? []) as { scopeLogs?: { scope?: { name: string }; schemaUrl?: string; logRecords?: Record<string, unknown>[] }[] }[];
  return resourceLogs.flatMap((resourceLog) =>
    (resourceLog.scopeLogs ?? []).flatMap((scopeLog) =>
      (scopeLog.logRecords ?? []).map((record) => ({
        eventName: record.eventName as string | undefined,
        traceId: record.traceId as string,
        spanId: record.spanId as string,
        timeMs: nanosToMs(record.timeUnixNano as string),
        severityNumber: record.severityNumber as number,
        attributes: attributesOf(record.attributes as KeyValue[]),
        scope: { name: scopeLog.scope?.name ?? '', schemaUrl: scopeLog.schemaUrl },
      })),
    ),
  );
}
