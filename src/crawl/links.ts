import { resolveSameOrigin } from './url.js';

/** Links whose path ends like this are files, not pages: not worth a request. */
const FILE_EXTENSION = /\.(?:pdf|png|jpe?g|gif|webp|avif|svg|ico|bmp|tiff?|zip|gz|tgz|bz2|xz|7z|rar|tar|dmg|exe|msi|deb|rpm|apk|iso|mp3|mp4|m4a|ogg|wav|webm|mov|avi|woff2?|ttf|otf|eot|css|js|mjs|json|xml|rss|atom|csv|xlsx?|docx?|pptx?|odt)$/i;

/** What a page links to. */
export interface PageLinks {
  /** Same-origin page URLs, without fragments, each once, in document order. */
  pages: URL[];
  /** http(s) links to other origins, each once: counted, never followed. */
  offOrigin: string[];
}

/**
 * The links of a page worth crawling: `<a href>` resolved against the page (or its `<base href>`),
 * same origin only; links marked `rel="nofollow"` or `download`, and links to files by their
 * extension (`.pdf`, `.png`, `.zip`…), are left out.
 */
export function discoverLinks(document: ParentNodeLike, pageUrl: URL): PageLinks {
  const baseHref = document.querySelector('base[href]')?.getAttribute('href');
  const base = (baseHref ? resolveBase(baseHref, pageUrl) : null) ?? pageUrl;
  const pages = new Map<string, URL>();
  const offOrigin = new Set<string>();
  for (const anchor of document.querySelectorAll('a[href]')) {
    const href = anchor.getAttribute('href') ?? '';
    const rel = (anchor.getAttribute('rel') ?? '').toLowerCase().split(/\s+/);
    if (rel.includes('nofollow') || anchor.hasAttribute('download')) continue;
    const url = resolveSameOrigin(href, base, pageUrl.origin);
    if (url === null) {
      const other = otherOriginPage(href, base, pageUrl.origin);
      if (other !== null) offOrigin.add(other);
      continue;
    }
    if (FILE_EXTENSION.test(url.pathname)) continue;
    if (!pages.has(url.href)) pages.set(url.href, url);
  }
  return { pages: [...pages.values()], offOrigin: [...offOrigin] };
}

/** The DOM surface used here (linkedom's document has it). */
export interface ParentNodeLike {
  querySelector(selector: string): ElementLike | null;
  querySelectorAll(selector: string): Iterable<ElementLike>;
}

interface ElementLike {
  getAttribute(name: string): string | null;
  hasAttribute(name: string): boolean;
}

function resolveBase(href: string, pageUrl: URL): URL | null {
  try {
    return new URL(href, pageUrl);
  } catch {
    return null;
  }
}

/** The link without its fragment when it is an http(s) page on another origin, else `null`. */
function otherOriginPage(href: string, base: URL, origin: string): string | null {
  try {
    const url = new URL(href.trim(), base);
    url.hash = '';
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin !== origin ? url.href : null;
  } catch {
    return null;
  }
}
