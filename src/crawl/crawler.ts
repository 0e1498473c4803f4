import { setTimeout as sleepFor } from 'node:timers/promises';
import { crawlInputError } from './errors.js';
import { extractHtml, extractText, type ExtractedPage } from './extract.js';
import { fetchOnce, type FetchFunction, type FetchOutcome, type Validators } from './fetch-page.js';
import { HostQueue, type CrawlClock } from './politeness.js';
import { loadRobots, type RobotsRules } from './robots.js';
import { sitemapUrls } from './sitemap.js';
import { normalizePageUrl } from './url.js';

/** The User-Agent header groundcheck sends. */
export const DEFAULT_USER_AGENT = 'groundcheck/1 (ingest crawler; robots.txt token "groundcheck")';
/** The name groundcheck answers to in robots.txt (`User-agent: groundcheck`). */
export const ROBOTS_TOKEN = 'groundcheck';

const HTML_TYPES = ['text/html', 'application/xhtml+xml'];
const TEXT_TYPES = ['text/plain', 'text/markdown', 'text/x-markdown'];
const PAGE_TYPES = [...HTML_TYPES, ...TEXT_TYPES];
const SITEMAP_TYPES = ['application/xml', 'text/xml', 'application/rss+xml', 'text/plain'];
/** Redirect hops followed per page. */
const MAX_REDIRECTS = 5;

export interface CrawlOptions {
  /** Pages requested at most (robots.txt, sitemaps and redirect hops not counted). [maxPages=50] */
  maxPages?: number;
  /** Links followed at most this many steps from the start page (0: the start page alone). [maxDepth=no limit] */
  maxDepth?: number;
  /** Least time between two requests to the host; a longer robots.txt `Crawl-delay` wins. [delayMs=1000] */
  delayMs?: number;
  /** Per request, headers and body. [timeoutMs=10000] */
  timeoutMs?: number;
  /** Largest page read; a longer one is skipped, the rest of its body never read. [maxBytes=2097152 (2 MiB)] */
  maxBytes?: number;
  /** [userAgent='groundcheck/1 (ingest crawler; robots.txt token "groundcheck")'] */
  userAgent?: string;
  /** Read the sitemaps named in robots.txt (or `/sitemap.xml`) for pages to crawl. [useSitemap=true] */
  useSitemap?: boolean;
  /** [fetch=globalThis.fetch] */
  fetch?: FetchFunction;
  /** [clock=performance.now and a real timer] */
  clock?: CrawlClock;
  signal?: AbortSignal;
  /** Pages an earlier crawl stored, with their validators and depth: requested conditionally, and checked even when no link leads to them any more. */
  known?: ReadonlyMap<string, KnownPage>;
}

export interface KnownPage extends Validators {
  depth: number;
}

/** Why a URL gave no page. `gone` says the URL is no crawlable page now (a stored copy is stale); otherwise the failure may pass. */
export type SkipReason = 'robots' | 'http_error' | 'redirect' | 'off_origin_redirect' | 'too_many_redirects' | 'unsupported_type' | 'too_large' | 'noindex' | 'empty' | 'network_error';

export type CrawlEvent =
  | { kind: 'page'; url: URL; depth: number; page: ExtractedPage; etag: string | null; lastModified: string | null }
  | { kind: 'not_modified'; url: URL; depth: number }
  | { kind: 'skipped'; url: URL; reason: SkipReason; detail: string; gone: boolean };

export interface CrawlStats {
  origin: string;
  robots: RobotsRules;
  /** The delay kept between requests, after `Crawl-delay`. */
  delayMs: number;
  /** Every request made: robots.txt, sitemaps, pages and redirect hops. */
  requests: number;
  /** Pages requested, redirect hops not counted (what `maxPages` bounds). */
  pagesVisited: number;
  sitemapUrls: number;
  /** Distinct links to other origins found on the pages crawled (never requested). */
  offOriginLinks: number;
  /** Known pages not requested because `maxPages` or `maxDepth` was reached first. */
  notChecked: string[];
}

/**
 * Crawl one origin breadth-first from `start`: robots.txt first (its rules and `Crawl-delay`), then
 * the sitemap, then links, one request at a time at the host's pace. Each page's outcome is handed
 * to `onEvent` with the number of pages requested so far (awaited, so the caller can store a page
 * before the next request).
 *
 * @throws CrawlError `host_unreachable`; InvalidInputError `disallowed_by_robots` when robots.txt
 *   forbids the start page (or cannot be read, which RFC 9309 treats as forbidding everything).
 * @example
 * const stats = await crawlSite(new URL('https://docs.example.com/'), { maxPages: 20 }, async (event) => console.log(event.kind, event.url.href));
 */
export async function crawlSite(start: URL, options: CrawlOptions, onEvent: (event: CrawlEvent, pagesVisited: number) => Promise<void> | void): Promise<CrawlStats> {
  checkCrawlOptions(options);
  const settings = {
    maxPages: options.maxPages ?? 50,
    maxDepth: options.maxDepth ?? Number.POSITIVE_INFINITY,
    limits: { timeoutMs: options.timeoutMs ?? 10_000, maxBytes: options.maxBytes ?? 2 * 1024 * 1024, userAgent: options.userAgent ?? DEFAULT_USER_AGENT },
  };
  const fetch = options.fetch ?? globalThis.fetch;
  const clock = options.clock ?? { now: () => performance.now(), sleep: (ms: number, signal?: AbortSignal) => sleepFor(ms, undefined, { signal }) };
  const queue = new HostQueue({ delayMs: options.delayMs ?? 1000, clock });
  const origin = start.origin;
  let requests = 0;
  const request = (url: URL, accept: readonly string[] | 'any', validators: Validators | null = null): Promise<FetchOutcome> =>
    queue.run(
      url.host,
      () => {
        requests += 1;
        return fetchOnce(url, { fetch, limits: settings.limits, accept, validators, ...(options.signal ? { signal: options.signal } : {}) });
      },
      options.signal,
    );

  const robots = await loadRobots(start, ROBOTS_TOKEN, (url) => request(url, 'any'));
  if (robots.crawlDelayMs !== null) queue.setHostDelay(start.host, robots.crawlDelayMs);
  if (!robots.isAllowed(start)) {
    throw crawlInputError(
      'disallowed_by_robots',
      robots.status === 'unavailable'
        ? `${robots.reason}; without robots.txt nothing may be crawled (RFC 9309), so ${start.href} was not requested`
        : `${robots.url.href} disallows ${start.href} for groundcheck; nothing was crawled`,
    );
  }

  const frontier = new Frontier();
  frontier.add(start, 0);
  let sitemapCount = 0;
  if (options.useSitemap !== false && settings.maxDepth >= 1) {
    const listed = await sitemapUrls(robots.sitemaps.length > 0 ? robots.sitemaps : ['/sitemap.xml'], {
      origin,
      request: (url) => request(url, SITEMAP_TYPES),
      isAllowed: (url) => robots.isAllowed(url),
      maxUrls: Math.min(10_000, settings.maxPages * 4),
    });
    sitemapCount = listed.length;
    for (const url of listed) frontier.add(url, 1);
  }
  for (const [href, known] of options.known ?? []) {
    const url = new URL(href);
    if (url.origin === origin && known.depth <= settings.maxDepth) frontier.add(url, known.depth);
  }

  let pagesVisited = 0;
  const offOriginLinks = new Set<string>();
  // The limit is checked before taking the next URL: taking it marks it visited.
  while (pagesVisited < settings.maxPages) {
    const item = frontier.next();
    if (item === null) break;
    options.signal?.throwIfAborted();
    // A disallowed page costs no request, so it does not count against maxPages.
    if (!robots.isAllowed(item.url)) {
      await onEvent({ kind: 'skipped', url: item.url, reason: 'robots', detail: `disallowed by ${robots.url.href}`, gone: true }, pagesVisited);
      continue;
    }
    pagesVisited += 1;
    const result = await visit(item.url, item.depth);
    for (const event of result.events) await onEvent(event, pagesVisited);
    if (result.page && item.depth < settings.maxDepth) {
      for (const link of result.page.links.offOrigin) offOriginLinks.add(link);
      for (const link of result.page.links.pages) frontier.add(link, item.depth + 1);
    }
  }

  const notChecked = [...(options.known?.keys() ?? [])].filter((href) => !frontier.visited(href));
  return { origin, robots, delayMs: queue.delayFor(start.host), requests, pagesVisited, sitemapUrls: sitemapCount, offOriginLinks: offOriginLinks.size, notChecked };

  /** Request one page, following same-origin redirects that robots.txt allows. */
  async function visit(requested: URL, depth: number): Promise<{ events: CrawlEvent[]; page: ExtractedPage | null }> {
    const events: CrawlEvent[] = [];
    const skip = (url: URL, reason: SkipReason, detail: string, gone = true) => {
      events.push({ kind: 'skipped', url, reason, detail, gone });
      return { events, page: null };
    };
    let url = requested;
    for (let hop = 0; ; hop++) {
      if (!robots.isAllowed(url)) return skip(url, 'robots', `disallowed by ${robots.url.href}`);
      const outcome = await request(url, PAGE_TYPES, options.known?.get(url.href) ?? null);
      switch (outcome.kind) {
        case 'redirect': {
          const target = outcome.location === null ? null : normalizePageUrl(outcome.location);
          if (target === null) return skip(url, 'http_error', `answered ${outcome.status} without a Location`);
          if (target.origin !== origin) return skip(url, 'off_origin_redirect', `redirects to ${target.href}, another origin (not followed)`);
          if (hop >= MAX_REDIRECTS) return skip(url, 'too_many_redirects', `more than ${MAX_REDIRECTS} redirects`);
          skip(url, 'redirect', `redirects to ${target.href}`);
          if (frontier.visited(target.href)) return { events, page: null };
          frontier.markVisited(target);
          url = target;
          continue;
        }
        case 'not_modified':
          events.push({ kind: 'not_modified', url, depth });
          return { events, page: null };
        case 'http_error':
          return skip(url, 'http_error', `answered ${outcome.status}`, isGoneStatus(outcome.status));
        case 'unsupported_type':
          return skip(url, 'unsupported_type', `not HTML or text (${outcome.mediaType})`);
        case 'too_large':
          return skip(url, 'too_large', `larger than ${outcome.maxBytes} bytes`);
        case 'network_error':
          return skip(url, 'network_error', outcome.message, false);
        case 'ok': {
          const extractOptions = { lastModified: outcome.lastModified, robotsTag: outcome.robotsTag, robotsToken: ROBOTS_TOKEN };
          const page = HTML_TYPES.includes(outcome.mediaType) ? extractHtml(outcome.body, url, extractOptions) : extractText(outcome.body, extractOptions);
          if (page.noindex) skip(url, 'noindex', 'marked noindex');
          else if (page.markdown === '') skip(url, 'empty', 'no text after removing navigation and boilerplate');
          else events.push({ kind: 'page', url, depth, page, etag: outcome.etag, lastModified: outcome.lastModified });
          return { events, page };
        }
      }
    }
  }
}

/**
 * Check the numeric crawl options, naming the one that is wrong.
 *
 * @throws InvalidInputError `invalid_option`.
 */
export function checkCrawlOptions(options: CrawlOptions): void {
  const check = (name: keyof CrawlOptions, min: number, max: number) => {
    const value = options[name];
    if (value === undefined) return;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
      throw crawlInputError('invalid_option', `option ${name} ${String(value)} is invalid: use a whole number from ${min} to ${max}`);
    }
  };
  check('maxPages', 1, 100_000);
  if (options.maxDepth !== Number.POSITIVE_INFINITY) check('maxDepth', 0, 1000);
  check('delayMs', 0, 600_000);
  check('timeoutMs', 1, 600_000);
  check('maxBytes', 1024, 1024 * 1024 * 1024);
}

/** 4xx says the page is not there (or not for us); 5xx and 429 may pass. */
function isGoneStatus(status: number): boolean {
  return status >= 400 && status < 500 && status !== 429 && status !== 408;
}

/** Breadth-first order by depth; each URL queued once, at the first (lowest) depth it was found. */
class Frontier {
  private readonly byDepth = new Map<number, URL[]>();
  private readonly depths = new Map<string, number>();
  private readonly done = new Set<string>();

  add(url: URL, depth: number): void {
    const previous = this.depths.get(url.href);
    if (this.done.has(url.href) || (previous !== undefined && previous <= depth)) return;
    this.depths.set(url.href, depth);
    const bucket = this.byDepth.get(depth) ?? [];
    bucket.push(url);
    this.byDepth.set(depth, bucket);
  }

  /** The next URL at the lowest depth, or `null` when none is left. */
  next(): { url: URL; depth: number } | null {
    for (const depth of [...this.byDepth.keys()].sort((a, b) => a - b)) {
      const bucket = this.byDepth.get(depth)!;
      while (bucket.length > 0) {
        const url = bucket.shift()!;
        // Skipped when requested already, or re-queued since at a lower depth.
        if (this.done.has(url.href) || this.depths.get(url.href) !== depth) continue;
        this.done.add(url.href);
        return { url, depth };
      }
      this.byDepth.delete(depth);
    }
    return null;
  }

  markVisited(url: URL): void {
    this.done.add(url.href);
  }

  visited(href: string): boolean {
    return this.done.has(href);
  }
}
