/**
 * `site-search/next` builds result URLs on the Host the browser sent, because `next start` reports every request on
 * localhost (seen on Next 16.4.6; frameworks/next.test.ts checks it against the real server). Here: which headers may
 * and may not move the origin, over a real node:sqlite index.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toNextHandler } from '../../adapters/next.js';
import { openSqlite } from '../../adapters/node.js';
import type { SearchOptions } from '../../src/index.js';
import { seed, siteDocs } from '../helpers/documents.js';

const options: SearchOptions = { database: 'next-adapter', sources: [{ dir: 'docs', type: 'doc', url: '/docs/:slug' }] };
const db = openSqlite(':memory:');
beforeAll(() => seed(db, siteDocs()));
afterAll(() => db.close());

/** What `next start` hands a route: a URL on localhost, whatever the browser asked for. */
const nextRequest = (headers: Record<string, string>, url = 'http://localhost:3000/api/search?q=collections') => new Request(url, { headers });
const origins = async (route: (r: Request) => Promise<Response>, request: Request) => {
  const body = (await (await route(request)).json()) as { results: { url: string }[] };
  expect(body.results.length).toBeGreaterThan(0);
  return [...new Set(body.results.map((r) => new URL(r.url).origin))];
};

describe('toNextHandler: the origin of result URLs', () => {
  const { GET } = toNextHandler(options, { db, cache: false });

  it('is the Host the browser sent, with the protocol Next reports', async () => {
    expect(await origins(GET, nextRequest({ host: 'docs.example.com' }))).toEqual(['http://docs.example.com']);
    expect(await origins(GET, nextRequest({ host: '127.0.0.1:3000' }))).toEqual(['http://127.0.0.1:3000']);
    // Next turns X-Forwarded-Proto into the request URL's protocol; that protocol is kept.
    expect(await origins(GET, nextRequest({ host: 'docs.example.com' }, 'https://localhost:3000/api/search?q=collections'))).toEqual([
      'https://docs.example.com',
    ]);
  });

  it('never follows X-Forwarded-Host, nor a malformed Host', async () => {
    expect(await origins(GET, nextRequest({ host: 'docs.example.com', 'x-forwarded-host': 'evil.example' }))).toEqual(['http://docs.example.com']);
    for (const host of ['127.0.0.1@evil.example', 'a b<>', 'evil.example/path']) {
      expect(await origins(GET, nextRequest({ host })), host).toEqual(['http://localhost:3000']);
    }
  });

  it('is the origin option when set, whatever the Host', async () => {
    const pinned = toNextHandler({ ...options, origin: 'https://docs.example.com/ignored/path' }, { db, cache: false });
    expect(await origins(pinned.GET, nextRequest({ host: 'evil.example' }))).toEqual(['https://docs.example.com']);
  });
});
