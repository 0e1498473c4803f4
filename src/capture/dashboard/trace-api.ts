import type { NextFunction, Request, Response } from 'express';
import { HttpError } from '../errors.js';
import type { DashboardContext } from './context.js';
import { pickJudgment, traceView } from './views.js';

/**
 * `GET …/:id`: one capture by trace id as `{ traceId, verdict, label, text, tone, capture, judgment, drift }`
 * (the verdict from the contract's outcome table, or a capture state), or 404 `trace.not_found`.
 */
export function traceHandler(context: DashboardContext) {
  // Errors reach next() by hand: Express 4 does not catch a rejected handler.
  return function getTrace(req: Request, res: Response, next: NextFunction): void {
    context.store.getCapture(String(req.params.id)).then((found) => {
      if (!found) {
        next(new HttpError(404, 'trace.not_found', 'no capture with this trace id (unknown, not sampled, or not written yet)'));
        return;
      }
      res.json(traceView(found.capture, pickJudgment(found.judgments, context.judgeVersion), context.judging, context.traceHashes()));
    }, next);
  };
}
