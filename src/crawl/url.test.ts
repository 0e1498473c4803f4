import { describe, expect, it } from 'vitest';
import { pageSlug, parseStartUrl, resolveSameOrigin } from './url.js';

describe('crawl URLs', () => {
  it.each([
    ['https://docs.example.com/', 'docs-example-com'],
    ['https://docs.example.com/guide/leave.html', 'docs-example-com/guide/leave'],
    ['https://docs.example.com/guide/', 'docs-example-com/guide'],
    ['http://127.0.0.1:8080/Caf%C3%A9%20Menu?lang=en&page=2', '127-0-0-1-8080/cafe-menu/lang-en-page-2'],
  ])('%s has the document id %s', (url, slug) => {
    expect(pageSlug(new URL(url))).toBe(slug);
  });

  it('resolves same-origin links without their fragment, and nothing else', () => {
    const base = new URL('https://docs.example.com/guide/leave');
    expect(resolveSameOrigin('booking#step-2', base, base.origin)?.href).toBe('https://docs.example.com/guide/booking');
    expect(resolveSameOrigin('//docs.example.com:8443/x', base, base.origin)).toBeNull();
    expect(resolveSameOrigin('http://docs.example.com/x', base, base.origin)).toBeNull();
    expect(resolveSameOrigin('javascript:alert(1)', base, base.origin)).toBeNull();
    expect(resolveSameOrigin('http://[broken', base, base.origin)).toBeNull();
  });

  it('starts from the page without its fragment', () => {
    expect(parseStartUrl('https://docs.example.com/guide/#intro').href).toBe('https://docs.example.com/guide/');
  });
});
