import robotsParserModule from 'robots-parser';
import { CrawlError } from './errors.js';
import type { FetchOutcome } from './fetch-page.js';

/** What robots.txt allows groundcheck on one origin. */
export interface RobotsRules {
  /**
   * `file`: robots.txt was read. `none`: it does not exist (a 4xx), so everything is allowed.
   * `unavailable`: it could not be read (a 5xx, a redirect to another origin or a loop), so,
   * as RFC 9309 asks, nothing is allowed.
   */
  status: 'file' | 'none' | 'unavailable';
  /** Why the rules are `unavailable`; `null` otherwise. */
  reason: string | null;
  url: URL;
  isAllowed(url: URL): boolean;
  /** `Crawl-delay` for groundcheck (or `*`), in ms; `null` when robots.txt sets none. */
  crawlDelayMs: number | null;
  /** `Sitemap:` lines, as written. */
  sitemaps: string[];
}

// robots-parser is CommonJS (`module.exports = fn`) typed as an ES module with a default export:
// imported from ESM, the default import is the function itself.
const robotsParser = robotsParserModule as unknown as typeof robotsParserModule.default;

/** How many redirects robots.txt may take (RFC 9309: at least five). */
const MAX_ROBOTS_REDIRECTS = 5;

/**
 * Read `/robots.txt` of `origin` through `request` (one hop per call; the caller keeps the pace)
 * and return the rules for `token` (a robots.txt user-agent name, matched case-insensitively,
 * falling back to the `*` group).
 *
 * @throws CrawlError `host_unreachable` when the host does not answer at all.
 */
export async function loadRobots(origin: URL, token: string, request: (url: URL) => Promise<FetchOutcome>): Promise<RobotsRules> {
  const robotsUrl = new URL('/robots.txt', origin);
  let url = robotsUrl;
  for (let hop = 0; hop <= MAX_ROBOTS_REDIRECTS; hop++) {
    const outcome = await request(url);
    switch (outcome.kind) {
      case 'ok': {
        const robots = robotsParser(robotsUrl.href, outcome.body);
        const delaySeconds = robots.getCrawlDelay(token);
        return {
          status: 'file',
          reason: null,
          url: robotsUrl,
          // `undefined` means the URL is not on this origin: never allowed.
          isAllowed: (page) => robots.isAllowed(page.href, token) === true,
          crawlDelayMs: typeof delaySeconds === 'number' && Number.isFinite(delaySeconds) && delaySeconds > 0 ? Math.round(delaySeconds * 1000) : null,
          sitemaps: robots.getSitemaps(),
        };
      }
      case 'redirect':
        if (outcome.location === null || outcome.location.origin !== origin.origin) {
          const where = outcome.location === null ? 'nowhere (no Location header)' : `${outcome.location.href}, another origin`;
          return unavailable(robotsUrl, `${robotsUrl.href} redirects to ${where}`);
        }
        url = outcome.location;
        continue;
      case 'http_error':
        if (outcome.status >= 400 && outcome.status < 500) return allowAll(robotsUrl);
        return unavailable(robotsUrl, `${robotsUrl.href} answered ${outcome.status}`);
      case 'network_error':
        throw new CrawlError('host_unreachable', `cannot reach ${origin.origin}: ${outcome.message}`, { url: robotsUrl.href });
      case 'too_large':
        // A robots.txt cut short could have lost the very rule that applies.
        return unavailable(robotsUrl, `${robotsUrl.href} is larger than ${outcome.maxBytes} bytes`);
      case 'not_modified':
      case 'unsupported_type':
        // Not asked for: robots.txt is fetched unconditionally and read whatever its type.
        return unavailable(robotsUrl, `${robotsUrl.href} gave an unexpected answer (${outcome.kind})`);
    }
  }
  return unavailable(robotsUrl, `${robotsUrl.href} redirects more than ${MAX_ROBOTS_REDIRECTS} times`);
}

function allowAll(url: URL): RobotsRules {
  return { status: 'none', reason: null, url, isAllowed: () => true, crawlDelayMs: null, sitemaps: [] };
}

function unavailable(url: URL, reason: string): RobotsRules {
  return { status: 'unavailable', reason, url, isAllowed: () => false, crawlDelayMs: null, sitemaps: [] };
}
