/**
 * Every error groundcheck throws on purpose is a `GroundcheckError`, so callers can tell ours from
 * a bug with one `instanceof`. `code` is stable and documented in the README's "Errors" section.
 */
export class GroundcheckError extends Error {
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'GroundcheckError';
    this.code = code;
  }
}

/** Input the user gave us (a path, a question, a flag) is wrong. CLI exit code 2. */
export class InvalidInputError extends GroundcheckError {
  constructor(message: string, options?: { cause?: unknown; code?: string }) {
    super(options?.code ?? 'invalid_input', message, options);
    this.name = 'InvalidInputError';
  }
}

/**
 * A file given as one of groundcheck's SQLite files (the index, the capture store, the LLM cache)
 * cannot be opened as that kind. An input error (CLI exit 2). `code` is one of `not_found`,
 * `not_a_database` (not SQLite, or a folder), `foreign_database` (SQLite, but not groundcheck's),
 * `wrong_file_kind` (another kind of groundcheck file: `found` names it) and `schema_too_new`.
 */
export class DatabaseFileError extends InvalidInputError {
  readonly path: string;
  /** The kind the caller asked for (`index`, `capture-store`, `llm-cache`). */
  readonly expected: string;
  /** For `wrong_file_kind`: the kind the file is. */
  readonly found: string | undefined;

  constructor(code: string, message: string, details: { path: string; expected: string; found?: string; cause?: unknown }) {
    super(message, { code, cause: details.cause });
    this.name = 'DatabaseFileError';
    this.path = details.path;
    this.expected = details.expected;
    this.found = details.found;
  }
}

/** The index file cannot be used as it is (built by another embedder). */
export class IndexError extends GroundcheckError {
  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.name = 'IndexError';
  }
}

const RETRYABLE_STATUS = new Set([408, 409, 429]);

/** Whether an upstream HTTP status is worth retrying: 408, 409, 429 and every 5xx. */
export function isRetryableStatus(status: number | undefined): boolean {
  if (status === undefined) return false;
  return RETRYABLE_STATUS.has(status) || status >= 500;
}

/**
 * A call to a model endpoint failed. `isRetryable` says whether the same call may succeed later
 * (408/409/429/5xx, timeouts, dropped connections); `statusCode` is absent for network failures.
 */
export class ApiCallError extends GroundcheckError {
  readonly statusCode: number | undefined;
  readonly isRetryable: boolean;
  readonly url: string | undefined;
  readonly responseBody: string | undefined;
  /** Authentication, permission or billing problem: retrying will not help until a person acts. */
  readonly isAuthError: boolean;

  constructor(
    message: string,
    options: {
      statusCode?: number;
      isRetryable?: boolean;
      url?: string;
      responseBody?: string;
      cause?: unknown;
      code?: string;
    } = {},
  ) {
    super(options.code ?? 'api_call_failed', message, { cause: options.cause });
    this.name = 'ApiCallError';
    this.statusCode = options.statusCode;
    this.isRetryable = options.isRetryable ?? isRetryableStatus(options.statusCode);
    this.url = options.url;
    this.responseBody = options.responseBody;
    this.isAuthError =
      options.statusCode === 401 ||
      options.statusCode === 402 ||
      options.statusCode === 403 ||
      /insufficient_quota|billing/i.test(options.responseBody ?? '');
  }
}

/** The call took longer than its timeout. Retryable. */
export class TimeoutError extends ApiCallError {
  constructor(message: string, options: { url?: string; cause?: unknown } = {}) {
    super(message, { ...options, isRetryable: true, code: 'timeout' });
    this.name = 'TimeoutError';
  }
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
