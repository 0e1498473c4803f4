import type { RagTrace } from '../contract/trace.js';

/** What `captureRag` hangs on each request as `req.rag`. */
export interface RagRequestContext {
  /**
   * Record a trace produced while handling this request. After the response finishes, one capture
   * per recorded trace is persisted, off the request's critical path. Never throws.
   */
  record(trace: RagTrace): void;
  /** The traces recorded so far on this request. */
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
