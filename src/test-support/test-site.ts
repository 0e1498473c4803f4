import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';

/** One route of a test site: a fixed answer, or a handler for anything else (a stream, a hang). */
export type SiteRoute =
  | { status?: number; type?: string; body?: string; headers?: Record<string, string>; etag?: string }
  | ((req: IncomingMessage, res: ServerResponse) => void);

export interface TestSite {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** Routes by path (with query); change them between crawls. A path with no route answers 404. */
  routes: Map<string, SiteRoute>;
  /** Every request, in order: path and the conditional headers sent. */
  requests: { path: string; ifNoneMatch: string | null; ifModifiedSince: string | null; userAgent: string | null }[];
  /** Answers given with status 304. */
  notModified: string[];
  url(path: string): string;
  close(): Promise<void>;
}

const sites: TestSite[] = [];
afterEach(async () => {
  while (sites.length > 0) await sites.pop()!.close();
});

/**
 * A small web site on 127.0.0.1 and a random port, closed after the test. A route with an `etag`
 * answers a matching `If-None-Match` with 304, as a real server would.
 */
export async function startTestSite(routes: Record<string, SiteRoute> = {}): Promise<TestSite> {
  const table = new Map(Object.entries(routes));
  const requests: TestSite['requests'] = [];
  const notModified: string[] = [];
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    requests.push({
      path,
      ifNoneMatch: header(req, 'if-none-match'),
      ifModifiedSince: header(req, 'if-modified-since'),
      userAgent: header(req, 'user-agent'),
    });
    const route = table.get(path);
    if (route === undefined) {
      res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
      return;
    }
    if (typeof route === 'function') {
      route(req, res);
      return;
    }
    const headers: Record<string, string> = { 'content-type': route.type ?? 'text/html; charset=utf-8', ...route.headers };
    if (route.etag) {
      headers.etag = route.etag;
      if (header(req, 'if-none-match') === route.etag) {
        notModified.push(path);
        res.writeHead(304, { etag: route.etag }).end();
        return;
      }
    }
    res.writeHead(route.status ?? 200, headers).end(route.body ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const site: TestSite = {
    origin,
    routes: table,
    requests,
    notModified,
    url: (path) => `${origin}${path}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  sites.push(site);
  return site;
}

/** A clock that only moves when slept on, recording each sleep: politeness without waiting. */
export function manualClock(): { now(): number; sleep(ms: number): Promise<void>; sleeps: number[] } {
  let time = 0;
  const sleeps: number[] = [];
  return {
    now: () => time,
    sleep: async (ms) => {
      sleeps.push(ms);
      time += ms;
    },
    sleeps,
  };
}

function header(req: IncomingMessage, name: string): string | null {
  const value = req.headers[name];
  return typeof value === 'string' ? value : null;
}
