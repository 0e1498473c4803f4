import type { NextFunction, Request, Response } from 'express';
import { InvalidInputError } from '../../errors.js';
import type { CaptureFilter } from '../capture-store.js';
import { HttpError } from '../errors.js';
import { NO_JUDGE_VERSION, type DashboardContext } from './context.js';
import { DEFAULT_PAGE, integerParam, listRange, MAX_SHOWN_PAGE, stringParam } from './request-query.js';
import { dashboardFilters, traceView, type FilterContext } from './views.js';

/**
 * `GET <mount>/api/captures?filter=&route=&q=&from=&to=&cursor=&limit=`: a page of captures,
 * newest first, over all captures (the store filters and pages), with their verdicts and drift;
 * `nextCursor` for the next page (`null` on the last); every filter with its label, tone and
 * count over the time range (all routes and questions; `null` for drifted, which is not
 * counted); the judge version shown and the live judge's state.
 * - `filter`: `all`, an outcome of the table, `aborted`, `pending`, `not_judged`, `refusals`, `drifted`;
 * - `route`: exactly as stored; `q`: text in the question, ignoring case;
 * - `from`, `to`: capture time, ms since epoch (from inclusive, to exclusive);
 * - `cursor`: a previous answer's `nextCursor`; `limit`: 1–200 [50];
 * - `judgeVersion`: show this judge's verdicts [the configured one, else the newest judged capture's].
 */
export function capturesHandler(context: DashboardContext) {
  // Errors reach next() by hand: Express 4 does not catch a rejected handler.
  return function listCaptures(req: Request, res: Response, next: NextFunction): void {
    respond(req, res).catch(next);
  };

  async function respond(req: Request, res: Response): Promise<void> {
    const filters = dashboardFilters();
    const name = stringParam(req, 'filter') ?? 'all';
    const chosen = filters.find((candidate) => candidate.name === name);
    if (!chosen) throw new HttpError(400, 'request.invalid', `filter must be one of ${filters.map((candidate) => candidate.name).join(', ')}`);
    const range = listRange(req);
    const route = stringParam(req, 'route', 500);
    const text = stringParam(req, 'q', 500);
    const cursor = stringParam(req, 'cursor', 100);
    const limit = integerParam(req, 'limit', 1, MAX_SHOWN_PAGE) ?? DEFAULT_PAGE;
    const judgeVersion = await context.resolveJudgeVersion(stringParam(req, 'judgeVersion'), range);

    const currentHashes = context.currentHashes();
    const filterContext: FilterContext = { judging: context.judging, currentHashes };
    const storeFilter = chosen.storeFilter(filterContext);
    let page: Awaited<ReturnType<typeof context.store.listCaptures>> = [];
    if (storeFilter !== null) {
      const filter: CaptureFilter = { ...range, ...(route !== undefined ? { route } : {}), ...(text !== undefined ? { text } : {}), ...storeFilter };
      try {
        // One more than shown: whether a next page exists, without an empty last page.
        page = await context.store.listCaptures({ limit: limit + 1, filter, ...(cursor !== undefined ? { cursor } : {}), ...(judgeVersion !== null ? { judgeVersion } : {}) });
      } catch (error) {
        if (error instanceof InvalidInputError && error.code === 'invalid_cursor') throw new HttpError(400, 'request.invalid', 'query parameter cursor is invalid: use the nextCursor of a previous page');
        throw error;
      }
    }
    const shown = page.slice(0, limit);
    const hashOf = currentHashes === null ? null : (chunkId: string) => currentHashes.get(chunkId);
    const [totals] = await context.store.outcomeCounts({ judgeVersion: judgeVersion ?? NO_JUDGE_VERSION, from: range.from ?? 0, to: range.to ?? Number.MAX_SAFE_INTEGER });
    const counted = filters.map((candidate) => ({ name: candidate.name, label: candidate.label, tone: candidate.tone, count: candidate.count(totals!, filterContext) }));
    res.json({
      captures: shown.map(({ capture, judgment }) => traceView(capture, judgment, context.judging, hashOf)),
      nextCursor: page.length > limit ? shown.at(-1)!.cursor : null,
      counts: Object.fromEntries(counted.map((entry) => [entry.name, entry.count])),
      filters: counted,
      judgeVersion,
      ...context.judgeState(),
    });
  }
}
