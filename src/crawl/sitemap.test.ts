import { describe, expect, it } from 'vitest';
import type { FetchOutcome } from './fetch-page.js';
import { readSitemap, sitemapUrls } from './sitemap.js';

const origin = new URL('https://docs.example.com/');

/** Sitemap files by URL (anything else a 404), recording what was asked. */
function files(byUrl: Record<string, string>) {
  const asked: string[] = [];
  const request = async (url: URL): Promise<FetchOutcome> => {
    asked.push(url.href);
    const body = byUrl[url.href];
    if (body === undefined) return { kind: 'http_error', url, status: 404 };
    return { kind: 'ok', url, status: 200, mediaType: 'application/xml', body: `<?xml version="1.0" encoding="UTF-8"?>${body}`, etag: null, lastModified: null, robotsTag: null };
  };
  return { request, asked };
}

describe('sitemaps', () => {
  it('reads <urlset> and <sitemapindex> files, same origin only, allowed by robots only, up to the limit', async () => {
    const { request, asked } = files({
      'https://docs.example.com/index.xml':
        '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://docs.example.com/a.xml</loc></sitemap><sitemap><loc>https://cdn.example.net/b.xml</loc></sitemap><sitemap><loc>https://docs.example.com/private/c.xml</loc></sitemap></sitemapindex>',
      'https://docs.example.com/a.xml':
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc> https://docs.example.com/one </loc><lastmod>2026-01-01</lastmod></url><url><loc>https://other.example/two</loc></url><url><loc>https://docs.example.com/three#top</loc></url><url><loc>https://docs.example.com/four</loc></url></urlset>',
    });
    const urls = await sitemapUrls(['/index.xml'], { origin: origin.origin, request, isAllowed: (url) => !url.pathname.startsWith('/private'), maxUrls: 2 });
    expect(urls.map((url) => url.href)).toEqual(['https://docs.example.com/one', 'https://docs.example.com/three']);
    expect(asked).toEqual(['https://docs.example.com/index.xml', 'https://docs.example.com/a.xml']);
  });

  it('passes over what is not a sitemap', () => {
    expect(readSitemap('<html><body>Not found</body></html>')).toEqual({ kind: 'unknown', locations: [] });
    expect(readSitemap('not xml at all <<<')).toEqual({ kind: 'unknown', locations: [] });
  });
});
