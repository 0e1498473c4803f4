import { GroundcheckError } from '../errors.js';

/**
 * How a capture store is doing, for `/api/health`, `/metrics` and the middleware's retries: the
 * shape a store's optional `health()` returns, and the error its calls throw when the store cannot
 * take a write now but may later (the middleware then keeps the captures queued and retries).
 */

/**
 * Why a store is degraded:
 * - `busy`: another connection held the write lock for longer than the store waits;
 * - `file_deleted`: the file was deleted under the running store (it is recreated);
 * - `file_replaced`: another file now sits at the store's path (it is opened);
 * - `read_only`: the file or its log cannot be written (permissions, immutable flag, read-only mount);
 * - `io_error`: the disk refused a write for another reason (full, failing);
 * - `unusable`: the file at the path cannot be opened as a capture store;
 * - `unreachable`: a networked store (Postgres) cannot be reached or dropped the connection.
 */
export const STORE_HEALTH_REASONS = ['busy', 'file_deleted', 'file_replaced', 'read_only', 'io_error', 'unusable', 'unreachable'] as const;
export type StoreHealthReason = (typeof STORE_HEALTH_REASONS)[number];

export interface StoreHealth {
  status: 'ok' | 'degraded';
  /** `null` while ok. */
  reason: StoreHealthReason | null;
  /** What went wrong, safe to log and show to an operator; `null` while ok. */
  message: string | null;
  /** Since when the store has been degraded (ISO 8601); `null` while ok. */
  since: string | null;
}

export const STORE_OK: StoreHealth = Object.freeze({ status: 'ok', reason: null, message: null, since: null });

/** Degraded for `reason`, keeping the time it first went degraded when it already was. */
export function degradedHealth(previous: StoreHealth, reason: StoreHealthReason, message: string, now: Date = new Date()): StoreHealth {
  return Object.freeze({ status: 'degraded', reason, message, since: previous.since ?? now.toISOString() });
}

/**
 * A store call that failed because the store cannot be written now, and may be later (the same
 * call should be retried; nothing was stored). `isRetryable` is always true, so a store of your own
 * may throw any error with `isRetryable: true` and a `reason` to get the same treatment.
 */
export class CaptureStoreUnavailableError extends GroundcheckError {
  readonly isRetryable = true;
  readonly reason: StoreHealthReason;

  constructor(reason: StoreHealthReason, message: string, options?: { cause?: unknown }) {
    super(`capture_store_${reason}`, message, options);
    this.name = 'CaptureStoreUnavailableError';
    this.reason = reason;
  }
}

/** Whether a store's error says "try again later" (a {@link CaptureStoreUnavailableError} or any error marked `isRetryable`). */
export function isRetryableStoreError(error: unknown): boolean {
  return error instanceof CaptureStoreUnavailableError || (typeof error === 'object' && error !== null && (error as { isRetryable?: unknown }).isRetryable === true);
}

/** The reason a retryable store error gives (`io_error` when it names none we know). */
export function reasonOfStoreError(error: unknown): StoreHealthReason {
  const reason = (error as { reason?: unknown } | null)?.reason;
  return typeof reason === 'string' && (STORE_HEALTH_REASONS as readonly string[]).includes(reason) ? (reason as StoreHealthReason) : 'io_error';
}
