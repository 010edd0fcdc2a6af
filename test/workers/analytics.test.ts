/**
 * Analytics in workerd (Miniflare) with a real D1 binding, the real Cache API and a real Analytics Engine binding:
 * counts flushed in `ctx.waitUntil`, cache hits counted, clicks counted; with an engine binding, data points instead.
 */
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchDatabase } from '../../src/index.js';
import { seed, siteDocs } from '../helpers/documents.js';
import { bundleTestWorker } from '../helpers/worker-bundle.js';

const ORIGIN = 'http://worker.test';
let mf: Miniflare;
let db: SearchDatabase;

beforeAll(async () => {
  mf = new Miniflare({
    modules: true,
    script: await bundleTestWorker('analytics-entry.ts'),
    compatibilityDate: '2026-07-01',
    d1Databases: { SEARCH_DB: 'worker-analytics-db' },
    analyticsEngineDatasets: { SEARCH_ANALYTICS: { dataset: 'site_search' } },
  });
  db = (await mf.getD1Database('SEARCH_DB')) as unknown as SearchDatabase;
  await seed(db, siteDocs());
});
afterAll(() => mf?.dispose());

/** Background work ends after the response: poll until `read` returns what is expected. */
async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  let value = await read();
  for (let i = 0; i < 100 && !done(value); i++) {
    await new Promise((r) => setTimeout(r, 50));
    value = await read();
  }
  return value;
}

describe('analytics in a Worker', () => {
  it('counts searches (cache hits included) and clicks into D1 from ctx.waitUntil', async () => {
    const first = await mf.dispatchFetch(`${ORIGIN}/d1/api/search?q=wrangler`);
    expect(first.headers.get('X-Search-Cache')).toBe('MISS');
    const url = ((await first.json()) as { results: { url: string }[] }).results[0]!.url;
    let asked = 1;
    const cached = await eventually(
      async () => (asked++, (await mf.dispatchFetch(`${ORIGIN}/d1/api/search?q=Wrangler`)).headers.get('X-Search-Cache')),
      (header) => header === 'HIT',
    );
    expect(cached).toBe('HIT');
    const click = await mf.dispatchFetch(`${ORIGIN}/d1/api/search`, { method: 'POST', body: JSON.stringify({ q: 'wrangler', url, rank: 1 }) });
    expect(click.status).toBe(204);

    const read = async () => (await db.prepare("SELECT sum(searches) AS n FROM site_search_queries WHERE query = 'wrangler'").all<{ n: number }>()).results[0]?.n;
    // Every answer is counted, the MISSes until the cache held the answer and the HIT after them.
    expect(Number(await eventually(() => read().catch(() => 0), (n) => Number(n) >= asked))).toBe(asked);
    const clicks = await eventually(
      async () => (await db.prepare('SELECT query, url, rank, clicks FROM site_search_clicks').all()).results,
      (rows) => rows.length > 0,
    );
    expect(clicks).toEqual([{ query: 'wrangler', url: new URL(url).pathname, rank: 1, clicks: 1 }]);
  });

  // Issue 55, item 6: with the default flushSeconds (300) `stats` showed nothing for five minutes after a Worker's
  // first searches. The first search of an isolate is written at once (in its waitUntil); the rest wait their window.
  it('with the default options, the first search of an isolate reaches D1 at once', async () => {
    expect((await mf.dispatchFetch(`${ORIGIN}/default/api/search?q=collections`)).status).toBe(200);
    const read = async () => (await db.prepare("SELECT searches FROM site_search_queries WHERE query = 'collections'").all<{ searches: number }>()).results;
    expect(await eventually(() => read().catch(() => []), (rows) => rows.length > 0)).toEqual([{ searches: 1 }]);
  });

  it('with an Analytics Engine binding writes data points there, one per search and click, and nothing to D1', async () => {
    await db.prepare('DROP TABLE IF EXISTS site_search_queries').run();
    const answer = await mf.dispatchFetch(`${ORIGIN}/engine/api/search?q=collections`);
    const url = ((await answer.json()) as { results: { url: string }[] }).results[1]!.url;
    expect((await mf.dispatchFetch(`${ORIGIN}/engine/api/search`, { method: 'POST', body: JSON.stringify({ q: 'collections', url, rank: 2 }) })).status).toBe(204);
    const points = (await (await mf.dispatchFetch(`${ORIGIN}/__points`)).json()) as { blobs: string[]; doubles: number[] }[];
    expect(points.map((p) => [p.blobs[0], p.blobs[3], p.doubles[1]])).toEqual([
      ['search', 'collections', 0],
      ['click', 'collections', 2],
    ]);
    expect(points[1]!.blobs[6]).toBe(new URL(url).pathname);
    const tables = await db.prepare("SELECT name FROM sqlite_schema WHERE name = 'site_search_queries'").all();
    expect(tables.results).toEqual([]);
  });
});
