import { describe, expect, it } from 'vitest';
import type { FetchOutcome } from './fetch-page.js';
import { loadRobots } from './robots.js';

const origin = new URL('https://docs.example.com/');

/** Answers by URL, recording what was asked. */
function answers(byUrl: Record<string, (url: URL) => FetchOutcome>) {
  const asked: string[] = [];
  const request = async (url: URL): Promise<FetchOutcome> => {
    asked.push(url.href);
    const answer = byUrl[url.href];
    return answer ? answer(url) : { kind: 'http_error', url, status: 404 };
  };
  return { request, asked };
}

const text = (body: string) => (url: URL): FetchOutcome => ({ kind: 'ok', url, status: 200, mediaType: 'text/plain', body, etag: null, lastModified: null, robotsTag: null });

describe('loadRobots', () => {
  it('uses the groundcheck group over *, with its Crawl-delay and the Sitemap lines', async () => {
    const { request } = answers({
      'https://docs.example.com/robots.txt': text('User-agent: *\nDisallow: /\nCrawl-delay: 9\n\nUser-agent: GroundCheck\nDisallow: /private\nAllow: /private/open$\nCrawl-delay: 1.5\n\nSitemap: https://docs.example.com/map.xml\n'),
    });
    const robots = await loadRobots(origin, 'groundcheck', request);
    expect({ status: robots.status, crawlDelayMs: robots.crawlDelayMs, sitemaps: robots.sitemaps }).toEqual({ status: 'file', crawlDelayMs: 1500, sitemaps: ['https://docs.example.com/map.xml'] });
    const allowed = ['/', '/private', '/private/x', '/private/open', 'https://other.example/'].map((path) => robots.isAllowed(new URL(path, origin)));
    expect(allowed).toEqual([true, false, false, true, false]);
  });

  it.each([
    ['a 404 allows everything', { status: 404 }, 'none', true],
    ['a 401 allows everything (RFC 9309: 4xx)', { status: 401 }, 'none', true],
    ['a 503 allows nothing', { status: 503 }, 'unavailable', false],
  ] as const)('%s', async (_case, { status }, expectedStatus, allowed) => {
    const robots = await loadRobots(origin, 'groundcheck', async (url) => ({ kind: 'http_error', url, status }));
    expect(robots.status).toBe(expectedStatus);
    expect(robots.isAllowed(new URL('/page', origin))).toBe(allowed);
  });

  it('follows same-origin redirects, and allows nothing when robots.txt redirects to another origin', async () => {
    const moved = answers({
      'https://docs.example.com/robots.txt': (url) => ({ kind: 'redirect', url, status: 301, location: new URL('/static/robots.txt', origin) }),
      'https://docs.example.com/static/robots.txt': text('User-agent: *\nDisallow: /drafts\n'),
    });
    const robots = await loadRobots(origin, 'groundcheck', moved.request);
    expect(robots.isAllowed(new URL('/drafts/a', origin))).toBe(false);
    expect(moved.asked).toEqual(['https://docs.example.com/robots.txt', 'https://docs.example.com/static/robots.txt']);

    const away = answers({ 'https://docs.example.com/robots.txt': (url) => ({ kind: 'redirect', url, status: 301, location: new URL('https://cdn.example.net/robots.txt') }) });
    const elsewhere = await loadRobots(origin, 'groundcheck', away.request);
    expect(elsewhere).toMatchObject({ status: 'unavailable', reason: 'https://docs.example.com/robots.txt redirects to https://cdn.example.net/robots.txt, another origin' });
    expect(away.asked).toEqual(['https://docs.example.com/robots.txt']);
  });

  it('throws host_unreachable when the host does not answer', async () => {
    await expect(loadRobots(origin, 'groundcheck', async (url) => ({ kind: 'network_error', url, message: 'connection refused', timedOut: false }))).rejects.toMatchObject({
      code: 'host_unreachable',
      message: 'cannot reach https://docs.example.com: connection refused',
    });
  });
});
