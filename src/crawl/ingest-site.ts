import { createHash } from 'node:crypto';
import { chunkDocument, contentHash, pageDocument, type ChunkOptions } from '../rag/chunk.js';
import { chunkingKey, embedChunks } from '../rag/ingest.js';
import type { GroundcheckIndex, StoredPage } from '../rag/store.js';
import { crawlSite, type CrawlEvent, type CrawlOptions, type CrawlStats, type KnownPage } from './crawler.js';
import { crawlInputError } from './errors.js';
import { EXTRACTOR_VERSION, type ExtractedPage } from './extract.js';
import { pageSlug, parseStartUrl } from './url.js';

export interface SiteIngestOptions extends Omit<CrawlOptions, 'known'>, ChunkOptions {
  /** Texts per embedding call. [batchSize=64] */
  batchSize?: number;
  /** Called once per page as it is handled, for progress output. */
  onPage?: (event: SitePageEvent) => void;
  /** Wall clock for the stored fetch times. [now=() => new Date()] */
  now?: () => Date;
}

export type SiteAction = 'added' | 'replaced' | 'unchanged' | 'removed' | 'skipped' | 'kept';

/** One page handled: what was done with it, and why when it was not stored. */
export interface SitePageEvent {
  url: string;
  action: SiteAction;
  /** Chunks written (`added`, `replaced`), removed (`removed`) or stored (`unchanged`, `kept`). */
  chunks: number;
  /** Why it was skipped, removed or kept (`answered 404`, `disallowed by …/robots.txt`); `null` otherwise. */
  reason: string | null;
  /** Pages requested so far, and the most that will be. */
  visited: number;
  maxPages: number;
}

export interface SiteIngestSummary {
  origin: string;
  startUrl: string;
  added: string[];
  replaced: string[];
  /** Unchanged since the last crawl: a 304 to a conditional request, or the same text. */
  unchanged: string[];
  /** Stored pages that are gone (4xx, disallowed now, moved, no longer HTML or text, noindex). */
  removed: { url: string; reason: string }[];
  /** URLs that gave no page and had none stored. */
  skipped: { url: string; reason: string }[];
  /** Stored pages that failed in a way that may pass (5xx, timeouts): their stored copy is kept. */
  kept: { url: string; reason: string }[];
  /** Stored pages not requested because `maxPages` or `maxDepth` was reached first: kept as they are. */
  notChecked: string[];
  crawl: Omit<CrawlStats, 'notChecked' | 'robots'> & { robots: CrawlStats['robots']['status']; crawlDelayMs: number | null };
  chunksWritten: number;
  chunksRemoved: number;
  documents: number;
  chunks: number;
  durationMs: number;
}

/**
 * Crawl a site into the index, incrementally. Each page's main content becomes a document whose
 * path is its URL and whose title and date are the page's; chunks are made as for files.
 * Re-crawling sends each stored page's `ETag`/`Last-Modified` back: a 304, or the same text,
 * skips it. A stored page that is gone (4xx, disallowed, moved, no longer HTML or text) is
 * removed; one that failed in a way that may pass (5xx, timeout) is kept. Documents from folders,
 * and pages of other origins, are left alone. Nothing is removed when no page could be crawled.
 *
 * @throws InvalidInputError `invalid_url`, `invalid_option`, `disallowed_by_robots`, `no_crawlable_pages`;
 *   CrawlError `host_unreachable`.
 * @example
 * const summary = await ingestSite(index, 'https://docs.example.com/', { maxPages: 50 });
 * console.log(formatSiteIngestSummary(summary));
 */
export async function ingestSite(index: GroundcheckIndex, startUrl: string, options: SiteIngestOptions = {}): Promise<SiteIngestSummary> {
  const started = performance.now();
  const start = parseStartUrl(startUrl);
  const now = options.now ?? (() => new Date());
  const processingKey = JSON.stringify([EXTRACTOR_VERSION, chunkingKey(options)]);
  const stored = new Map(index.listPages(start.origin).map((page) => [page.url, page]));
  const known = new Map<string, KnownPage>();
  for (const page of stored.values()) {
    // A 304 proves the page, not the chunks: trusted only for chunks made the current way.
    const current = page.processingKey === processingKey;
    known.set(page.url, { etag: current ? page.etag : null, lastModified: current ? page.lastModified : null, depth: page.depth });
  }
  const slugOwners = new Map(index.listDocuments().map((document) => [document.slug, document.path]));
  const summary: SiteIngestSummary = {
    origin: start.origin, startUrl: start.href, added: [], replaced: [], unchanged: [], removed: [], skipped: [], kept: [], notChecked: [],
    crawl: { origin: start.origin, robots: 'none', crawlDelayMs: null, delayMs: 0, requests: 0, pagesVisited: 0, sitemapUrls: 0, offOriginLinks: 0 },
    chunksWritten: 0, chunksRemoved: 0, documents: 0, chunks: 0, durationMs: 0,
  };
  const gone = new Map<string, string>();
  let visited = 0;
  const maxPages = options.maxPages ?? 50;
  const report = (url: string, action: SiteAction, chunks: number, reason: string | null = null) =>
    options.onPage?.({ url, action, chunks, reason, visited, maxPages });

  const handle = async (event: CrawlEvent, pagesVisited: number) => {
    const url = event.url.href;
    const previous = stored.get(url);
    visited = pagesVisited;
    if (event.kind === 'not_modified') {
      // Only stored pages are asked conditionally, so `previous` is there.
      if (previous) index.touchPage(url, { etag: previous.etag, lastModified: previous.lastModified, depth: Math.min(previous.depth, event.depth), fetchedAt: now().toISOString() });
      summary.unchanged.push(url);
      report(url, 'unchanged', previous?.chunkCount ?? 0, 'answered 304 Not Modified');
      return;
    }
    if (event.kind === 'skipped') {
      if (previous && event.gone) {
        gone.set(url, event.detail);
      } else if (previous) {
        summary.kept.push({ url, reason: event.detail });
        report(url, 'kept', previous.chunkCount, event.detail);
      } else {
        summary.skipped.push({ url, reason: event.detail });
        report(url, 'skipped', 0, event.detail);
      }
      return;
    }
    await storePage(event.url, event.page, event, previous);
  };

  const storePage = async (url: URL, page: ExtractedPage, fetch: { depth: number; etag: string | null; lastModified: string | null }, previous: StoredPage | undefined) => {
    const slug = uniqueSlug(pageSlug(url), url.href, slugOwners);
    // Title and date travel as fields; a text page's own front matter or `# Title` wins.
    const document = { ...pageDocument(slug, page), slug };
    const hash = createHash('sha256').update(processingKey).update('\0').update(JSON.stringify([document.title, document.updated, page.markdown])).digest('hex');
    const source = { origin: url.origin, etag: fetch.etag, lastModified: fetch.lastModified, depth: fetch.depth, processingKey, fetchedAt: now().toISOString() };
    if (previous && previous.contentHash === hash) {
      index.touchPage(url.href, source);
      summary.unchanged.push(url.href);
      report(url.href, 'unchanged', previous.chunkCount, 'same text');
      return;
    }
    const chunks = chunkDocument(document, options);
    // A re-crawled page that changed keeps the vectors of its unchanged chunk texts.
    const vectors = await embedChunks(index, chunks, options.batchSize ?? 64, previous ? [index.vectorsByChunkHash([url.href])] : []);
    index.putDocument({ path: url.href, slug, title: document.title, updated: document.updated, contentHash: hash }, chunks, vectors, source);
    slugOwners.set(slug, url.href);
    summary.chunksWritten += chunks.length;
    if (previous) {
      summary.chunksRemoved += previous.chunkCount;
      summary.replaced.push(url.href);
    } else {
      summary.added.push(url.href);
    }
    report(url.href, previous ? 'replaced' : 'added', chunks.length);
  };

  const { robots, notChecked, ...stats } = await crawlSite(start, { ...options, known }, handle);
  summary.crawl = { ...stats, robots: robots.status, crawlDelayMs: robots.crawlDelayMs };
  summary.notChecked = notChecked;

  const crawlable = summary.added.length + summary.replaced.length + summary.unchanged.length;
  if (crawlable === 0) {
    throw crawlInputError('no_crawlable_pages', `no crawlable pages at ${start.href}: ${whyNothing(summary, gone)}${gone.size > 0 ? '; the stored pages were kept' : ''}`);
  }
  for (const [url, reason] of gone) {
    const previous = stored.get(url)!;
    index.removeDocument(url);
    summary.removed.push({ url, reason });
    summary.chunksRemoved += previous.chunkCount;
    report(url, 'removed', previous.chunkCount, reason);
  }
  summary.documents = index.listDocuments().length;
  summary.chunks = index.chunkCount();
  summary.durationMs = performance.now() - started;
  return summary;
}

/**
 * The page's slug, or, when a document from another path (a folder file, another page whose URL
 * slugifies the same) holds it, the slug with a short hash of the URL.
 */
function uniqueSlug(slug: string, url: string, owners: ReadonlyMap<string, string>): string {
  const owner = owners.get(slug);
  if (owner === undefined || owner === url) return slug;
  return `${slug}-${contentHash(url).slice(0, 8)}`;
}

function count(value: number, noun: string): string {
  return `${value} ${noun}${value === 1 ? '' : 's'}`;
}

function whyNothing(summary: SiteIngestSummary, gone: ReadonlyMap<string, string>): string {
  const reasons = [...summary.skipped.map((entry) => `${entry.url} ${entry.reason}`), ...[...gone].map(([url, reason]) => `${url} ${reason}`)];
  if (reasons.length === 0) return 'no page was requested';
  const shown = reasons.slice(0, 3).join('; ');
  return reasons.length > 3 ? `${shown}; and ${reasons.length - 3} more` : shown;
}

/** One line per page acted on, then totals: what `groundcheck ingest <url>` prints. */
export function formatSiteIngestSummary(summary: SiteIngestSummary): string {
  const lines: string[] = [];
  for (const url of summary.added) lines.push(`  added     ${url}`);
  for (const url of summary.replaced) lines.push(`  replaced  ${url}`);
  for (const { url, reason } of summary.removed) lines.push(`  removed   ${url} (${reason})`);
  for (const { url, reason } of summary.kept) lines.push(`  kept      ${url} (${reason}; the stored copy stays)`);
  for (const { url, reason } of summary.skipped) lines.push(`  skipped   ${url} (${reason})`);
  const crawl = summary.crawl;
  const robots = crawl.robots === 'file' ? 'robots.txt obeyed' : crawl.robots === 'none' ? 'no robots.txt' : 'robots.txt unavailable';
  lines.push(
    `${summary.origin}: ${count(crawl.pagesVisited, 'page')} requested (${count(crawl.requests, 'request')} in all, ${robots}, ` +
      `${crawl.delayMs} ms between requests${crawl.crawlDelayMs !== null ? ' as Crawl-delay asks' : ''}, ` +
      `${count(crawl.sitemapUrls, 'URL')} from the sitemap, ${count(crawl.offOriginLinks, 'link')} to other origins not followed)`,
  );
  if (summary.notChecked.length > 0) {
    lines.push(`${count(summary.notChecked.length, 'stored page')} not re-checked (--max-pages or --max-depth reached first): kept as they were`);
  }
  lines.push(
    `${summary.added.length} added, ${summary.replaced.length} replaced, ${summary.unchanged.length} unchanged (skipped), ` +
      `${summary.removed.length} removed, ${summary.skipped.length} skipped; ${summary.chunksWritten} chunks written, ${summary.chunksRemoved} removed; ` +
      `index holds ${summary.documents} documents, ${summary.chunks} chunks (${Math.round(summary.durationMs)} ms)`,
  );
  return lines.join('\n');
}
