import { setTimeout as sleep } from 'node:timers/promises';
import type { NextFunction, Request, Response } from 'express';
import { HttpError } from '../errors.js';
import type { DashboardContext } from './context.js';
import { PENDING_WRITE_WAIT_MS } from './options.js';
import { pickJudgment, traceView } from './views.js';

/** How often the trace API looks again for a response that has not closed yet. */
const RECORDING_POLL_MS = 5;

/**
 * `GET …/:id`: one capture by trace id as `{ traceId, verdict, label, text, tone, capture, judgment, drift }`
 * (the verdict from the contract's outcome table, or a capture state), or 404 `trace.not_found`.
 * With the `capture` option, a miss while captures wait in the write window or are being written,
 * or while the response that recorded the trace has not closed yet, is looked up again once they are written (at most
 * {@link PENDING_WRITE_WAIT_MS}).
 */
export function traceHandler(context: DashboardContext) {
  const find = async (traceId: string) => {
    const found = await context.store.getCapture(traceId);
    const capture = context.capture;
    if (found || capture === null) return found;
    // Unwritten: queued, or in a batch the store is writing (on its writer thread that takes a while).
    const unwritten = () => capture.queued + (capture.writing ?? 0);
    if (unwritten() === 0 && capture.recording?.(traceId) !== true) return found;
    const deadline = performance.now() + PENDING_WRITE_WAIT_MS;
    // The client has its answer before the server sees the response close (under load the two
    // race): wait for that close, which queues the capture.
    while (capture.recording?.(traceId) === true && performance.now() < deadline) await sleep(RECORDING_POLL_MS);
    const left = deadline - performance.now();
    if (left > 0 && unwritten() > 0) {
      let timer: NodeJS.Timeout | undefined;
      const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, left)));
      await Promise.race([capture.flush(), waited]).finally(() => clearTimeout(timer));
    }
    return context.store.getCapture(traceId);
  };
  // Errors reach next() by hand: Express 4 does not catch a rejected handler.
  return function getTrace(req: Request, res: Response, next: NextFunction): void {
    find(String(req.params.id)).then((found) => {
      if (!found) {
        next(new HttpError(404, 'trace.not_found', 'no capture with this trace id (unknown, not sampled, or not written yet)'));
        return;
      }
      res.json(traceView(found.capture, pickJudgment(found.judgments, context.judgeVersion), context.judging, context.traceHashes()));
    }, next);
  };
}
