import { createRedactor, type Redactor } from '../redact.js';
import { applyLimits, exceedsLimits, type CaptureLimits } from '../to-capture.js';
import type { Capture } from '../types.js';
import type { SqliteCaptureLog } from './capture-log.js';
import type { StoreHealthReason } from '../store-health.js';
import { healthReasonOf } from './file-state.js';

/**
 * Preparing and writing captures as recorded (`SqliteCaptureStore.writeRawCaptures`): the default
 * redaction and the size caps, each capture on its own, then one transaction for the batch. The
 * same code runs on the store's writer thread (`writer-thread-entry.ts`) and, where there is no
 * thread, on the caller's, so both give the same rows and the same outcomes.
 */

/** How to prepare captures before they are written. */
export interface RawWriteOptions {
  /** Key of the default redaction (`createRedactor`); `null` writes the text as given (already redacted, or `redact: false`). */
  redactionKey: string | Uint8Array | null;
  /** Size caps applied after redaction; `null` when they were applied already. */
  limits: CaptureLimits | null;
  /** Return each written capture as stored (what `onWritten` receives); otherwise only the fields the log line needs. */
  returnStored: boolean;
}

/** An error as it crosses a thread: what the store maps to a health reason. */
export interface PlainError {
  name: string;
  message: string;
  code: string | null;
  /** For a store that became unavailable: why (`busy`, `read_only`, …), as the store's health says it. */
  reason?: StoreHealthReason;
}

/** What became of one capture of the batch, in the batch's order. */
export type RawOutcome =
  | { kind: 'written'; truncated: boolean; answerLength: number; stored: Capture | null }
  /** Redaction or the caps threw on this capture (a value that is not what a capture holds): it is lost alone. */
  | { kind: 'build_failed'; message: string }
  /** The store refused this capture (its schema rejects a value); the others of its batch were written. */
  | { kind: 'refused'; error: PlainError }
  /** The store became unavailable while the batch was written capture by capture: not written, to be tried again. */
  | { kind: 'retry' };

export interface RawWriteResult {
  outcomes: RawOutcome[];
  /** The error that made the `retry` outcomes (the store is unavailable). */
  retryError: PlainError | null;
}

/** Thrown by {@link prepareAndWrite} when the whole batch could not be written because the store is unavailable. */
export class BatchUnavailableError extends Error {
  /** The SQLite code, where the store's own busy retry and health mapping read it. */
  readonly code: string | null;
  constructor(readonly plain: PlainError) {
    super(plain.message);
    this.code = plain.code;
  }
}

export function plainError(error: unknown): PlainError {
  const code = (error as { code?: unknown } | null)?.code;
  return {
    name: error instanceof Error ? error.name : 'Error',
    message: error instanceof Error ? error.message : String(error),
    code: typeof code === 'string' ? code : null,
  };
}

/** The error a {@link PlainError} stands for, back on the caller's side (`extra`: fields to set on it, e.g. `isRetryable`). */
export function errorFromPlain(plain: PlainError, extra: Record<string, unknown> = {}): Error {
  return Object.assign(new Error(plain.message), { name: plain.name, code: plain.code, ...(plain.reason === undefined ? {} : { reason: plain.reason }), ...extra });
}

/** The redactors of the keys seen, each with its own cache of redacted chunk texts. */
export class RedactorsByKey {
  private readonly redactors = new Map<string, Redactor>();

  get(key: string | Uint8Array): Redactor {
    const id = typeof key === 'string' ? `s:${key}` : `b:${Buffer.from(key).toString('hex')}`;
    let redactor = this.redactors.get(id);
    if (redactor === undefined) {
      redactor = createRedactor({ key });
      this.redactors.set(id, redactor);
    }
    return redactor;
  }
}

/**
 * Prepare each capture, write the prepared ones in one transaction, and say what became of each.
 * When the transaction fails on a capture's value, each is written alone, so one capture the
 * schema rejects never takes the valid ones of its batch with it.
 *
 * @param path the store file, to tell an unavailable store from a refused value.
 * @throws BatchUnavailableError when the store is unavailable (locked, read-only, failing disk): nothing was written.
 */
export function prepareAndWrite(log: SqliteCaptureLog, captures: readonly Capture[], options: RawWriteOptions, redactors: RedactorsByKey, path: string): RawWriteResult {
  const outcomes: RawOutcome[] = new Array(captures.length);
  const prepared: Capture[] = [];
  const positions: number[] = [];
  const redactor = options.redactionKey === null ? null : redactors.get(options.redactionKey);
  for (let index = 0; index < captures.length; index++) {
    try {
      const redacted = redactor === null ? captures[index]! : redactor.redactCapture(captures[index]!);
      prepared.push(options.limits !== null && exceedsLimits(redacted, options.limits) ? applyLimits(redacted, options.limits) : redacted);
      positions.push(index);
    } catch (error) {
      outcomes[index] = { kind: 'build_failed', message: error instanceof Error ? error.message : String(error) };
    }
  }
  const written = (capture: Capture): RawOutcome => ({
    kind: 'written',
    truncated: capture.truncated,
    answerLength: capture.answer.length,
    stored: options.returnStored ? capture : null,
  });
  if (prepared.length === 0) return { outcomes, retryError: null };
  try {
    log.write(prepared);
    for (let at = 0; at < prepared.length; at++) outcomes[positions[at]!] = written(prepared[at]!);
    return { outcomes, retryError: null };
  } catch (error) {
    if (healthReasonOf(error, path) !== null) throw new BatchUnavailableError(plainError(error));
    if (prepared.length === 1) {
      outcomes[positions[0]!] = { kind: 'refused', error: plainError(error) };
      return { outcomes, retryError: null };
    }
  }
  let retryError: PlainError | null = null;
  for (let at = 0; at < prepared.length; at++) {
    const index = positions[at]!;
    if (retryError !== null) {
      outcomes[index] = { kind: 'retry' };
      continue;
    }
    try {
      log.write([prepared[at]!]);
      outcomes[index] = written(prepared[at]!);
    } catch (error) {
      const reason = healthReasonOf(error, path);
      if (reason !== null) {
        retryError = { ...plainError(error), reason };
        outcomes[index] = { kind: 'retry' };
      } else outcomes[index] = { kind: 'refused', error: plainError(error) };
    }
  }
  return { outcomes, retryError };
}
