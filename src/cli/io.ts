import { DEFAULT_CAPTURE_DB_PATH } from '../capture/store.js';
import { errorMessage, GroundcheckError, InvalidInputError } from '../errors.js';
import type { GroundcheckEnv } from '../providers/config.js';

/** Where a command writes and what it reads from its surroundings; tests pass their own. */
export interface CliIO {
  stdout: { write(text: string): unknown; isTTY?: boolean };
  stderr: { write(text: string): unknown; isTTY?: boolean };
  env: GroundcheckEnv;
  cwd: string;
}

export interface Command {
  name: string;
  summary: string;
  usage: string;
  run(args: string[], io: CliIO): Promise<number>;
}

/** Exit codes: 0 success, 1 the run failed (errors, failed gates), 2 usage or input error. */
export const EXIT = { ok: 0, failure: 1, usage: 2 } as const;

export const DEFAULT_DB_PATH = '.groundcheck/index.db';

/** The index path from `--db`, else `GROUNDCHECK_DB`, else `.groundcheck/index.db`. */
export function dbPath(flag: string | undefined, io: CliIO): string {
  return flag ?? io.env.GROUNDCHECK_DB ?? DEFAULT_DB_PATH;
}

/** The capture store (a SQLite file or a `postgres://` URL) from `--db`, else `GROUNDCHECK_CAPTURE_DB`, else `.groundcheck/captures.db`. */
export function captureDbPath(flag: string | undefined, io: CliIO): string {
  return flag ?? io.env.GROUNDCHECK_CAPTURE_DB ?? DEFAULT_CAPTURE_DB_PATH;
}

/**
 * A whole-number flag value from `min` to `max` (no upper bound when `max` is omitted).
 * @throws UsageError naming the flag, the allowed range and the value given.
 */
export function integerFlag(value: string, flag: string, min: number, max?: number): number {
  const parsed = Number(value);
  if (value.trim() === '' || !Number.isInteger(parsed) || parsed < min || (max !== undefined && parsed > max)) {
    const range = max === undefined ? `of at least ${min}` : `from ${min} to ${max}`;
    throw new UsageError(`${flag} must be a whole number ${range}, not "${value}"`);
  }
  return parsed;
}

/** A usage mistake: printed with the command's usage, exit 2. */
export class UsageError extends InvalidInputError {
  constructor(message: string) {
    super(message, { code: 'usage' });
    this.name = 'UsageError';
  }
}

/** Map an error to a one-line message and an exit code; stack traces only with GROUNDCHECK_DEBUG=1. */
export function reportError(error: unknown, io: CliIO, command?: Command): number {
  const debug = io.env.GROUNDCHECK_DEBUG === '1';
  if (error instanceof UsageError) {
    io.stderr.write(`groundcheck: ${error.message}\n${command ? `usage: ${command.usage}\n` : ''}`);
    return EXIT.usage;
  }
  if (error instanceof InvalidInputError || (error instanceof GroundcheckError && isInputCode(error.code))) {
    io.stderr.write(`groundcheck: ${error.message}\n`);
    if (debug) io.stderr.write(`${error.stack}\n`);
    return EXIT.usage;
  }
  io.stderr.write(`groundcheck: ${errorMessage(error)}\n`);
  if (debug && error instanceof Error) io.stderr.write(`${error.stack}\n`);
  else if (!(error instanceof GroundcheckError)) io.stderr.write('(set GROUNDCHECK_DEBUG=1 for the stack trace)\n');
  return EXIT.failure;
}

function isInputCode(code: string): boolean {
  return ['not_found', 'not_a_database', 'foreign_database', 'schema_too_new', 'embedder_mismatch'].includes(code);
}
