import { slugify } from '../rag/chunk.js';
import { crawlInputError } from './errors.js';

/**
 * Parse the URL a crawl starts from: http or https only, no credentials.
 *
 * @throws InvalidInputError `invalid_url`.
 * @example
 * parseStartUrl('https://docs.example.com/guide/#intro').href // 'https://docs.example.com/guide/'
 */
export function parseStartUrl(input: string): URL {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw crawlInputError('invalid_url', `"${input}" is not a URL: give one like https://docs.example.com/`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw crawlInputError('invalid_url', `${input} is not an http or https URL: only web pages can be crawled`);
  }
  if (url.username !== '' || url.password !== '') {
    throw crawlInputError('invalid_url', `${url.origin} was given with a user name or password in the URL; groundcheck crawls public pages only`);
  }
  return normalizePageUrl(url);
}

/** A page's identity: the URL without its fragment (the same page), everything else kept. */
export function normalizePageUrl(url: URL): URL {
  const page = new URL(url.href);
  page.hash = '';
  return page;
}

/**
 * Resolve a link found on a page: an absolute http(s) page URL on `origin`, or `null` for a link
 * to another origin, another scheme (`mailto:`, `javascript:`) or a malformed one.
 */
export function resolveSameOrigin(href: string, base: URL, origin: string): URL | null {
  let url: URL;
  try {
    url = new URL(href.trim(), base);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.origin !== origin) return null;
  return normalizePageUrl(url);
}

/**
 * The document id of a crawled page: its host, then its path segments, slugified
 * (`https://docs.example.com/guide/leave?lang=en` → `docs-example-com/guide/leave/lang-en`), so
 * chunk ids read like the page they came from.
 */
export function pageSlug(url: URL): string {
  const segments = [url.host, ...decodeSegments(url.pathname.replace(PAGE_EXTENSION, ''))];
  if (url.search !== '') segments.push(url.search.slice(1));
  return segments.map(slugify).filter((segment) => segment !== '').join('/');
}

/** File extensions that say nothing about a page's content: `/guide/leave.html` is `…/guide/leave`. */
const PAGE_EXTENSION = /\.(?:html?|xhtml|php|aspx?|jsp|md|markdown|txt)$/i;

function decodeSegments(pathname: string): string[] {
  return pathname.split('/').map((segment) => {
    try {
      return decodeURIComponent(segment);
    } catch {
      return segment;
    }
  });
}
