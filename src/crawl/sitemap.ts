import { DOMParser } from 'linkedom';
import type { FetchOutcome } from './fetch-page.js';
import { resolveSameOrigin } from './url.js';

export interface SitemapOptions {
  origin: string;
  /** One request (the caller keeps the pace and checks robots.txt). */
  request: (url: URL) => Promise<FetchOutcome>;
  isAllowed: (url: URL) => boolean;
  /** Stop after this many page URLs. */
  maxUrls: number;
  /** Sitemap files read at most, index files included. [maxSitemaps=10] */
  maxSitemaps?: number;
}

/**
 * Page URLs listed by the sitemaps (`<urlset>` files, and `<sitemapindex>` files pointing to
 * more), in the order listed. Only same-origin sitemaps and URLs are used; a sitemap that is
 * missing, unreadable or not XML is passed over (a sitemap is a hint, not a requirement).
 */
export async function sitemapUrls(sitemaps: readonly string[], options: SitemapOptions): Promise<URL[]> {
  const base = new URL(options.origin);
  const queue = sitemaps.map((href) => resolveSameOrigin(href, base, options.origin)).filter((url): url is URL => url !== null);
  const seenSitemaps = new Set<string>();
  const pages = new Map<string, URL>();
  const maxSitemaps = options.maxSitemaps ?? 10;
  while (queue.length > 0 && seenSitemaps.size < maxSitemaps && pages.size < options.maxUrls) {
    const sitemap = queue.shift()!;
    if (seenSitemaps.has(sitemap.href) || !options.isAllowed(sitemap)) continue;
    seenSitemaps.add(sitemap.href);
    const outcome = await options.request(sitemap);
    if (outcome.kind !== 'ok') continue;
    const { kind, locations } = readSitemap(outcome.body);
    for (const location of locations) {
      const url = resolveSameOrigin(location, sitemap, options.origin);
      if (url === null) continue;
      if (kind === 'index') queue.push(url);
      else if (pages.size < options.maxUrls) pages.set(url.href, url);
    }
  }
  return [...pages.values()];
}

/** The `<loc>` entries of a sitemap file, and whether it is an index of sitemaps. */
export function readSitemap(xml: string): { kind: 'urls' | 'index' | 'unknown'; locations: string[] } {
  let document;
  try {
    document = new DOMParser().parseFromString(xml, 'text/xml');
  } catch {
    return { kind: 'unknown', locations: [] };
  }
  const root = document.documentElement?.localName?.toLowerCase() ?? '';
  const kind = root === 'urlset' ? 'urls' : root === 'sitemapindex' ? 'index' : 'unknown';
  if (kind === 'unknown') return { kind, locations: [] };
  const entry = kind === 'urls' ? 'url' : 'sitemap';
  const locations: string[] = [];
  for (const node of document.documentElement.children) {
    if (node.localName?.toLowerCase() !== entry) continue;
    const loc = [...node.children].find((child) => child.localName?.toLowerCase() === 'loc');
    const text = loc?.textContent?.trim();
    if (text) locations.push(text);
  }
  return { kind, locations };
}
