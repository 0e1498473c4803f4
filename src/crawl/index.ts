/** Crawl a site into the index: `groundcheck ingest <url>`. */
export { ingestSite, formatSiteIngestSummary, type SiteIngestOptions, type SiteIngestSummary, type SitePageEvent, type SiteAction } from './ingest-site.js';
export { crawlSite, checkCrawlOptions, DEFAULT_USER_AGENT, ROBOTS_TOKEN, type CrawlOptions, type CrawlEvent, type CrawlStats, type KnownPage, type SkipReason } from './crawler.js';
export { extractHtml, extractText, isoDate, EXTRACTOR_VERSION, type ExtractedPage, type ExtractOptions } from './extract.js';
export { fetchOnce, type FetchFunction, type FetchLimits, type FetchOutcome, type Validators } from './fetch-page.js';
export { HostQueue, type CrawlClock } from './politeness.js';
export { loadRobots, type RobotsRules } from './robots.js';
export { sitemapUrls, readSitemap } from './sitemap.js';
export { parseStartUrl, pageSlug } from './url.js';
export { CrawlError } from './errors.js';
