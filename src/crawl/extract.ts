import { gfm } from '@joplin/turndown-plugin-gfm';
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import TurndownService from 'turndown';
import { discoverLinks, type ParentNodeLike, type PageLinks } from './links.js';

/**
 * Version of what {@link extractHtml} and {@link extractText} make of a page. A crawl keys each
 * stored page by it (with the chunking), so a change here re-fetches and re-chunks every page on
 * the next crawl instead of trusting a 304 for Markdown made the old way.
 * - `extract-v1`: Readability on linkedom, Turndown with GFM tables, links and images as text only.
 */
export const EXTRACTOR_VERSION = 'extract-v1';

/** The text of one page, ready to chunk, and what the page says about crawling it. */
export interface ExtractedPage {
  /** The page's title: its one `<h1>`, else Readability's title (`<title>`, `og:title`…); `null` when it has none. */
  title: string | null;
  /** The main content as Markdown: no navigation, header, footer, sidebar, script or form. */
  markdown: string;
  /** `YYYY-MM-DD`: the page's modified-time metadata, else `Last-Modified`, else its published time; `null` when none. */
  updated: string | null;
  links: PageLinks;
  /** `<meta name="robots" content="noindex">` (or `X-Robots-Tag`): not to be stored. */
  noindex: boolean;
  /** `nofollow`: its links are not followed. */
  nofollow: boolean;
}

export interface ExtractOptions {
  /** The `Last-Modified` header, when sent. */
  lastModified?: string | null;
  /** The `X-Robots-Tag` header, when sent. */
  robotsTag?: string | null;
  /** The robots.txt user-agent name whose meta tag applies besides `robots`. [robotsToken='groundcheck'] */
  robotsToken?: string;
}

/**
 * Extract the main content of an HTML page as Markdown. Nothing on the page runs: linkedom parses
 * it and has no script engine.
 *
 * @example
 * const page = extractHtml(html, new URL('https://docs.example.com/leave'), { lastModified: response.headers.get('last-modified') });
 * page.title; // 'Leave Policy'
 */
export function extractHtml(html: string, pageUrl: URL, options: ExtractOptions = {}): ExtractedPage {
  const { document } = parseHTML(html);
  const directives = robotsDirectives(document, options);
  const links = directives.nofollow ? { pages: [], offOrigin: [] } : discoverLinks(document as unknown as ParentNodeLike, pageUrl);
  const updated = isoDate(modifiedMeta(document)) ?? isoDate(options.lastModified ?? null) ?? isoDate(publishedMeta(document));
  const headings = [...document.querySelectorAll('h1')].map((heading) => collapse(heading.textContent ?? '')).filter(Boolean);

  // A page that marks its main content is taken at its word: Readability then only cleans that
  // part. Left to score the whole page, it can pick a sidebar over a short article.
  const main = markedMain(document);
  if (main) {
    for (const node of [...main.querySelectorAll(CHROME_SELECTOR)]) node.remove();
    document.body.innerHTML = main.outerHTML;
  }
  const article = new Readability(document as unknown as ConstructorParameters<typeof Readability>[0], { charThreshold: 200 }).parse();
  // Readability edits the document it reads: the fallback parses the page again, as it was.
  const contentHtml = article?.content && collapse(article.textContent ?? '') !== '' ? article.content : mainContentHtml(parseHTML(html).document);
  const title = headings.length === 1 ? headings[0]! : collapse(article?.title ?? '') || collapse(document.querySelector('title')?.textContent ?? '') || null;
  // A leading rule would read as front matter to the chunker, and says nothing.
  const markdown = dropLeadingTitle(toMarkdown(contentHtml), title).replace(/^(?:---[ \t]*(?:\n|$)\s*)+/, '');
  return { title, markdown, updated, links, ...directives };
}

/** A `text/plain` or `text/markdown` page: its text as it is (a leading `# Title` becomes the title when chunked). */
export function extractText(text: string, options: ExtractOptions = {}): ExtractedPage {
  const directives = robotsDirectives(null, options);
  return { title: null, markdown: text.replace(/\r\n?/g, '\n').trim(), updated: isoDate(options.lastModified ?? null), links: { pages: [], offOrigin: [] }, ...directives };
}

/** The one `<main>` (or `role="main"`) of a page, else its one `<article>`; `null` when it marks none, or several. */
function markedMain(document: ReturnType<typeof parseHTML>['document']) {
  for (const selector of ['main, [role="main"]', 'article']) {
    const found = [...document.querySelectorAll(selector)];
    // A <main> inside another: the outer one holds it all.
    const outermost = found.filter((node) => !found.some((other) => other !== node && other.contains(node)));
    if (outermost.length === 1) return outermost[0]!;
    if (outermost.length > 1) return null;
  }
  return null;
}

/** Without Readability's pick: the marked main content or `<body>`, less its navigation and chrome. */
function mainContentHtml(document: ReturnType<typeof parseHTML>['document']): string {
  const root = markedMain(document) ?? document.body ?? document.documentElement;
  if (!root) return '';
  for (const node of [...root.querySelectorAll(CHROME_SELECTOR)]) node.remove();
  return root.innerHTML ?? '';
}

/** Page parts that are never content. */
const CHROME_SELECTOR = 'script, style, noscript, template, iframe, form, nav, header, footer, aside, [role="navigation"], [role="banner"], [role="contentinfo"], [aria-hidden="true"]';

let turndown: TurndownService | null = null;

function toMarkdown(html: string): string {
  turndown ??= createTurndown();
  return turndown
    .turndown(html)
    .replace(/[ \t]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

function createTurndown(): TurndownService {
  const service = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-', hr: '---', emDelimiter: '*' });
  service.use(gfm);
  // Chrome that Readability may leave inside the article, and things that are not text.
  service.remove(['script', 'style', 'noscript', 'template', 'iframe', 'form', 'button', 'select', 'nav', 'aside', 'footer']);
  // A chunk is for reading, not for clicking: a link is its words, an image nothing.
  service.addRule('linkText', { filter: 'a', replacement: (content) => content });
  service.addRule('noImages', { filter: ['img', 'picture', 'svg', 'video', 'audio', 'canvas'], replacement: () => '' });
  // Turndown backslash-escapes every Markdown character; chunk text only needs the line starts the
  // chunker would misread (a heading, a code fence) to stay text, so `snake_case` stays as written.
  service.escape = (text: string) => text.replace(/^(\s*)(#{1,6}[ \t]|```|~~~)/gm, '$1\\$2');
  return service;
}

/** Readability usually drops the heading that repeats the title; drop it when it did not. */
function dropLeadingTitle(markdown: string, title: string | null): string {
  if (title === null) return markdown;
  const match = /^#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*(?:\n|$)/.exec(markdown);
  if (match && collapse(match[1]!) === title) return markdown.slice(match[0].length).trim();
  return markdown;
}

function robotsDirectives(document: ReturnType<typeof parseHTML>['document'] | null, options: ExtractOptions): { noindex: boolean; nofollow: boolean } {
  const token = (options.robotsToken ?? 'groundcheck').toLowerCase();
  const values: string[] = [];
  if (options.robotsTag) values.push(...headerDirectives(options.robotsTag, token));
  for (const meta of document ? [...document.querySelectorAll('meta[name][content]')] : []) {
    const name = (meta.getAttribute('name') ?? '').toLowerCase();
    if (name === 'robots' || name === token) values.push(...(meta.getAttribute('content') ?? '').toLowerCase().split(/[\s,]+/));
  }
  return { noindex: values.includes('noindex') || values.includes('none'), nofollow: values.includes('nofollow') || values.includes('none') };
}

/** `X-Robots-Tag: noindex` or `X-Robots-Tag: groundcheck: noindex, nofollow`; rules for other bots are ignored. */
function headerDirectives(header: string, token: string): string[] {
  const directives: string[] = [];
  for (const part of header.toLowerCase().split(/,(?=\s*[a-z-]+\s*:)|\n/)) {
    const agent = /^\s*([a-z0-9_-]+)\s*:(?!\/\/)\s*(.*)$/.exec(part);
    if (agent && !KNOWN_DIRECTIVES.has(agent[1]!)) {
      if (agent[1] === token) directives.push(...agent[2]!.split(/[\s,]+/));
      continue;
    }
    directives.push(...part.split(/[\s,]+/));
  }
  return directives;
}

/** Directives that take a value (`max-snippet: 20`), so `name:` before them is not a bot name. */
const KNOWN_DIRECTIVES = new Set(['max-snippet', 'max-image-preview', 'max-video-preview', 'unavailable_after']);

const MODIFIED_META = ['article:modified_time', 'og:updated_time', 'last-modified', 'dcterms.modified', 'dc.date.modified', 'datemodified'];
const PUBLISHED_META = ['article:published_time', 'dcterms.created', 'dc.date', 'datepublished', 'date'];

function modifiedMeta(document: ReturnType<typeof parseHTML>['document']): string | null {
  return metaValue(document, MODIFIED_META) ?? jsonLdValue(document, 'dateModified');
}

function publishedMeta(document: ReturnType<typeof parseHTML>['document']): string | null {
  return metaValue(document, PUBLISHED_META) ?? jsonLdValue(document, 'datePublished') ?? document.querySelector('time[datetime]')?.getAttribute('datetime') ?? null;
}

function metaValue(document: ReturnType<typeof parseHTML>['document'], names: readonly string[]): string | null {
  const found = new Map<string, string>();
  for (const meta of [...document.querySelectorAll('meta[content]')]) {
    const name = (meta.getAttribute('property') ?? meta.getAttribute('name') ?? meta.getAttribute('itemprop') ?? '').toLowerCase();
    if (names.includes(name) && !found.has(name)) found.set(name, meta.getAttribute('content') ?? '');
  }
  for (const name of names) if (found.get(name)) return found.get(name)!;
  return null;
}

function jsonLdValue(document: ReturnType<typeof parseHTML>['document'], key: 'dateModified' | 'datePublished'): string | null {
  for (const script of [...document.querySelectorAll('script[type="application/ld+json"]')]) {
    try {
      const data: unknown = JSON.parse(script.textContent ?? '');
      for (const item of Array.isArray(data) ? data : [data]) {
        const value = (item as Record<string, unknown> | null)?.[key];
        if (typeof value === 'string' && value !== '') return value;
      }
    } catch {
      // Malformed JSON-LD is common and says nothing about the page's text.
    }
  }
  return null;
}

/**
 * `YYYY-MM-DD` from a metadata date or an HTTP date: an ISO date keeps the day as written (no
 * shift by time zone), anything else `Date` can read becomes its UTC day; `null` when unreadable.
 */
export function isoDate(value: string | null): string | null {
  if (value === null) return null;
  const trimmed = value.trim();
  const iso = /^(\d{4}-\d{2}-\d{2})(?:$|[T\s])/.exec(trimmed);
  if (iso) return Number.isNaN(Date.parse(iso[1]!)) ? null : iso[1]!;
  const time = Date.parse(trimmed);
  return Number.isNaN(time) ? null : new Date(time).toISOString().slice(0, 10);
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
