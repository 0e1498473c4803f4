import { GroundcheckError, InvalidInputError } from '../errors.js';

/**
 * The site could not be crawled at all. Codes: `host_unreachable` (the host did not answer: DNS,
 * connection refused, timeout), CLI exit 1 since it may pass. The input errors of a crawl are
 * {@link InvalidInputError}s (exit 2): `invalid_url`, `disallowed_by_robots`, `no_crawlable_pages`.
 */
export class CrawlError extends GroundcheckError {
  readonly url: string;

  constructor(code: string, message: string, options: { url: string; cause?: unknown }) {
    super(code, message, { cause: options.cause });
    this.name = 'CrawlError';
    this.url = options.url;
  }
}

/** An input error of a crawl (bad URL, start page disallowed, nothing crawlable): exit 2. */
export function crawlInputError(code: 'invalid_url' | 'disallowed_by_robots' | 'no_crawlable_pages' | 'invalid_option', message: string): InvalidInputError {
  return new InvalidInputError(message, { code });
}
