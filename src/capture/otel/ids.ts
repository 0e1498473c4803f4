import { createHash } from 'node:crypto';

/**
 * OpenTelemetry ids derived from groundcheck's trace id, so every process that sees a capture
 * (the app exporting its spans, a judge worker exporting its judgment hours later on another host)
 * names the same trace and spans without sharing any state. A UUID trace id (the pipeline's
 * default) is used as the OTel trace id as it is, dashes removed, so a groundcheck trace id can be
 * pasted into a backend's search; any other id is hashed.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const INVALID_TRACE_ID = '0'.repeat(32);
const INVALID_SPAN_ID = '0'.repeat(16);

/** The 32-hex-digit OTel trace id of a groundcheck trace id. */
export function otelTraceIdOf(traceId: string): string {
  if (UUID.test(traceId)) {
    const hex = traceId.replaceAll('-', '').toLowerCase();
    if (hex !== INVALID_TRACE_ID) return hex;
  }
  return nonZero(createHash('sha256').update(`groundcheck:trace:${traceId}`).digest('hex').slice(0, 32), INVALID_TRACE_ID);
}

/** The 16-hex-digit id of one span of a trace, named by its role (`request`, `retrieval`, `chat`, `evaluation:<judge version>`). */
export function otelSpanIdOf(otelTraceId: string, role: string): string {
  return nonZero(createHash('sha256').update(`groundcheck:span:${otelTraceId}:${role}`).digest('hex').slice(0, 16), INVALID_SPAN_ID);
}

/** An all-zero id is invalid in OTel; a hash gives one with probability 2^-64 or less, but never send it. */
function nonZero(hex: string, invalid: string): string {
  return hex === invalid ? `${hex.slice(0, -1)}1` : hex;
}
