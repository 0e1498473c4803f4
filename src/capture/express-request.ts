import type { PlainTrace } from '../contract/plain-trace.js';
import type { RagTrace } from '../contract/trace.js';

/** What `captureRag` hangs on each request as `req.rag`. */
export interface RagRequestContext {
  /**
   * Record what answered this request. After the response closes, one capture per recorded value
   * is persisted, off the request's critical path. Takes either
   * - a `RagTrace`, as groundcheck's pipeline makes it, or
   * - the plain record of your own app: `{ query, chunks: [{ id, text, title?, section?, updated?, score? }], answer, model?, usage?, mode?, promptVersion? }`
   *   (your chunks' own text: no `[Source: …]` line needed).
   *
   * It is checked when called (the plain record with the contract's zod schema): a bad value is
   * rejected alone, logged (`rag.capture.rejected`, with the field at fault) and counted as a
   * `build` failure; it never throws and never costs another capture.
   *
   * @returns the trace id the capture is stored under (a plain record gets a new one), or `null` when the value was rejected.
   * @example
   * const traceId = req.rag?.record({ query, chunks: hits.map((hit) => ({ id: hit.id, text: hit.text })), answer, model: 'gpt-4o-mini' });
   */
  record(trace: RagTrace | PlainTrace): string | null;
  /** The traces recorded so far on this request (plain records converted). */
  readonly traces: readonly RagTrace[];
}

// The one place groundcheck augments Express's Request.
declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** Set by `captureRag()`; absent when the middleware is not mounted. */
      rag?: RagRequestContext;
    }
  }
}

export {};
