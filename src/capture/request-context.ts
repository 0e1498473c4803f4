import type { Request, Response } from 'express';
import type { PlainTrace } from '../contract/plain-trace.js';
import type { RagTrace } from '../contract/trace.js';
import type { RagRequestContext } from './express-request.js';

/** A request as the middleware sees it: pino-http may have set `req.id`. */
export type CapturedRequest = Request & { id?: unknown };

/**
 * Called by `streamRagAnswer` when the first answer text goes to the client (a symbol, so it is
 * not part of `req.rag`'s public surface).
 */
export const MARK_FIRST_TOKEN = Symbol('groundcheck.markFirstToken');

/** `req.rag`: what one request recorded, and when it started. */
export class RequestContext implements RagRequestContext {
  readonly startedAt = performance.now();
  /** When the first streamed answer text was written (`performance.now()`), or `null`. */
  firstTokenAt: number | null = null;
  /** Whether the response closed before it finished (the client hung up); set when it closes. */
  aborted = false;
  private finished = false;
  private readonly recorded: RagTrace[] = [];

  /**
   * @param open the trace ids recorded by requests whose response has not closed yet (shared by
   * the middleware's requests): a client can ask for its trace before the server has seen its
   * response close, and the trace API waits for such a trace instead of answering 404.
   */
  constructor(
    readonly req: CapturedRequest,
    readonly res: Response,
    private readonly capture: (context: RequestContext, traces: readonly RagTrace[]) => void,
    private readonly accept: (value: RagTrace | PlainTrace) => RagTrace | null,
    private readonly open: Set<string>,
  ) {}

  get traces(): readonly RagTrace[] {
    return this.recorded;
  }

  record(value: RagTrace | PlainTrace): string | null {
    // Runs in the app's handler: whatever it was given, it never throws.
    let trace: RagTrace | null;
    try {
      trace = this.accept(value);
    } catch {
      trace = null;
    }
    if (trace === null) return null;
    if (this.finished) {
      // Recorded after the response ended (e.g. a handler that finishes work later): capture now.
      this.capture(this, [trace]);
      return trace.id;
    }
    this.recorded.push(trace);
    this.open.add(trace.id);
    return trace.id;
  }

  /** Hand over what was recorded so far (a `durable` write at `end()`); the response's close then queues only what comes after. */
  takeRecorded(): RagTrace[] {
    const taken = this.recorded.splice(0);
    for (const trace of taken) this.open.delete(trace.id);
    return taken;
  }

  [MARK_FIRST_TOKEN](): void {
    this.firstTokenAt ??= performance.now();
  }

  /** The response closed: queue what was recorded. */
  done(): void {
    if (this.finished) return;
    this.finished = true;
    // 'finish' comes before 'close' when the whole response was handed over; without it the
    // connection ended first and the client did not get everything.
    this.aborted = !this.res.writableFinished;
    if (this.recorded.length === 0) return;
    for (const trace of this.recorded) this.open.delete(trace.id);
    this.capture(this, this.recorded);
  }
}

/**
 * Queue the context's traces when its response closes. 'close' comes once per response, after
 * 'finish' when it completed, or alone when the connection ended first: one listener, never
 * removed (it goes with the response).
 *
 * A closure per request rather than the context kept on the response under a symbol for one
 * shared listener: Express sets each request's prototypes (`Object.setPrototypeOf` in
 * `app.handle`), after which V8 shares no map (hidden class) for properties added later, so a
 * property added to `res` built a new map and a copy of its ~35 property descriptors on every
 * request: ~1.7 KB against ~0.2 KB for the closure (V8's sampling heap profiler, demo app).
 * `req.rag` pays the same, but it is the API.
 */
export function captureOnClose(context: RequestContext): void {
  context.res.on('close', () => context.done());
}
