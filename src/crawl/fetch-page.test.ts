import { describe, expect, it } from 'vitest';
import { startTestSite } from '../test-support/test-site.js';
import { fetchOnce, type FetchOnceOptions } from './fetch-page.js';

const limits = { timeoutMs: 2000, maxBytes: 1000, userAgent: 'groundcheck-test' };
const pageTypes = ['text/html', 'text/plain'];

describe('fetchOnce', () => {
  it('reads an accepted page with its validators, decoding by the declared charset', async () => {
    const site = await startTestSite({
      '/page': { type: 'text/html; charset=iso-8859-1', etag: '"v1"', headers: { 'last-modified': 'Tue, 03 Mar 2026 10:00:00 GMT' }, body: '' },
    });
    site.routes.set('/latin', (_req, res) => res.writeHead(200, { 'content-type': 'text/plain; charset=iso-8859-1' }).end(Buffer.from([0x63, 0x61, 0x66, 0xe9])));
    const options: FetchOnceOptions = { fetch, limits, accept: pageTypes };
    expect(await fetchOnce(new URL(site.url('/page')), options)).toMatchObject({ kind: 'ok', status: 200, mediaType: 'text/html', etag: '"v1"', lastModified: 'Tue, 03 Mar 2026 10:00:00 GMT' });
    expect(await fetchOnce(new URL(site.url('/latin')), options)).toMatchObject({ kind: 'ok', body: 'café' });
    expect(await fetchOnce(new URL(site.url('/page')), { ...options, validators: { etag: '"v1"', lastModified: null } })).toEqual({ kind: 'not_modified', url: new URL(site.url('/page')) });
    expect(site.requests.map((request) => [request.userAgent, request.ifNoneMatch])).toEqual([['groundcheck-test', null], ['groundcheck-test', null], ['groundcheck-test', '"v1"']]);
  });

  it('reports redirects without following them, errors, other types and bodies over the limit', async () => {
    const site = await startTestSite({
      '/moved': { status: 308, headers: { location: 'https://elsewhere.example/new' } },
      '/broken': { status: 500, body: 'oops' },
      '/image': { type: 'image/png', body: 'png' },
      '/declared-big': { type: 'text/html', body: 'x'.repeat(1001) },
    });
    site.routes.set('/streamed-big', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.write('x'.repeat(600));
      res.end('y'.repeat(600));
    });
    const get = (path: string) => fetchOnce(new URL(site.url(path)), { fetch, limits, accept: pageTypes });
    expect(await get('/moved')).toMatchObject({ kind: 'redirect', status: 308, location: new URL('https://elsewhere.example/new') });
    expect(await get('/broken')).toMatchObject({ kind: 'http_error', status: 500 });
    expect(await get('/image')).toMatchObject({ kind: 'unsupported_type', mediaType: 'image/png' });
    expect(await get('/declared-big')).toMatchObject({ kind: 'too_large', maxBytes: 1000 });
    expect(await get('/streamed-big')).toMatchObject({ kind: 'too_large', maxBytes: 1000 });
  });

  it('gives up after the timeout, headers or body', async () => {
    const site = await startTestSite();
    site.routes.set('/silent', () => undefined);
    site.routes.set('/slow-body', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.write('<p>start');
    });
    const get = (path: string) => fetchOnce(new URL(site.url(path)), { fetch, limits: { ...limits, timeoutMs: 150 }, accept: pageTypes });
    expect(await get('/silent')).toMatchObject({ kind: 'network_error', message: 'no answer within 150 ms', timedOut: true });
    expect(await get('/slow-body')).toMatchObject({ kind: 'network_error', message: 'no answer within 150 ms', timedOut: true });
  });
});
