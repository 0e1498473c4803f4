import { Readable } from 'node:stream';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractCitations } from '../contract/formats.js';
import { createLocalEmbedder } from '../providers/local/embedder.js';
import { createLocalChatModel } from '../providers/local/generator.js';
import { createRagPipeline } from '../rag/pipeline.js';
import { toAnswerPayload } from '../rag/sources.js';
import { openIndex, type GroundcheckIndex } from '../rag/store.js';
import { onCleanup, tempDir } from '../test-support/fixtures.js';
import { manualClock, startTestSite, type TestSite } from '../test-support/test-site.js';
import { InvalidInputError } from '../errors.js';
import { CrawlError } from './errors.js';
import { formatSiteIngestSummary, ingestSite } from './ingest-site.js';

// Words that appear only in a page's navigation, header, footer or scripts: none may reach a chunk.
const BOILERPLATE = ['Navword', 'Footerword', 'Bannerword', 'Sidebarword', 'Scriptword'];

function page(title: string, main: string, head = ''): string {
  return `<!doctype html><html><head><title>${title} | Acme Handbook</title>${head}
<script>document.title = 'Scriptword';</script><style>.x { color: red }</style></head>
<body>
<header><p>Bannerword Acme Handbook</p><nav><a href="/">Home Navword</a> <a href="/policies/leave">Leave Navword</a> <a href="/private/salaries">Salaries Navword</a></nav></header>
<aside><p>Sidebarword: popular pages this week, with many links and little text.</p></aside>
<main><article>${main}</article></main>
<footer><p>Footerword. Copyright 2026 Acme Corp. All rights reserved. Privacy. Cookies. Contact us.</p></footer>
</body></html>`;
}

function paragraphs(...texts: string[]): string {
  return texts.map((text) => `<p>${text}</p>`).join('\n');
}

/** A body far larger than any page limit, streamed in small pieces; records whether it was sent whole. */
function hugeRoute(state: { finished: boolean }) {
  return (_req: unknown, res: import('node:http').ServerResponse) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    let sent = 0;
    const total = 64 * 1024 * 1024;
    const piece = Buffer.alloc(64 * 1024, 'a');
    const stream = new Readable({
      read() {
        if (sent >= total) {
          state.finished = true;
          this.push(null);
          return;
        }
        sent += piece.length;
        this.push(piece);
      },
    });
    stream.pipe(res);
  };
}

async function handbookSite(partner: TestSite, huge: { finished: boolean }): Promise<TestSite> {
  const site = await startTestSite();
  const origin = site.origin;
  const routes: Record<string, Parameters<typeof site.routes.set>[1]> = {
    // The `*` group forbids everything: only the groundcheck group lets the crawl in.
    '/robots.txt': {
      type: 'text/plain',
      body: `User-agent: *\nDisallow: /\n\nUser-agent: groundcheck\nDisallow: /private/\nCrawl-delay: 2\n\nSitemap: ${origin}/sitemap.xml\n`,
    },
    '/sitemap.xml': {
      type: 'application/xml',
      body: `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>${origin}/policies/leave</loc></url><url><loc>${origin}/orphan</loc></url><url><loc>${partner.origin}/listed-elsewhere</loc></url></urlset>`,
    },
    '/': {
      body: page(
        'Welcome',
        `<h1>Welcome to the Acme Handbook</h1>
${paragraphs(
  'This handbook holds the policies every Acme employee should know, written by the people team and reviewed every quarter.',
  'Start with the <a href="/policies/leave">leave policy</a>, read about <a href="/old/expenses">expenses</a> and the <a href="/notes.txt">office notes</a>.',
  `Some links lead nowhere useful: <a href="/missing">an old page</a>, <a href="/huge">the archive</a>, <a href="/files/report">the annual report</a>, <a href="/logo.png">our logo</a>, <a href="/partner">our partner</a>, <a href="${partner.origin}/welcome">the partner site</a> and <a href="/private/salaries">salaries</a>.`,
)}`,
      ),
    },
    '/policies/leave': {
      etag: '"leave-v1"',
      body: page(
        'Leave Policy',
        `<h1>Leave Policy</h1>
${paragraphs(
  'Every employee receives 25 days of annual leave each year, on top of public holidays, booked through the people portal at least two weeks ahead.',
  'Unused days up to five may be carried over into the first quarter of the next year; anything beyond that lapses on 31 December.',
)}
<h2>Parental leave</h2>
${paragraphs('Parents receive 20 weeks of paid parental leave, for birth and adoption alike, and may split it into at most three blocks.')}
<table><thead><tr><th>Years of service</th><th>Days of leave</th></tr></thead><tbody><tr><td>0 to 2</td><td>25</td></tr><tr><td>3 or more</td><td>28</td></tr></tbody></table>`,
        '<meta property="article:modified_time" content="2026-01-12T09:30:00Z">',
      ),
    },
    '/old/expenses': { status: 301, headers: { location: '/policies/expenses' } },
    '/policies/expenses': {
      headers: { 'last-modified': 'Tue, 03 Mar 2026 10:00:00 GMT' },
      body: page(
        'Expenses',
        `<h1>Expenses</h1>${paragraphs(
          'Travel and meal expenses are repaid within ten working days once the receipt is uploaded to the finance portal with the project code.',
          'Taxis are repaid only after 10pm or when no public transport runs; the expense_code field must name the client.',
        )}`,
      ),
    },
    '/notes.txt': { type: 'text/plain; charset=utf-8', body: '# Office Notes\n\nThe office opens at 8am and closes at 7pm on weekdays; the front desk keeps spare keys.\n' },
    '/orphan': {
      body: page('Canteen', `<h1>Canteen</h1>${paragraphs('The canteen serves lunch from noon to 2pm and takes card payments only; the menu changes every Monday morning.')}`),
    },
    '/files/report': { type: 'application/pdf', body: '%PDF-1.4 not really a pdf' },
    '/partner': { status: 302, headers: { location: `${partner.origin}/landing` } },
    '/huge': hugeRoute(huge),
    '/private/salaries': { body: page('Salaries', paragraphs('Secret salary bands that must never be crawled.')) },
  };
  for (const [path, route] of Object.entries(routes)) site.routes.set(path, route);
  return site;
}

function freshIndex(): GroundcheckIndex {
  const index = openIndex({ path: join(tempDir(), 'index.db'), embedder: createLocalEmbedder() });
  onCleanup(() => index.close());
  return index;
}

function allChunks(index: GroundcheckIndex) {
  return [...index.chunkHashes().keys()].map((chunkId) => index.getChunk(chunkId)!);
}

/** The crawl as tests run it: the real fetch to 127.0.0.1, a clock that never waits, every request's time recorded. */
function crawlOptions(clock: ReturnType<typeof manualClock>, fetched: { url: string; at: number }[]) {
  return {
    clock,
    maxBytes: 1024 * 1024,
    fetch: (input: string | URL, init?: RequestInit) => {
      fetched.push({ url: String(input), at: clock.now() });
      return fetch(input, init);
    },
  };
}

describe('ingestSite', () => {
  it('crawls the local test site: same origin only, robots obeyed, boilerplate gone, citations carry the page', async () => {
    const partner = await startTestSite({ '/welcome': { body: page('Partner', paragraphs('Partner content.')) } });
    const huge = { finished: false };
    const site = await handbookSite(partner, huge);
    const index = freshIndex();
    const clock = manualClock();
    const fetched: { url: string; at: number }[] = [];
    const events: string[] = [];

    const summary = await ingestSite(index, site.url('/'), { ...crawlOptions(clock, fetched), onPage: (event) => events.push(`${event.action} ${event.url}`) });

    expect(summary.added.sort()).toEqual([site.url('/'), site.url('/notes.txt'), site.url('/orphan'), site.url('/policies/expenses'), site.url('/policies/leave')]);
    expect(summary.skipped.sort((a, b) => a.url.localeCompare(b.url))).toEqual([
      { url: site.url('/files/report'), reason: 'not HTML or text (application/pdf)' },
      { url: site.url('/huge'), reason: `larger than ${1024 * 1024} bytes` },
      { url: site.url('/missing'), reason: 'answered 404' },
      { url: site.url('/old/expenses'), reason: `redirects to ${site.url('/policies/expenses')}` },
      { url: site.url('/partner'), reason: `redirects to ${partner.origin}/landing, another origin (not followed)` },
      { url: site.url('/private/salaries'), reason: `disallowed by ${site.url('/robots.txt')}` },
    ]);
    expect(summary.removed).toEqual([]);
    expect(events).toHaveLength(11);

    // Same origin only: the partner site was never asked for anything, nor the disallowed page or the logo.
    expect(partner.requests).toEqual([]);
    const paths = site.requests.map((request) => request.path);
    expect(paths.filter((path) => path.startsWith('/private/') || path === '/logo.png')).toEqual([]);
    expect(fetched.every((request) => request.url.startsWith(`${site.origin}/`))).toBe(true);
    expect(paths.slice(0, 2)).toEqual(['/robots.txt', '/sitemap.xml']);
    expect(site.requests.every((request) => request.userAgent?.startsWith('groundcheck/'))).toBe(true);
    // The huge page was cut off at the limit: the server never got to send it whole.
    expect(huge.finished).toBe(false);
    // Crawl-delay: 2 is kept between every two requests (the clock moves only when the crawler waits).
    const gaps = fetched.slice(1).map((request, position) => request.at - fetched[position]!.at);
    expect(gaps.length).toBe(fetched.length - 1);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(2000);
    expect(summary.crawl).toMatchObject({ robots: 'file', crawlDelayMs: 2000, delayMs: 2000, sitemapUrls: 2, offOriginLinks: 1, pagesVisited: 9 });

    // Boilerplate gone: no navigation, header, sidebar, footer or script text in any chunk.
    const chunks = allChunks(index);
    const texts = chunks.map((chunk) => chunk.modelText).join('\n');
    for (const word of BOILERPLATE) expect(texts).not.toContain(word);
    expect(texts).not.toContain('Copyright');
    expect(texts).toContain('| Years of service | Days of leave |');
    expect(texts).toContain('the expense_code field must name the client');

    // Each page is a document: its URL as the path, its title and date as fields.
    const documents = index.listDocuments().map(({ path, title, updated, url }) => ({ path, title, updated, url }));
    expect(documents.find((document) => document.path === site.url('/policies/leave'))).toEqual({
      path: site.url('/policies/leave'), title: 'Leave Policy', updated: '2026-01-12', url: site.url('/policies/leave'),
    });
    expect(documents.find((document) => document.path === site.url('/policies/expenses'))).toMatchObject({ title: 'Expenses', updated: '2026-03-03' });
    expect(documents.find((document) => document.path === site.url('/notes.txt'))).toMatchObject({ title: 'Office Notes', updated: null });
    const port = new URL(site.origin).port;
    expect(chunks.map((chunk) => chunk.chunkId).sort()).toContain(`127-0-0-1-${port}/policies/leave#parental-leave`);

    // The answer's citation names the page, and its source carries the URL.
    const pipeline = createRagPipeline({ index, chat: createLocalChatModel() });
    const trace = await pipeline.ask('How many weeks of paid parental leave do parents receive?');
    expect(trace.refused).toBe(false);
    expect(trace.chunks[0]).toMatchObject({ title: 'Leave Policy', section: 'Parental leave', updated: '2026-01-12', url: site.url('/policies/leave') });
    expect(extractCitations(trace.answer).citations.map(({ title, updated }) => ({ title, updated }))).toContainEqual({ title: 'Leave Policy', updated: '2026-01-12' });
    expect(toAnswerPayload(trace).sources[0]).toMatchObject({ title: 'Leave Policy', url: site.url('/policies/leave') });
  });

  it('re-crawls incrementally: unchanged pages skipped (304 or same text), changed ones replaced, deleted ones removed, and says so', async () => {
    const partner = await startTestSite();
    const site = await handbookSite(partner, { finished: false });
    const index = freshIndex();
    const options = { ...crawlOptions(manualClock(), []), maxPages: 30 };
    await ingestSite(index, site.url('/'), options);
    const leaveChunk = index.getChunk(`127-0-0-1-${new URL(site.origin).port}/policies/leave#parental-leave`)!;
    const orphanChunks = index.listDocuments().find((document) => document.path === site.url('/orphan'))!.chunkCount;

    // The expenses page changes, the canteen page is deleted (and leaves the sitemap), a new page appears.
    site.routes.set('/policies/expenses', {
      headers: { 'last-modified': 'Wed, 01 Apr 2026 08:00:00 GMT' },
      body: page('Expenses', `<h1>Expenses</h1>${paragraphs('Expenses are repaid within five working days. See also the <a href="/policies/travel">travel policy</a>.')}`),
    });
    site.routes.delete('/orphan');
    site.routes.set('/sitemap.xml', { type: 'application/xml', body: `<urlset><url><loc>${site.url('/policies/leave')}</loc></url></urlset>` });
    site.routes.set('/policies/travel', { body: page('Travel', `<h1>Travel</h1>${paragraphs('Book trains at least a week ahead in standard class; first class needs a director to approve it.')}`) });
    site.requests.length = 0;

    const second = await ingestSite(index, site.url('/'), options);
    expect({
      added: second.added,
      replaced: second.replaced,
      unchanged: [...second.unchanged].sort(),
      removed: second.removed,
    }).toEqual({
      added: [site.url('/policies/travel')],
      replaced: [site.url('/policies/expenses')],
      unchanged: [site.url('/'), site.url('/notes.txt'), site.url('/policies/leave')],
      removed: [{ url: site.url('/orphan'), reason: 'answered 404' }],
    });
    // The leave page sent its ETag back and got a 304: its chunks were not rewritten.
    expect(site.requests.find((request) => request.path === '/policies/leave')?.ifNoneMatch).toBe('"leave-v1"');
    expect(site.notModified).toEqual(['/policies/leave']);
    expect(index.getChunk(leaveChunk.chunkId)?.rowid).toBe(leaveChunk.rowid);
    // The deleted page and its chunks are gone; the new and changed text is there.
    expect(index.listDocuments().map((document) => document.path)).not.toContain(site.url('/orphan'));
    expect(second.chunksRemoved).toBeGreaterThanOrEqual(orphanChunks);
    const texts = allChunks(index).map((chunk) => chunk.text).join('\n');
    expect(texts).not.toContain('canteen serves lunch');
    expect(texts).toContain('repaid within five working days');
    expect(index.listDocuments().find((document) => document.path === site.url('/policies/expenses'))?.updated).toBe('2026-04-01');

    const printed = formatSiteIngestSummary(second);
    expect(printed).toContain(`  removed   ${site.url('/orphan')} (answered 404)`);
    expect(printed).toContain(`  replaced  ${site.url('/policies/expenses')}`);
    expect(printed).toMatch(/1 added, 1 replaced, 3 unchanged \(skipped\), 1 removed, \d+ skipped;/);
  });
});

describe('ingestSite limits', () => {
  /** `/` → `/a` → `/b` → `/c`, each page linking to the next. */
  async function chainSite() {
    const routes: Record<string, { body: string }> = {};
    const chain = ['/', '/a', '/b', '/c'];
    chain.forEach((path, position) => {
      const next = chain[position + 1];
      const link = next ? ` Go on to <a href="${next}">the next page</a>.` : '';
      routes[path] = { body: `<html><body><main><h1>Page ${path}</h1><p>This is page ${path} of a chain of pages, with enough words to be kept.${link}</p></main></body></html>` };
    });
    return startTestSite(routes);
  }

  it('stops at --max-depth and --max-pages, and keeps stored pages it did not get to', async () => {
    const site = await chainSite();
    const index = freshIndex();
    const shallow = await ingestSite(index, site.url('/'), { ...crawlOptions(manualClock(), []), maxDepth: 1 });
    expect(shallow.added).toEqual([site.url('/'), site.url('/a')]);
    expect(site.requests.map((request) => request.path)).toEqual(['/robots.txt', '/sitemap.xml', '/', '/a']);

    const startOnly = await ingestSite(freshIndex(), site.url('/'), { ...crawlOptions(manualClock(), []), maxDepth: 0 });
    expect(startOnly.added).toEqual([site.url('/')]);
    expect(site.requests.slice(4).map((request) => request.path)).toEqual(['/robots.txt', '/']);

    const full = await ingestSite(index, site.url('/'), crawlOptions(manualClock(), []));
    expect(full.added).toEqual([site.url('/b'), site.url('/c')]);
    const limited = await ingestSite(index, site.url('/'), { ...crawlOptions(manualClock(), []), maxPages: 2 });
    expect({ unchanged: limited.unchanged, notChecked: limited.notChecked, removed: limited.removed }).toEqual({
      unchanged: [site.url('/'), site.url('/a')],
      notChecked: [site.url('/b'), site.url('/c')],
      removed: [],
    });
    expect(formatSiteIngestSummary(limited)).toContain('2 stored pages not re-checked (--max-pages or --max-depth reached first): kept as they were');
    expect(index.listDocuments()).toHaveLength(4);
  });

  it('rejects out-of-range options by name', async () => {
    await expect(ingestSite(freshIndex(), 'http://127.0.0.1:9/', { maxPages: 0 })).rejects.toMatchObject({
      code: 'invalid_option',
      message: 'option maxPages 0 is invalid: use a whole number from 1 to 100000',
    });
    await expect(ingestSite(freshIndex(), 'http://127.0.0.1:9/', { maxBytes: 10.5 })).rejects.toMatchObject({ code: 'invalid_option', message: expect.stringMatching(/^option maxBytes 10\.5 is invalid/) });
  });
});

describe('ingestSite errors', () => {
  const options = () => crawlOptions(manualClock(), []);

  it('says in one line when the host cannot be reached', async () => {
    const site = await startTestSite();
    const url = site.url('/');
    await site.close();
    const error = await ingestSite(freshIndex(), url, options()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CrawlError);
    expect(error).toMatchObject({ code: 'host_unreachable', message: `cannot reach ${site.origin}: connection refused` });
  });

  it.each([
    ['robots.txt disallows the start page', { '/robots.txt': { type: 'text/plain', body: 'User-agent: groundcheck\nDisallow: /\n' } }, 'disallowed_by_robots', (origin: string) => `${origin}/robots.txt disallows ${origin}/ for groundcheck; nothing was crawled`],
    ['robots.txt fails with a 503', { '/robots.txt': { status: 503, body: 'down' } }, 'disallowed_by_robots', (origin: string) => `${origin}/robots.txt answered 503; without robots.txt nothing may be crawled (RFC 9309), so ${origin}/ was not requested`],
    ['the start page is a 404', {}, 'no_crawlable_pages', (origin: string) => `no crawlable pages at ${origin}/: ${origin}/ answered 404`],
    ['the start page is not HTML', { '/': { type: 'image/png', body: 'png' } }, 'no_crawlable_pages', (origin: string) => `no crawlable pages at ${origin}/: ${origin}/ not HTML or text (image/png)`],
  ] as const)('fails with a clear input error when %s', async (_case, routes, code, message) => {
    const site = await startTestSite(routes);
    const index = freshIndex();
    const error = await ingestSite(index, site.url('/'), options()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidInputError);
    expect(error).toMatchObject({ code, message: message(site.origin) });
    expect(index.listDocuments()).toEqual([]);
  });

  it.each([
    ['ftp://example.com/', 'ftp://example.com/ is not an http or https URL: only web pages can be crawled'],
    ['http://', '"http://" is not a URL: give one like https://docs.example.com/'],
    ['https://user:secret@example.com/', 'https://example.com was given with a user name or password in the URL; groundcheck crawls public pages only'],
  ])('rejects %s before any request', async (url, message) => {
    const requests: string[] = [];
    const error = await ingestSite(freshIndex(), url, { fetch: (input) => (requests.push(String(input)), fetch(input)) }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'invalid_url', message });
    expect(requests).toEqual([]);
  });

  it('keeps every stored page when a re-crawl finds nothing crawlable', async () => {
    const site = await startTestSite({ '/': { body: page('Home', `<h1>Home</h1>${paragraphs('The home page of a small site, with enough words to count as content.')}`) } });
    const index = freshIndex();
    await ingestSite(index, site.url('/'), options());
    site.routes.delete('/');
    await expect(ingestSite(index, site.url('/'), options())).rejects.toMatchObject({
      code: 'no_crawlable_pages',
      message: `no crawlable pages at ${site.url('/')}: ${site.url('/')} answered 404; the stored pages were kept`,
    });
    expect(index.listDocuments().map((document) => document.path)).toEqual([site.url('/')]);
  });
});
