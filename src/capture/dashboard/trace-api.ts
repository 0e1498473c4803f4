import type { NextFunction, Request, Response } from 'express';
import { HttpError } from '../errors.js';
import type { DashboardContext } from './context.js';
import { PENDING_WRITE_WAIT_MS } from './options.js';
import { pickJudgment, traceView } from './views.js';

/**
 * `GET …/:id`: one capture by trace id as `{ traceId, verdict, label, text, tone, capture, judgment, drift }`
 * (the verdict from the contract's outcome table, or a capture state), or 404 `trace.not_found`.
 * With the `capture` option, a miss while captures wait in the write window is looked up again
 * once they are written (at most {@link PENDING_WRITE_WAIT_MS}).
 */
export function traceHandler(context: DashboardContext) {
  const find = async (traceId: string) => {
    const found = await context.store.getCapture(traceId);
    if (found || context.capture === null || context.capture.queued === 0) return found;
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, PENDING_WRITE_WAIT_MS)));
    await Promise.race([context.capture.flush(), waited]).finally(() => clearTimeout(timer));
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
