import { describe, expect, it } from 'vitest';
import { extractHtml, extractText, isoDate } from './extract.js';

const pageUrl = new URL('https://docs.example.com/guide/leave');

describe('extractHtml', () => {
  it('keeps the main content as Markdown, without navigation, chrome, scripts, links or images', () => {
    const page = extractHtml(
      `<html><head><title>Leave | Docs</title><script>var secret = 'Scriptword'</script></head><body>
      <header><nav><a href="/a">Navword</a></nav></header>
      <div id="content"><h1>Leave</h1><p>Read the <a href="/guide/booking">booking guide</a> first <img src="x.png" alt="Imageword">. Fields such as snake_case_name and 2 * 3 stay as written.</p>
      <h2>Parental leave</h2><ul><li>Twenty weeks</li><li>Paid in full</li></ul>
      <pre><code>npm run leave</code></pre>
      <form><button>Buttonword</button></form></div>
      <footer>Footerword</footer></body></html>`,
      pageUrl,
    );
    expect(page.title).toBe('Leave');
    expect(page.markdown).toBe(
      'Read the booking guide first . Fields such as snake_case_name and 2 * 3 stay as written.\n\n## Parental leave\n\n-   Twenty weeks\n-   Paid in full\n\n```\nnpm run leave\n```',
    );
    expect(page.links).toEqual({ pages: [new URL('https://docs.example.com/a'), new URL('https://docs.example.com/guide/booking')], offOrigin: [] });
  });

  it('takes the title from the one <h1>, else the page title; the date from metadata, then Last-Modified, then the published time', () => {
    const head = (meta: string) => `<html><head><title>Site | Page</title>${meta}</head><body><main><p>Enough text to be content for the extractor to keep.</p></main></body></html>`;
    expect(extractHtml(head('<meta property="article:modified_time" content="2026-01-12T23:30:00-05:00">'), pageUrl, { lastModified: 'Tue, 03 Mar 2026 10:00:00 GMT' })).toMatchObject({
      title: 'Site | Page',
      updated: '2026-01-12',
    });
    expect(extractHtml(head('<meta property="article:published_time" content="2025-05-01">'), pageUrl, { lastModified: 'Tue, 03 Mar 2026 10:00:00 GMT' }).updated).toBe('2026-03-03');
    expect(extractHtml(head('<script type="application/ld+json">{"datePublished":"2025-05-01"}</script>'), pageUrl).updated).toBe('2025-05-01');
    expect(extractHtml(head('<script type="application/ld+json">{"dateModified":"2025-06-02"}</script>'), pageUrl).updated).toBe('2025-06-02');
    expect(extractHtml(head(''), pageUrl).updated).toBeNull();
    const twoHeadings = '<html><head><title>Both</title></head><body><main><h1>One</h1><p>Text that is long enough to keep.</p><h1>Two</h1><p>More text.</p></main></body></html>';
    expect(extractHtml(twoHeadings, pageUrl).title).toBe('Both');
  });

  it('turns tables into GFM tables, also without a header row', () => {
    const page = extractHtml('<main><p>Rates below.</p><table><tr><td>Car</td><td>45p</td></tr><tr><td>Bike</td><td>20p</td></tr></table></main>', pageUrl);
    expect(page.markdown).toBe('Rates below.\n\n|     |     |\n| --- | --- |\n| Car | 45p |\n| Bike | 20p |');
  });

  it('obeys noindex and nofollow, from the meta tag (robots or groundcheck) and X-Robots-Tag', () => {
    const html = (meta: string) => `<html><head>${meta}</head><body><main><p>Text <a href="/next">next</a>.</p></main></body></html>`;
    expect(extractHtml(html('<meta name="robots" content="noindex, follow">'), pageUrl)).toMatchObject({ noindex: true, nofollow: false, links: { pages: [new URL('https://docs.example.com/next')] } });
    expect(extractHtml(html('<meta name="groundcheck" content="nofollow">'), pageUrl)).toMatchObject({ noindex: false, nofollow: true, links: { pages: [] } });
    expect(extractHtml(html('<meta name="otherbot" content="none">'), pageUrl)).toMatchObject({ noindex: false, nofollow: false });
    expect(extractHtml(html(''), pageUrl, { robotsTag: 'noindex' }).noindex).toBe(true);
    expect(extractHtml(html(''), pageUrl, { robotsTag: 'otherbot: noindex, nofollow' })).toMatchObject({ noindex: false, nofollow: false });
    expect(extractHtml(html(''), pageUrl, { robotsTag: 'groundcheck: none' })).toMatchObject({ noindex: true, nofollow: true });
  });

  it('resolves links against <base href>, counts other origins, and leaves out nofollow links and files', () => {
    const page = extractHtml(
      `<html><head><base href="https://docs.example.com/v2/"></head><body><main><p>
      <a href="intro">Intro</a> <a href="intro#part">Intro again</a> <a href="https://other.example/x">Other</a> <a href="https://other.example/x#again">Other again</a> <a href="mailto:a@b.c">Mail</a>
      <a href="/private" rel="nofollow">No</a> <a href="/manual.pdf">PDF</a> <a href="/file" download>File</a> <a href="http://docs.example.com/v2/plain">Other scheme</a>
      </p></main></body></html>`,
      pageUrl,
    );
    expect(page.links).toEqual({ pages: [new URL('https://docs.example.com/v2/intro')], offOrigin: ['https://other.example/x', 'http://docs.example.com/v2/plain'] });
  });
});

describe('extractText', () => {
  it('keeps the text as it is, dated by Last-Modified', () => {
    expect(extractText('# Notes\r\n\r\nOpen at 8am.\r\n', { lastModified: 'Tue, 03 Mar 2026 10:00:00 GMT' })).toEqual({
      title: null, markdown: '# Notes\n\nOpen at 8am.', updated: '2026-03-03', links: { pages: [], offOrigin: [] }, noindex: false, nofollow: false,
    });
  });
});

describe('isoDate', () => {
  it.each([
    ['2026-01-12', '2026-01-12'],
    ['2026-01-12T23:30:00-05:00', '2026-01-12'],
    ['Tue, 03 Mar 2026 10:00:00 GMT', '2026-03-03'],
    ['2026-13-45', null],
    ['soon', null],
    [null, null],
  ])('%s → %s', (value, expected) => {
    expect(isoDate(value)).toBe(expected);
  });
});
