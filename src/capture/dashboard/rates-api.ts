import type { NextFunction, Request, Response } from 'express';
import { NO_JUDGE_VERSION, type DashboardContext } from './context.js';
import { ratesView } from './rates-view.js';
import { ratesRange, stringParam } from './request-query.js';

/**
 * `GET <mount>/api/rates?from=&to=&judgeVersion=`: live outcome rates of the judge version per
 * hour (ranges up to two days) or per day, and over the range, beside the newest offline eval's
 * rates for the same judge version from the results folder (see {@link ratesView}). The range
 * defaults to the last 24 hours; `from=0` is all time (one bucket).
 */
export function ratesHandler(context: DashboardContext, now: () => number) {
  // Errors reach next() by hand: Express 4 does not catch a rejected handler.
  return function rates(req: Request, res: Response, next: NextFunction): void {
    respond(req, res).catch(next);
  };

  async function respond(req: Request, res: Response): Promise<void> {
    const range = ratesRange(req, now());
    const judgeVersion = await context.resolveJudgeVersion(stringParam(req, 'judgeVersion'), { from: range.from, to: range.to });
    const buckets = await context.store.outcomeCounts({ judgeVersion: judgeVersion ?? NO_JUDGE_VERSION, from: range.from, to: range.to, ...(range.bucket !== null ? { bucket: range.bucket } : {}) });
    const offline = judgeVersion === null || context.results === null ? null : await context.results.folder.latestFor(judgeVersion);
    const view = ratesView({ judgeVersion, range, buckets, offline, judging: context.judging, resultsDir: context.results?.label ?? null });
    res.json({ ...view, ...context.judgeState() });
  }
}
