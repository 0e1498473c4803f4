import type { NextFunction, Request, Response } from 'express';
import { HttpError } from '../errors.js';
import type { DashboardContext } from './context.js';
import { dashboardFilters, traceView } from './views.js';

/** Captures read per request (newest first), and the most the list sends back. */
export const LISTED_CAPTURES = 500;
export const SHOWN_CAPTURES = 200;

/**
 * `GET <mount>/api/captures?filter=<name>`: the newest captures with their verdicts and drift,
 * filtered, plus every filter with its label, tone and count (over the newest
 * {@link LISTED_CAPTURES}), and the live judge's state.
 */
export function capturesHandler(context: DashboardContext) {
  // Errors reach next() by hand: Express 4 does not catch a rejected handler.
  return function listCaptures(req: Request, res: Response, next: NextFunction): void {
    respond(req, res).catch(next);
  };

  async function respond(req: Request, res: Response): Promise<void> {
    const filters = dashboardFilters();
    const name = typeof req.query.filter === 'string' ? req.query.filter : 'all';
    const filter = filters.find((candidate) => candidate.name === name);
    if (!filter) throw new HttpError(400, 'request.invalid', `filter must be one of ${filters.map((candidate) => candidate.name).join(', ')}`);
    const listed = await context.store.listCaptures({ limit: LISTED_CAPTURES, ...(context.judgeVersion !== undefined ? { judgeVersion: context.judgeVersion } : {}) });
    // Drift of the listed captures only, from one read of the index's hashes per request.
    const hashOf = context.listHashes();
    const rows = listed.map(({ capture, judgment }) => traceView(capture, judgment, context.judging, hashOf));
    const counted = filters.map((candidate) => ({ name: candidate.name, label: candidate.label, tone: candidate.tone, count: rows.filter(candidate.matches).length }));
    res.json({
      captures: rows.filter(filter.matches).slice(0, SHOWN_CAPTURES),
      counts: Object.fromEntries(counted.map((entry) => [entry.name, entry.count])),
      filters: counted,
      ...context.judgeState(),
    });
  }
}
